// Uploads against the real local realm server (through the fault proxy): multipart and tus with
// monotonic progress, resuming tus after a dropped connection, cancelling, and refusing files over
// max_file_upload_size_mib before a byte is sent.
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { UploadProgress } from '../../shared/ipc/uploads';
import { ApiClient } from '../../electron/api/client';
import { ApiError } from '../../electron/api/errors';
import { FileIntake } from '../../electron/uploads/intake';
import { UploadManager } from '../../electron/uploads/uploads';
import { startTestServer, type TestServer } from '../support/server';
import { startFaultProxy, type FaultProxy } from './support/fault-proxy';

let realm: TestServer;
let proxy: FaultProxy;
let dir: string;
let client: ApiClient;
const intake = new FileIntake();
const progress: UploadProgress[] = [];
let uploads: UploadManager;

beforeAll(async () => {
  realm = await startTestServer();
  proxy = await startFaultProxy(() => realm.url);
  dir = mkdtempSync(join(tmpdir(), 'tributary-uploads-'));
  const owner = realm.users.owner;
  client = new ApiClient({
    site: proxy.url,
    credentials: { email: owner.email, apiKey: owner.api_key },
  });
  uploads = new UploadManager({
    intake,
    onProgress: (p) => progress.push(p),
    tusThresholdBytes: 512 * 1024,
    tusChunkBytes: 256 * 1024,
    tusRetryDelaysMs: [0, 100, 200, 400],
  });
});
afterAll(async () => {
  await proxy?.close();
  await realm?.close();
  rmSync(dir, { recursive: true, force: true });
});

const target = (maxFileUploadSizeMib = 100) => ({ accountId: 'acc', client, maxFileUploadSizeMib });

function makeFile(name: string, size: number): { token: string; bytes: Buffer } {
  const bytes = randomBytes(size);
  const path = join(dir, name);
  writeFileSync(path, bytes);
  return { token: intake.register(path).token, bytes };
}

/** The uploaded bytes, fetched back from the realm with the owner's credentials. */
async function download(url: string): Promise<Buffer> {
  const res = await fetch(`${realm.url}${url}`, {
    headers: { authorization: client.authorizationHeader()! },
  });
  expect(res.status).toBe(200);
  return Buffer.from(await res.arrayBuffer());
}

function expectMonotonic(uploadId: string): UploadProgress[] {
  const mine = progress.filter((p) => p.uploadId === uploadId);
  const loaded = mine.map((p) => p.loaded);
  expect(loaded).toEqual([...loaded].sort((a, b) => a - b));
  expect(mine.length).toBeGreaterThan(2);
  return mine;
}

