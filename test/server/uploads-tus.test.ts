// The resumable endpoint /api/v1/tus against the real server: tus-js-client in Node, and raw HTTP
// for a PATCH whose connection drops halfway, resumed from the offset HEAD reports.
import { request as httpRequest } from 'node:http';
import { randomBytes } from 'node:crypto';
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import * as tus from 'tus-js-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../support/server';
import type { ApiClient } from '../support/client';
import { tusRequest as sendTus, type TusResponse } from '../support/tus';

const LIMIT_MIB = 1;
let server: TestServer;

beforeAll(async () => {
  server = await startTestServer({ seed: 'demo', maxFileUploadSizeMib: LIMIT_MIB });
});
afterAll(async () => {
  await server.close();
});

const b64 = (text: string) => Buffer.from(text).toString('base64');

function tusRequest(
  client: ApiClient | null,
  method: string,
  path: string,
  headers: Record<string, string> = {},
  body?: Buffer,
): Promise<TusResponse> {
  return sendTus(server.url, client?.authHeader, method, path, headers, body);
}

async function createUpload(client: ApiClient, length: number, name = 'data.bin') {
  const res = await tusRequest(client, 'POST', '/api/v1/tus', {
    'upload-length': String(length),
    'upload-metadata': `filename ${b64(name)},filetype ${b64('application/octet-stream')}`,
  });
  expect(res.status, res.text).toBe(201);
  const location = String(res.headers.location);
  expect(location).toMatch(/^\/api\/v1\/tus\/[0-9a-f]{32}$/);
  return location;
}

function patch(client: ApiClient, location: string, offset: number, chunk: Buffer) {
  return tusRequest(
    client,
    'PATCH',
    location,
    { 'upload-offset': String(offset), 'content-type': 'application/offset+octet-stream' },
    chunk,
  );
}

/** Sends the start of a PATCH body, then destroys the socket: a connection lost mid-chunk. */
function droppedPatch(client: ApiClient, location: string, offset: number, chunk: Buffer) {
  return new Promise<void>((resolve) => {
    const req = httpRequest(new URL(server.url + location), {
      method: 'PATCH',
      headers: {
        'tus-resumable': '1.0.0',
        authorization: client.authHeader!,
        'upload-offset': String(offset),
        'content-type': 'application/offset+octet-stream',
        'content-length': String(chunk.length),
      },
    });
    req.on('error', () => resolve());
    req.on('response', () => resolve());
    const half = chunk.subarray(0, chunk.length / 2);
    req.write(half, () => {
      req.destroy();
      resolve();
    });
  });
}

async function download(client: ApiClient, url: string): Promise<Buffer> {
  const res = await fetch(server.url + url, { headers: { authorization: client.authHeader! } });
  expect(res.status).toBe(200);
  return Buffer.from(await res.arrayBuffer());
}

/** The offset HEAD reports: the server orders it after the dropped PATCH, so it stays put. */
async function headOffset(client: ApiClient, location: string): Promise<number> {
  const res = await tusRequest(client, 'HEAD', location);
  expect(res.status).toBe(200);
  expect(res.headers['cache-control']).toBe('no-store');
  return Number(res.headers['upload-offset']);
}

