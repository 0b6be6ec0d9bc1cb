// One tus request over plain node:http (fetch cannot send HEAD bodies or drop a body midway), for
// the upload tests.
import { request as httpRequest } from 'node:http';

export interface TusResponse {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  text: string;
}

export function tusRequest(
  baseUrl: string,
  authHeader: string | null | undefined,
  method: string,
  path: string,
  headers: Record<string, string> = {},
  body?: Buffer,
): Promise<TusResponse> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(new URL(baseUrl + path), {
      method,
      headers: {
        'tus-resumable': '1.0.0',
        ...(authHeader ? { authorization: authHeader } : {}),
        ...(body ? { 'content-length': String(body.length) } : {}),
        ...headers,
      },
    });
    req.on('error', reject);
    req.on('response', (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () =>
        resolve({
          status: res.statusCode ?? 0,
          headers: res.headers,
          text: Buffer.concat(chunks).toString(),
        }),
      );
    });
    req.end(body);
  });
}
