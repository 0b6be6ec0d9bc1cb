// Opening an uploaded file from a message (openUpload, electron/media/open-upload.ts) against the
// real local realm server: main asks the realm for the file's short-lived download URL with the
// account's credentials and hands only that URL, on the account's own server, to the system
// browser. The URL works without credentials and carries no API key; anything that is not an upload
// of this realm is refused before a request leaves, and a server answering with another site's URL
// is not followed.
import { createServer, type Server } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiClient } from '../../electron/api/client';
import { temporaryUploadUrl } from '../../electron/media/open-upload';
import { startTestServer, type TestServer } from '../support/server';
import { startMain, type MainHarness } from './support/harness';

let realm: TestServer;
let main: MainHarness;
let accountId: string;
const opened: string[] = [];

async function upload(name: string, body: string): Promise<string> {
  const form = new FormData();
  form.append('file', new Blob([body], { type: 'text/plain' }), name);
  const owner = realm.users.owner;
  const res = await fetch(`${realm.url}/api/v1/user_uploads`, {
    method: 'POST',
    headers: {
      authorization: `Basic ${Buffer.from(`${owner.email}:${owner.api_key}`).toString('base64')}`,
    },
    body: form,
  });
  expect(res.status).toBe(200);
  return ((await res.json()) as { url: string }).url;
}

beforeAll(async () => {
  realm = await startTestServer({ heartbeatMs: 500 });
  main = await startMain({
    site: realm.url,
    user: realm.users.owner,
    openExternal: (url) => {
      opened.push(url);
    },
  });
  accountId = main.accountId;
  await main.live();
});
afterAll(async () => {
  await main?.close();
  await realm?.close();
});

describe('openUpload', () => {
  it("opens the realm's temporary download URL, which serves the file without credentials", async () => {
    const path = await upload('minutes.txt', 'the minutes of the meeting');
    expect(path).toMatch(/^\/user_uploads\/\d+\//);
    opened.length = 0;
    expect(await main.services.handlers.openUpload({ accountId, path })).toBeNull();
    expect(opened).toHaveLength(1);
    const url = opened[0]!;
    expect(url.startsWith(`${realm.url}/user_uploads/temporary/`)).toBe(true);
    expect(url).not.toContain(realm.users.owner.api_key);
    expect(url).not.toContain(encodeURIComponent(realm.users.owner.email));
    // What the system browser gets: the file, with no Authorization header and no cookie.
    const res = await fetch(url);
    expect(res.status).toBe(200);
    expect(await res.text()).toBe('the minutes of the meeting');
  });

  it('refuses paths that are not uploads of this realm, before any request', async () => {
    opened.length = 0;
    // The client the handler would use, with its requests counted (they still go to the realm).
    const requested: string[] = [];
    const owner = realm.users.owner;
    const client = new ApiClient({
      site: realm.url,
      credentials: { email: owner.email, apiKey: owner.api_key },
      fetch: (input, init) => {
        requested.push(String(input));
        return fetch(input, init);
      },
    });
    for (const path of [
      '/api/v1/users/me',
      '/user_uploads/../api/v1/users/me',
      '/user_uploads/1/%2e%2e/%2e%2e/api/v1/users/me',
      // Upload-shaped as written, a temporary URL once the server resolves the dot segment.
      '/user_uploads/1/%2e%2e/temporary/abc/x.txt',
      '/user_uploads/1/ab/x.txt?download=1',
      '/user_uploads/temporary/abc/x.txt',
      '/user_uploads/thumbnail/1/ab/x.png/840x560.webp',
      'https://evil.example/user_uploads/1/ab/x.txt',
      '//evil.example/user_uploads/1/ab/x.txt',
    ]) {
      await expect(
        main.services.handlers.openUpload({ accountId, path }),
        path,
      ).rejects.toMatchObject({ code: 'BAD_REQUEST' });
      await expect(temporaryUploadUrl(client, path), path).rejects.toMatchObject({
        code: 'BAD_REQUEST',
      });
    }
    expect(requested).toEqual([]);
    expect(opened).toEqual([]);
  });

  it("passes on the server's refusal for a file that does not exist, opening nothing", async () => {
    opened.length = 0;
    await expect(
      main.services.handlers.openUpload({ accountId, path: '/user_uploads/1/zz/missing.txt' }),
    ).rejects.toMatchObject({ status: 404 });
    expect(opened).toEqual([]);
  });

  it('sends the path as the link has it and waits out a 429 before asking again', async () => {
    // A stand-in realm (fault injection): the first request is rate-limited for a second.
    const seen: string[] = [];
    const server: Server = createServer((req, res) => {
      seen.push(req.url ?? '');
      res.setHeader('content-type', 'application/json');
      if (seen.length === 1) {
        res.statusCode = 429;
        res.setHeader('retry-after', '1');
        res.end(JSON.stringify({ result: 'error', msg: 'slow down', code: 'RATE_LIMIT_HIT' }));
        return;
      }
      res.end(
        JSON.stringify({ result: 'success', msg: '', url: '/user_uploads/temporary/t/a%20b.txt' }),
      );
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const address = server.address();
    const site = `http://127.0.0.1:${typeof address === 'object' && address?.port}`;
    const client = new ApiClient({ site, credentials: { email: 'a@b.c', apiKey: 'k' } });
    try {
      expect(await temporaryUploadUrl(client, '/user_uploads/1/ab/a%20b.txt')).toBe(
        `${site}/user_uploads/temporary/t/a%20b.txt`,
      );
      // Asked again after the 429 (not given up), with slashes and escapes unchanged both times.
      expect(seen).toEqual([
        '/api/v1/user_uploads/1/ab/a%20b.txt',
        '/api/v1/user_uploads/1/ab/a%20b.txt',
      ]);
    } finally {
      server.close();
    }
  });

  it('never follows a server answer that points elsewhere', async () => {
    // A stand-in realm (fault injection) whose download URL names another site or another page.
    let answer = '';
    const server: Server = createServer((_req, res) => {
      res.setHeader('content-type', 'application/json');
      res.end(JSON.stringify({ result: 'success', msg: '', url: answer }));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const address = server.address();
    const site = `http://127.0.0.1:${typeof address === 'object' && address?.port}`;
    const client = new ApiClient({ site, credentials: { email: 'a@b.c', apiKey: 'k' } });
    try {
      for (answer of [
        'https://evil.example/user_uploads/temporary/t/x.txt',
        '//evil.example/user_uploads/temporary/t/x.txt',
        '/api/v1/users/me',
        'javascript:alert(1)',
      ])
        await expect(
          temporaryUploadUrl(client, '/user_uploads/1/ab/x.txt'),
          answer,
        ).rejects.toThrow(/unexpected download URL|no download URL/);
      answer = '/user_uploads/temporary/t0k3n/x.txt';
      expect(await temporaryUploadUrl(client, '/user_uploads/1/ab/x.txt')).toBe(
        `${site}/user_uploads/temporary/t0k3n/x.txt`,
      );
    } finally {
      server.close();
    }
  });
});
