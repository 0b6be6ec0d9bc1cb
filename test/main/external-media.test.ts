// Media in messages through main (electron/media/external-media.ts, save-upload.ts), called the way
// the renderer calls them: through the IPC dispatcher (contract validation included). An image from
// another host is fetched only as asked, from a real HTTP server on 127.0.0.1: no credentials, image
// and video types only, a size cap, a bounded number of redirects, http and https only. Saving an
// upload's original goes through the realm's short-lived link to the path the save dialog chose.
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDispatcher, type Dispatch } from '../../electron/ipc/dispatch';
import { fetchExternalMedia } from '../../electron/media/external-media';
import { encodePng } from '../../server/seed/png';
import { EXTERNAL_MEDIA_MAX_BYTES } from '../../shared/ipc/media';
import { startTestServer, type TestServer } from '../support/server';
import { startMain, type MainHarness } from './support/harness';

const png = encodePng(40, 20, (x) => [x * 6, 100, 200, 255]);
let host: Server;
let hostUrl: string;
const seenHeaders: IncomingHttpHeaders[] = [];

let realm: TestServer;
let main: MainHarness;
let dispatch: Dispatch;
let saveDir: string;
let chosenPath: string | null = null;
const offeredNames: string[] = [];

beforeAll(async () => {
  host = createServer((req, res) => {
    seenHeaders.push(req.headers);
    const path = req.url ?? '/';
    if (path === '/pic.png') {
      res.writeHead(200, { 'content-type': 'image/png', 'content-length': png.length });
      res.end(png);
    } else if (path === '/clip.webm') {
      res.writeHead(200, { 'content-type': 'video/webm; codecs=vp8' });
      res.end(Buffer.from('webm bytes'));
    } else if (path === '/declared-huge.png') {
      res.writeHead(200, {
        'content-type': 'image/png',
        'content-length': EXTERNAL_MEDIA_MAX_BYTES + 1,
      });
      res.end(); // the declared length alone refuses it
    } else if (path === '/endless.png') {
      // No length: the cap is enforced while reading (a megabyte a chunk, past the cap).
      res.writeHead(200, { 'content-type': 'image/png' });
      const chunk = Buffer.alloc(1024 * 1024, 7);
      let sent = 0;
      const more = () => {
        while (sent <= EXTERNAL_MEDIA_MAX_BYTES / chunk.length + 1) {
          sent += 1;
          if (!res.write(chunk)) return void res.once('drain', more);
        }
        res.end();
      };
      res.on('error', () => undefined);
      more();
    } else if (path === '/page.html') {
      res.writeHead(200, { 'content-type': 'text/html' });
      res.end('<script>alert(1)</script>');
    } else if (path === '/drawing.svg') {
      res.writeHead(200, { 'content-type': 'image/svg+xml' });
      res.end('<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>');
    } else if (path === '/loop') {
      res.writeHead(302, { location: '/loop' });
      res.end();
    } else if (path === '/moved') {
      res.writeHead(301, { location: '/pic.png' });
      res.end();
    } else if (path === '/to-file') {
      res.writeHead(302, { location: 'file:///etc/passwd' });
      res.end();
    } else {
      res.writeHead(404, { 'content-type': 'text/plain' });
      res.end('no');
    }
  });
  await new Promise<void>((resolve) => host.listen(0, '127.0.0.1', resolve));
  const address = host.address();
  hostUrl = `http://127.0.0.1:${typeof address === 'object' && address?.port}`;

  realm = await startTestServer({ heartbeatMs: 500 });
  saveDir = mkdtempSync(join(tmpdir(), 'tributary-save-'));
  main = await startMain({
    site: realm.url,
    user: realm.users.owner,
    chooseSavePath: async (name) => {
      offeredNames.push(name);
      return chosenPath;
    },
  });
  await main.live();
  dispatch = createDispatcher(main.services.handlers);
});
afterAll(async () => {
  await main?.close();
  await realm?.close();
  await new Promise((resolve) => host?.close(resolve));
  rmSync(saveDir, { recursive: true, force: true });
});

async function call(method: string, payload: unknown) {
  return dispatch(method, payload);
}