describe('tus uploads', () => {
  it('uploads in chunks with tus-js-client and answers the last request with {url, filename}', async () => {
    const dev = server.client('dev');
    const bytes = randomBytes(300_000);
    const result = await new Promise<{ status: number; body: string }>((resolve, reject) => {
      const upload = new tus.Upload(bytes, {
        endpoint: `${server.url}/api/v1/tus`,
        headers: { Authorization: dev.authHeader! },
        metadata: { filename: 'recording.opus', filetype: 'audio/ogg' },
        chunkSize: 64 * 1024,
        retryDelays: [],
        onError: reject,
        onSuccess: ({ lastResponse }) =>
          resolve({ status: lastResponse.getStatus(), body: lastResponse.getBody() }),
      });
      upload.start();
    });
    expect(result.status).toBe(200);
    const body = JSON.parse(result.body) as { url: string; filename: string };
    expect(body.filename).toBe('recording.opus');
    expect(body.url).toMatch(/^\/user_uploads\/1\/[0-9a-f]{2}\/[0-9a-f]{32}\/recording\.opus$/);
    expect((await download(dev, body.url)).equals(bytes)).toBe(true);

    const listed = await dev.get('/attachments');
    const record = listed.body.attachments.find(
      (a: { path_id: string }) => `/user_uploads/${a.path_id}` === body.url,
    );
    expect(record).toMatchObject({ name: 'recording.opus', size: bytes.length });
    const served = await fetch(server.url + body.url, {
      headers: { authorization: dev.authHeader! },
    });
    expect(served.headers.get('content-type')).toBe('audio/ogg');
  });

  it('resumes from the offset HEAD reports after a connection drops mid-PATCH', async () => {
    const emma = server.client('emma');
    const bytes = randomBytes(256 * 1024);
    const location = await createUpload(emma, bytes.length, 'resumed.bin');

    const first = await patch(emma, location, 0, bytes.subarray(0, 100_000));
    expect(first.status).toBe(204);
    expect(first.headers['upload-offset']).toBe('100000');

    await droppedPatch(emma, location, 100_000, bytes.subarray(100_000));
    const offset = await headOffset(emma, location);
    expect(offset).toBeGreaterThanOrEqual(100_000);
    expect(offset).toBeLessThan(bytes.length);
    expect((await tusRequest(emma, 'HEAD', location)).headers['upload-length']).toBe(
      String(bytes.length),
    );

    // A PATCH at the wrong offset is refused; the right one completes the upload.
    const stale = await patch(emma, location, 0, bytes.subarray(0, 10));
    expect(stale.status).toBe(409);
    const last = await patch(emma, location, offset, bytes.subarray(offset));
    expect(last.status).toBe(200);
    expect(last.headers['upload-offset']).toBe(String(bytes.length));
    const body = JSON.parse(last.text) as { url: string; filename: string };
    expect(body.filename).toBe('resumed.bin');
    expect((await download(emma, body.url)).equals(bytes)).toBe(true);

    // Finished: HEAD reports the whole file, termination is refused and the file stays.
    expect(await headOffset(emma, location)).toBe(bytes.length);
    const terminate = await tusRequest(emma, 'DELETE', location);
    expect(terminate.status).toBe(400);
    expect((await download(emma, body.url)).equals(bytes)).toBe(true);
    // A further PATCH cannot create a second attachment.
    const again = await patch(emma, location, bytes.length, Buffer.alloc(0));
    expect(again.status).toBe(400);
    const attachments = (await emma.get('/attachments')).body.attachments as { name: string }[];
    expect(attachments.filter((a) => a.name === 'resumed.bin')).toHaveLength(1);
  });

  it('resumes an upload across a server restart', async () => {
    const dev = server.client('dev');
    const bytes = randomBytes(120_000);
    const location = await createUpload(dev, bytes.length, 'restart.bin');
    expect((await patch(dev, location, 0, bytes.subarray(0, 70_000))).status).toBe(204);

    await server.restart();
    expect(await headOffset(dev, location)).toBe(70_000);
    const last = await patch(dev, location, 70_000, bytes.subarray(70_000));
    expect(last.status).toBe(200);
    const body = JSON.parse(last.text) as { url: string };
    expect((await download(dev, body.url)).equals(bytes)).toBe(true);

    await server.restart();
    expect((await download(dev, body.url)).equals(bytes)).toBe(true);
  });

  it('refuses an upload over max_file_upload_size_mib with 413', async () => {
    const res = await tusRequest(server.client('dev'), 'POST', '/api/v1/tus', {
      'upload-length': String(LIMIT_MIB * 1024 * 1024 + 1),
      'upload-metadata': `filename ${b64('big.bin')}`,
    });
    expect(res.status).toBe(413);
    expect(String(res.headers['content-type'])).toMatch(/^application\/json/);
    expect(JSON.parse(res.text)).toEqual({
      result: 'error',
      code: 'BAD_REQUEST',
      msg: 'Maximum size exceeded',
    });
  });

  it('refuses a deferred length with 411', async () => {
    const res = await tusRequest(server.client('dev'), 'POST', '/api/v1/tus', {
      'upload-defer-length': '1',
      'upload-metadata': `filename ${b64('later.bin')}`,
    });
    expect(res.status).toBe(411);
    expect(JSON.parse(res.text)).toMatchObject({ result: 'error', code: 'BAD_REQUEST' });

    // Discovery agrees: the extension is not offered, while the size limit is.
    const options = await tusRequest(null, 'OPTIONS', '/api/v1/tus');
    expect(options.status).toBe(204);
    expect(String(options.headers['tus-extension']).split(',')).not.toContain(
      'creation-defer-length',
    );
    expect(options.headers['tus-max-size']).toBe(String(LIMIT_MIB * 1024 * 1024));
  });

  it('requires credentials and keeps each upload to its creator', async () => {
    const anonymous = await tusRequest(null, 'POST', '/api/v1/tus', { 'upload-length': '10' });
    expect(anonymous.status).toBe(401);
    expect(JSON.parse(anonymous.text).code).toBe('UNAUTHORIZED');

    const location = await createUpload(server.client('dev'), 10);
    const farid = server.client('farid');
    expect((await tusRequest(farid, 'HEAD', location)).status).toBe(404);
    expect((await patch(farid, location, 0, Buffer.alloc(10))).status).toBe(404);
    expect((await tusRequest(farid, 'DELETE', location)).status).toBe(404);
  });

  it("answers tus's own errors in the JSON envelope, keeping their statuses", async () => {
    const dev = server.client('dev');
    const missing = await tusRequest(dev, 'HEAD', `/api/v1/tus/${'0'.repeat(32)}`);
    expect(missing.status).toBe(404);
    const gone = await patch(dev, `/api/v1/tus/${'0'.repeat(32)}`, 0, Buffer.alloc(4));
    expect(gone.status).toBe(404);
    expect(JSON.parse(gone.text)).toMatchObject({ result: 'error', code: 'BAD_REQUEST' });

    const badHeader = await tusRequest(dev, 'POST', '/api/v1/tus', { 'upload-length': 'many' });
    expect(badHeader.status).toBe(400);
    expect(String(badHeader.headers['content-type'])).toMatch(/^application\/json/);
    expect(JSON.parse(badHeader.text)).toMatchObject({
      result: 'error',
      code: 'BAD_REQUEST',
      msg: 'Invalid upload-length',
    });

    const location = await createUpload(dev, 10);
    const wrongOffset = await patch(dev, location, 5, Buffer.alloc(5));
    expect(wrongOffset.status).toBe(409);
    expect(JSON.parse(wrongOffset.text)).toMatchObject({ result: 'error', code: 'BAD_REQUEST' });
  });

  it('terminates an unfinished upload and removes its staging files', async () => {
    const dev = server.client('dev');
    const location = await createUpload(dev, 1000);
    expect((await patch(dev, location, 0, Buffer.alloc(400, 1))).status).toBe(204);
    const id = location.split('/').pop()!;
    const staging = join(server.dataDir, 'uploads', '.staging', 'tus');
    expect(readdirSync(staging)).toContain(id);

    const res = await tusRequest(dev, 'DELETE', location);
    expect(res.status).toBe(204);
    expect(existsSync(join(staging, id))).toBe(false);
    expect((await tusRequest(dev, 'HEAD', location)).status).toBe(404);
  });
});
