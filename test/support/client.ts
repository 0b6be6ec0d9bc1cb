/**
 * A tiny API client for tests and benches: HTTP Basic auth, form-encoded bodies where every
 * non-string value is JSON-encoded (as real clients do), GET/DELETE parameters in the query string.
 * Paths are relative to /api/v1 unless they start with '//' (then relative to the realm root).
 *
 *   const res = await client.post('/users/me/subscriptions', { subscriptions: [{ name: 'x' }] });
 *   res.status; res.body (parsed JSON, or null); res.headers (lower-case names); res.text
 *
 * client.multipart(path, FormData) sends multipart/form-data; client.raw(method, path, init) sends
 * anything (malformed bodies, odd content types, custom Authorization headers).
 * Requests never throw on HTTP errors: assert on status and body.
 */
import { paramEntries } from '../../shared/api/param-entries';

export interface ApiResponse<T = Record<string, unknown>> {
  status: number;
  // Tests inspect arbitrary response members; keep access unchecked.
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  body: T & Record<string, any>;
  headers: Record<string, string>;
  text: string;
}

export interface Credentials {
  email: string;
  apiKey: string;
}

export type Params = Record<string, unknown>;

export function encodeParams(params: Params): URLSearchParams {
  return new URLSearchParams(paramEntries(params));
}

export class ApiClient {
  constructor(
    private readonly baseUrl: () => string,
    readonly credentials: Credentials | null,
  ) {}

  get authHeader(): string | undefined {
    if (!this.credentials) return undefined;
    const token = Buffer.from(`${this.credentials.email}:${this.credentials.apiKey}`).toString(
      'base64',
    );
    return `Basic ${token}`;
  }

  url(path: string): string {
    return path.startsWith('//')
      ? this.baseUrl() + path.slice(1)
      : `${this.baseUrl()}/api/v1${path}`;
  }

  get(path: string, params: Params = {}, init: RequestInit = {}): Promise<ApiResponse> {
    return this.withQuery('GET', path, params, init);
  }

  delete(path: string, params: Params = {}, init: RequestInit = {}): Promise<ApiResponse> {
    return this.withQuery('DELETE', path, params, init);
  }

  post(path: string, params: Params = {}, init: RequestInit = {}): Promise<ApiResponse> {
    return this.withBody('POST', path, params, init);
  }

  patch(path: string, params: Params = {}, init: RequestInit = {}): Promise<ApiResponse> {
    return this.withBody('PATCH', path, params, init);
  }

  put(path: string, params: Params = {}, init: RequestInit = {}): Promise<ApiResponse> {
    return this.withBody('PUT', path, params, init);
  }

  multipart(path: string, form: FormData, method = 'POST'): Promise<ApiResponse> {
    return this.raw(method, path, { body: form });
  }

  async raw(method: string, path: string, init: RequestInit = {}): Promise<ApiResponse> {
    const headers = new Headers(init.headers);
    if (!headers.has('authorization') && this.authHeader)
      headers.set('authorization', this.authHeader);
    const response = await fetch(this.url(path), { ...init, method, headers });
    const text = await response.text();
    const body = parseJsonOrNull(text);
    const headerMap: Record<string, string> = {};
    response.headers.forEach((value, key) => (headerMap[key] = value));
    return { status: response.status, body: body as ApiResponse['body'], headers: headerMap, text };
  }

  private withQuery(method: string, path: string, params: Params, init: RequestInit) {
    const query = encodeParams(params).toString();
    return this.raw(method, query ? `${path}?${query}` : path, init);
  }

  private withBody(method: string, path: string, params: Params, init: RequestInit) {
    return this.raw(method, path, {
      ...init,
      headers: { 'content-type': 'application/x-www-form-urlencoded', ...init.headers },
      body: encodeParams(params).toString(),
    });
  }
}

function parseJsonOrNull(text: string): unknown {
  if (!text) return null;
  try {
    return JSON.parse(text);
  } catch {
    return null;
  }
}
