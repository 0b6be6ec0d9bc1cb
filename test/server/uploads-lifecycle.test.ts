// Start-up and shutdown of the upload storage: the tus store must not run an unawaited mkdir of its
// own (a failure there is thrown from a callback and ends the process), and a data folder removed
// right after close() must not break anything (test/support/server.ts removes folders at once).
import fs, { existsSync, rmSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import { join, sep } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../support/server';
import { tusRequest, type TusResponse } from '../support/tus';

const realMkdir = fs.mkdir;
afterEach(() => {
  fs.mkdir = realMkdir;
});

function tusCall(
  server: TestServer,
  method: string,
  path: string,
  headers: Record<string, string>,
  body?: Buffer,
): Promise<TusResponse> {
  return tusRequest(server.url, server.client('owner').authHeader, method, path, headers, body);
}

describe('tus store start-up', () => {
  it('creates its folder before the store exists, so the store starts no mkdir of its own', async () => {
    // Fault: every callback-style mkdir of a tus folder fails as if the data folder had vanished.
    // @tus/file-store's constructor uses exactly that call and throws the error from the callback.
    const tusMkdirs: string[] = [];
    fs.mkdir = ((path: fs.PathLike, ...rest: unknown[]) => {
      const callback = rest[rest.length - 1] as (error: NodeJS.ErrnoException | null) => void;
      if (String(path).endsWith(`${sep}.staging${sep}tus`)) {
        tusMkdirs.push(String(path));
        const error = Object.assign(new Error(`ENOENT: no such file or directory, mkdir`), {
          code: 'ENOENT',
        });
        setImmediate(() => callback(error));
        return;
      }
      return (realMkdir as (...args: unknown[]) => void)(path, ...rest);
    }) as typeof fs.mkdir;

    const server = await startTestServer({ seed: 'empty' });
    try {
      expect(tusMkdirs).toEqual([]);
      expect(existsSync(join(server.dataDir, 'uploads', '.staging', 'tus'))).toBe(true);
      // The store works: a one-request upload completes and creates the attachment.
      const data = randomBytes(64);
      const created = await tusCall(server, 'POST', '/api/v1/tus', {
        'upload-length': String(data.length),
        'upload-metadata': `filename ${Buffer.from('tiny.bin').toString('base64')}`,
      });
      expect(created.status, created.text).toBe(201);
      const location = String(created.headers.location);
      const path = location.startsWith('http') ? new URL(location).pathname : location;
      const done = await tusCall(
        server,
        'PATCH',
        path,
        { 'upload-offset': '0', 'content-type': 'application/offset+octet-stream' },
        data,
      );
      expect(done.status, done.text).toBe(200);
      expect(JSON.parse(done.text).filename).toBe('tiny.bin');
    } finally {
      await server.close();
    }
    expect(existsSync(server.dataDir)).toBe(false);
  });

  it('closes cleanly when the data folder is removed at once, and restarts on a fresh one', async () => {
    const first = await startTestServer({ seed: 'empty' });
    const dir = first.dataDir;
    await first.close();
    rmSync(dir, { recursive: true, force: true });
    // Nothing recreates the removed folder behind our back.
    await new Promise((resolve) => setImmediate(resolve));
    expect(existsSync(dir)).toBe(false);
    const second = await startTestServer({ seed: 'empty' });
    const res = await second.client('owner').get('/users/me');
    expect(res.status).toBe(200);
    await second.close();
  });
});