describe('uploads', () => {
  it('sends a small file as multipart with progress up to done', async () => {
    const { token, bytes } = makeFile('small.bin', 200 * 1024);
    const { uploadId, done } = uploads.start(target(), token);
    const result = await done;
    expect(result).toMatchObject({
      state: 'done',
      method: 'multipart',
      loaded: bytes.length,
      total: bytes.length,
    });
    expectMonotonic(uploadId);
    expect((await download(result.url!)).equals(bytes)).toBe(true);
  });

  it('sends a large file over tus and resumes after a dropped connection', async () => {
    const { token, bytes } = makeFile('large.bin', 1024 * 1024 + 123);
    // The second chunk's PATCH is cut off: the client must ask for the offset and resume.
    proxy.inject({ path: '/api/v1/tus/*', method: 'PATCH', action: 'drop-request', times: 1 });
    const patchesBefore = proxy.log.filter((l) => l.startsWith('PATCH /api/v1/tus/')).length;
    const { uploadId, done } = uploads.start(target(), token);
    const result = await done;
    expect(result).toMatchObject({ state: 'done', method: 'tus', loaded: bytes.length });
    expectMonotonic(uploadId);
    const patches =
      proxy.log.filter((l) => l.startsWith('PATCH /api/v1/tus/')).length - patchesBefore;
    expect(patches).toBeGreaterThan(4); // 5 chunks, one sent twice
    expect(proxy.log.some((l) => l.startsWith('HEAD /api/v1/tus/'))).toBe(true);
    expect((await download(result.url!)).equals(bytes)).toBe(true);
  });

  it('finds the stored file when the answer to the final tus PATCH is lost', async () => {
    // One chunk: the only PATCH completes the upload. The server stores the file, then the proxy cuts
    // the answer; tus-js-client resumes, sees HEAD at full length and succeeds without a body.
    const oneChunk = new UploadManager({
      intake,
      onProgress: (p) => progress.push(p),
      tusThresholdBytes: 512 * 1024,
      tusChunkBytes: 4 * 1024 * 1024,
      tusRetryDelaysMs: [0, 100, 200],
    });
    const { token, bytes } = makeFile('lost answer.bin', 700 * 1024);
    proxy.inject({ path: '/api/v1/tus/*', method: 'PATCH', action: 'drop-response', times: 1 });
    const headsBefore = proxy.log.filter((l) => l.startsWith('HEAD /api/v1/tus/')).length;
    const result = await oneChunk.start(target(), token).done;
    expect(proxy.log.filter((l) => l.startsWith('HEAD /api/v1/tus/')).length).toBeGreaterThan(
      headsBefore,
    );
    expect(result).toMatchObject({ state: 'done', method: 'tus', filename: 'lost answer.bin' });
    expect(result.url).toMatch(/^\/user_uploads\//);
    expect((await download(result.url!)).equals(bytes)).toBe(true);
  });

  it('cancels an upload in flight (multipart and tus)', async () => {
    for (const [name, size, path] of [
      ['slow-small.bin', 100 * 1024, '/api/v1/user_uploads'],
      ['slow-large.bin', 600 * 1024, '/api/v1/tus*'],
    ] as const) {
      proxy.inject({ path, action: { delayMs: 5_000 }, times: 1 });
      const { token } = makeFile(name, size);
      const { uploadId, done } = uploads.start(target(), token);
      uploads.cancel(uploadId);
      const result = await done;
      expect(result.state).toBe('cancelled');
      // Listed as ended (a page that reconnects replays it), no longer in flight.
      expect(uploads.list().find((u) => u.uploadId === uploadId)?.state).toBe('cancelled');
    }
  });

  it('sends the real media type (multipart and tus), which the server keeps and serves', async () => {
    // PNG bytes under a name without an extension: only the client's sniffing can tell the type,
    // the server would otherwise record application/octet-stream.
    const pngHead = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
    for (const [name, size, method] of [
      ['screenshot', 4 * 1024, 'multipart'],
      ['screen recording still', 600 * 1024, 'tus'],
    ] as const) {
      const bytes = Buffer.concat([pngHead, randomBytes(size)]);
      const path = join(dir, name);
      writeFileSync(path, bytes);
      const result = await uploads.start(target(), intake.register(path).token).done;
      expect(result, name).toMatchObject({ state: 'done', method });
      const res = await fetch(`${realm.url}${result.url}`, {
        headers: { authorization: client.authorizationHeader()! },
      });
      expect(res.headers.get('content-type'), name).toBe('image/png');
    }
    // Without telling bytes, the name decides.
    const { token } = makeFile('notes.pdf', 1024);
    const pdf = await uploads.start(target(), token).done;
    const res = await fetch(`${realm.url}${pdf.url}`, {
      headers: { authorization: client.authorizationHeader()! },
    });
    expect(res.headers.get('content-type')).toBe('application/pdf');
  });

  it('refuses a file over max_file_upload_size_mib before sending anything', () => {
    const { token } = makeFile('too-big.bin', 1024 * 1024 + 1);
    const before = proxy.log.length;
    let error: unknown;
    try {
      uploads.start(target(1), token);
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(ApiError);
    expect((error as ApiError).code).toBe('FILE_TOO_LARGE');
    expect((error as ApiError).message).toMatch(/up to 1 MiB/);
    expect(proxy.log.length).toBe(before);
    expect(intake.get(token)).toBeUndefined();
  });
});
