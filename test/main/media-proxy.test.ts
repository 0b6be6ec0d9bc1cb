// The /media proxy (electron/media/media-proxy.ts) against the real local realm server: realm files
// come through with the account's credentials, but a page cannot reach the API (also not through
// encoded dot segments the URL parser resolves), cannot be redirected into it, never sends the
// credentials to another host, and what comes back cannot run as a page or script.
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiClient } from '../../electron/api/client';
import { fetchRealmMedia, MEDIA_CSP, realmMediaUrl } from '../../electron/media/media-proxy';
import { startTestServer, type TestServer } from '../support/server';

let realm: TestServer;
let client: ApiClient;

async function upload(name: string, body: string, type: string): Promise<string> {
  const form = new FormData();
  form.append('file', new Blob([body], { type }), name);
  const res = await fetch(`${realm.url}/api/v1/user_uploads`, {
    method: 'POST',
    headers: { authorization: client.authorizationHeader()! },
    body: form,
  });
  return ((await res.json()) as { url: string }).url.replace(/^\//, '');
}

/** A stand-in realm that only redirects (fault injection: the realm itself sends the request on). */
async function listen(
  handler: Parameters<typeof createServer>[1],
): Promise<{ server: Server; url: string }> {
  const server = createServer(handler);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  return { server, url: `http://127.0.0.1:${typeof address === 'object' && address?.port}` };
}

beforeAll(async () => {
  realm = await startTestServer();
  const owner = realm.users.owner;
  client = new ApiClient({
    site: realm.url,
    credentials: { email: owner.email, apiKey: owner.api_key },
  });
});
afterAll(async () => {
  await realm?.close();
});

describe('media proxy', () => {
  it('serves a realm upload with the credentials, under a sandboxing CSP', async () => {
    const path = await upload('pic.txt', 'picture bytes', 'text/plain');
    const res = await fetchRealmMedia(client, path);
    expect(res.status).toBe(200);
    expect(await res.text()).toBe('picture bytes');
    expect(res.headers.get('content-security-policy')).toBe(MEDIA_CSP);
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
  });

  it('passes one byte range on, for a video that seeks', async () => {
    const path = await upload('clip.webm', '0123456789', 'video/webm');
    const res = await fetchRealmMedia(client, path, undefined, 'bytes=2-5');
    expect(res.status).toBe(206);
    expect(res.headers.get('content-range')).toBe('bytes 2-5/10');
    expect(await res.text()).toBe('2345');
    // Anything but one plain range is not passed on: the whole file.
    const whole = await fetchRealmMedia(client, path, undefined, 'bytes=0-1, 4-5');
    expect([whole.status, await whole.text()]).toEqual([200, '0123456789']);
  });

  it('never reaches the API, also not through encoded dot segments', async () => {
    for (const path of [
      'api/v1/users/me',
      'user_uploads/../api/v1/users/me',
      'user_uploads/%2e%2e/api/v1/users/me',
      'user_uploads/%2E%2E/%2e%2e/api/v1/users/me',
      'user_uploads/.%2e/api/v1/users/me',
      'user_uploads/%2e%2e%2fapi/v1/users/me',
      'user_uploads\\..\\api/v1/users/me',
      'user_uploads//evil.example/x',
    ]) {
      const res = await fetchRealmMedia(client, path);
      expect(res.status, path).toBe(404);
      expect(await res.text(), path).not.toContain('email');
    }
    expect(realmMediaUrl('http://h.example/chat', 'user_uploads/%2e%2e/%2e%2e/x')).toBeNull();
    expect(realmMediaUrl('http://h.example/chat', 'user_uploads/1/ab/x.png')?.href).toBe(
      'http://h.example/chat/user_uploads/1/ab/x.png',
    );
  });

  it('serves HTML and scripts as inert text', async () => {
    const path = await upload('page.html', '<script>alert(1)</script>', 'text/html');
    const res = await fetchRealmMedia(client, path);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/plain/);
    expect(res.headers.get('content-security-policy')).toContain('sandbox');
  });

  it('follows redirects only to media paths, and sends credentials only to the realm', async () => {
    const seen: IncomingHttpHeaders[] = [];
    const storage = await listen((req, res) => {
      seen.push(req.headers);
      res.end('stored bytes');
    });
    const fake = await listen((req, res) => {
      const target = req.url!.includes('to-api')
        ? '/api/v1/users/me'
        : req.url!.includes('to-file')
          ? 'file:///etc/passwd'
          : `${storage.url}/bucket/x.png`;
      res.writeHead(302, { location: target }).end();
    });
    try {
      const fakeClient = new ApiClient({
        site: fake.url,
        credentials: { email: 'a@example.com', apiKey: 'secret-key' },
      });
      const stored = await fetchRealmMedia(fakeClient, 'user_uploads/1/ab/x.png');
      expect(stored.status).toBe(200);
      expect(await stored.text()).toBe('stored bytes');
      expect(seen).toHaveLength(1);
      expect(seen[0].authorization).toBeUndefined();
      expect((await fetchRealmMedia(fakeClient, 'user_uploads/1/to-api.png')).status).toBe(502);
      expect((await fetchRealmMedia(fakeClient, 'user_uploads/1/to-file.png')).status).toBe(502);
    } finally {
      storage.server.close();
      fake.server.close();
    }
  });
});