describe('fetchExternalMedia', () => {
  it('fetches an image from another host, without credentials or referrer', async () => {
    seenHeaders.length = 0;
    const result = await call('fetchExternalMedia', { url: `${hostUrl}/pic.png` });
    expect(result).toEqual({
      ok: true,
      value: { contentType: 'image/png', contentBase64: png.toString('base64') },
    });
    expect(seenHeaders).toHaveLength(1);
    expect(seenHeaders[0]).not.toHaveProperty('authorization');
    expect(seenHeaders[0]).not.toHaveProperty('cookie');
    expect(seenHeaders[0]).not.toHaveProperty('referer');
  });

  it('takes videos, and the type without its parameters', async () => {
    const result = await call('fetchExternalMedia', { url: `${hostUrl}/clip.webm` });
    expect(result).toMatchObject({ ok: true, value: { contentType: 'video/webm' } });
  });

  it('follows a redirect or two, but not a loop', async () => {
    expect(await call('fetchExternalMedia', { url: `${hostUrl}/moved` })).toMatchObject({
      ok: true,
      value: { contentType: 'image/png' },
    });
    seenHeaders.length = 0;
    expect(await call('fetchExternalMedia', { url: `${hostUrl}/loop` })).toMatchObject({
      ok: false,
      error: { code: 'EXTERNAL_MEDIA_REFUSED', msg: 'Too many redirects' },
    });
    expect(seenHeaders).toHaveLength(4); // the first request and three redirects
  });

  it('refuses what is not an image or video, SVG included', async () => {
    for (const path of ['/page.html', '/drawing.svg']) {
      expect(await call('fetchExternalMedia', { url: `${hostUrl}${path}` }), path).toMatchObject({
        ok: false,
        error: { code: 'EXTERNAL_MEDIA_REFUSED' },
      });
    }
  });

  it('refuses files over the cap, declared or as they arrive', async () => {
    for (const path of ['/declared-huge.png', '/endless.png']) {
      expect(await call('fetchExternalMedia', { url: `${hostUrl}${path}` }), path).toMatchObject({
        ok: false,
        error: { code: 'EXTERNAL_MEDIA_REFUSED', msg: 'Larger than 16 MiB' },
      });
    }
    await expect(fetchExternalMedia(`${hostUrl}/pic.png`, { maxBytes: 100 })).rejects.toMatchObject(
      { code: 'EXTERNAL_MEDIA_REFUSED' },
    );
  });

  it('refuses other schemes, also behind a redirect, and reports a missing file', async () => {
    for (const url of ['file:///etc/passwd', 'data:image/png;base64,AAAA', `${hostUrl}/to-file`]) {
      expect(await call('fetchExternalMedia', { url }), url).toMatchObject({
        ok: false,
        error: { code: 'EXTERNAL_MEDIA_REFUSED' },
      });
    }
    expect(await call('fetchExternalMedia', { url: `${hostUrl}/missing.png` })).toMatchObject({
      ok: false,
      error: { code: 'EXTERNAL_MEDIA_FAILED', msg: expect.stringContaining('404') },
    });
    expect(await call('fetchExternalMedia', { url: 42 })).toMatchObject({
      ok: false,
      error: { code: 'INVALID_PAYLOAD' },
    });
  });
});

describe('saveUpload', () => {
  async function uploadPng(): Promise<string> {
    const form = new FormData();
    form.append(
      'file',
      new Blob([new Uint8Array(png)], { type: 'image/png' }),
      'holiday photo.png',
    );
    const owner = realm.users.owner;
    const res = await fetch(`${realm.url}/api/v1/user_uploads`, {
      method: 'POST',
      headers: {
        authorization: `Basic ${Buffer.from(`${owner.email}:${owner.api_key}`).toString('base64')}`,
      },
      body: form,
    });
    return ((await res.json()) as { url: string }).url;
  }

  it('saves the original upload where the dialog chose, offering its name', async () => {
    const path = await uploadPng();
    chosenPath = join(saveDir, 'saved.png');
    const result = await call('saveUpload', { accountId: main.accountId, path });
    expect(result).toEqual({ ok: true, value: { savedTo: chosenPath } });
    expect(offeredNames.at(-1)).toBe('holiday-photo.png');
    expect(readFileSync(chosenPath).equals(png)).toBe(true);
  });

  it('saves nothing when the dialog is cancelled, and refuses what is not an upload', async () => {
    const path = await uploadPng();
    chosenPath = null;
    expect(await call('saveUpload', { accountId: main.accountId, path })).toEqual({
      ok: true,
      value: null,
    });
    const asked = offeredNames.length;
    expect(
      await call('saveUpload', { accountId: main.accountId, path: '/api/v1/users/me' }),
    ).toMatchObject({ ok: false, error: { code: 'BAD_REQUEST' } });
    expect(offeredNames).toHaveLength(asked);
  });
});
