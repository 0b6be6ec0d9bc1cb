// The browser-mode host's start (electron/host/host.ts, static-files.ts): the built renderer comes
// from memory with the right types and caching (hashed assets kept for good, the page revalidated),
// nothing outside the renderer folder is served, and with `startSessionsAfterUrl` (npm start) the
// accounts' sessions start once a page has its script or opens the bridge, or without any page
// after a while, not while the host is still handing the page its files.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import WebSocket from 'ws';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FileVault } from '../../electron/accounts/vault';
import { AccountStore } from '../../electron/accounts/account-store';
import { startBrowserHost, type BrowserHost } from '../../electron/host/host';
import { startTestServer, type TestServer } from '../support/server';

const INDEX =
  '<!doctype html><link rel="icon" href="./favicon.svg">' +
  '<script type="module" src="./assets/app-1a2b.js"></script>' +
  '<link rel="modulepreload" href="./assets/chunk-7a8b.js">' +
  '<link rel="stylesheet" href="./assets/app-3c4d.css">' +
  '<link rel="preconnect" href="https://example.invalid/">';

/** A renderer folder as Vite builds it, with a secret beside it and a hidden file in it. */
function writeRenderer(dir: string): string {
  const renderer = join(dir, 'renderer');
  mkdirSync(join(renderer, 'assets'), { recursive: true });
  writeFileSync(join(renderer, 'index.html'), INDEX);
  writeFileSync(join(renderer, 'favicon.svg'), '<svg xmlns="http://www.w3.org/2000/svg"/>');
  writeFileSync(join(renderer, 'assets', 'app-1a2b.js'), 'window.started = true;');
  writeFileSync(join(renderer, 'assets', 'chunk-7a8b.js'), 'export const chunk = 1;');
  writeFileSync(join(renderer, 'assets', 'app-3c4d.css'), 'body { margin: 0 }');
  writeFileSync(join(renderer, 'assets', 'Lazy-5e6f.js'), 'export const lazy = 1;');
  writeFileSync(join(renderer, '.env'), 'SECRET=1');
  writeFileSync(join(dir, 'outside.txt'), 'not the renderer');
  return renderer;
}

let realm: TestServer;
beforeAll(async () => {
  realm = await startTestServer();
}, 60_000);
afterAll(async () => {
  await realm?.close();
});

/** A data folder with one signed-in account on the test realm, as a returning launch finds it. */
function returningDataDir(): { dataDir: string; accountId: string } {
  const dataDir = mkdtempSync(join(tmpdir(), 'tributary-host-start-'));
  const user = realm.users.owner;
  const accountId = 'acct-owner';
  new AccountStore(dataDir).upsert({
    id: accountId,
    site: realm.url,
    email: user.email,
    userId: user.user_id,
    realmName: 'Demo',
    featureLevel: 372,
    secretBackend: 'file-0600',
    addedAt: Date.now(),
  });
  new FileVault(dataDir).put(accountId, user.api_key);
  return { dataDir, accountId };
}

const sessionRuns = (host: BrowserHost, accountId: string) => {
  try {
    host.services.session(accountId);
    return true;
  } catch {
    return false;
  }
};

function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const server = createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address() as AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

async function eventually(check: () => boolean): Promise<void> {
  for (let i = 0; i < 500 && !check(); i++) await new Promise((r) => setTimeout(r, 20));
  expect(check()).toBe(true);
}

describe('the host serves the built renderer', () => {
  let dir: string;
  let host: BrowserHost;
  const get = (path: string, headers: Record<string, string> = {}) =>
    fetch(`http://127.0.0.1:${host.port}${path}`, { headers });

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'tributary-host-files-'));
    host = await startBrowserHost({
      dataDir: join(dir, 'data'),
      vault: new FileVault(join(dir, 'data')),
      rendererDir: writeRenderer(dir),
    });
  });
  afterAll(async () => {
    await host?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('answers the page, revalidated by its ETag, with the app CSP', async () => {
    const page = await get('/');
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(page.headers.get('cache-control')).toBe('no-cache');
    expect(page.headers.get('content-security-policy')).toContain("script-src 'self'");
    expect(await page.text()).toBe(INDEX);
    const etag = page.headers.get('etag')!;
    expect(etag).toMatch(/^".+"$/);
    const again = await get('/', { 'if-none-match': etag });
    expect(again.status).toBe(304);
    expect(await again.text()).toBe('');
    const changed = await get('/index.html', { 'if-none-match': '"something-else"' });
    expect(changed.status).toBe(200);
  });

  it('answers hashed assets as kept for good, with their types, read lazily or not', async () => {
    const script = await get('/assets/app-1a2b.js');
    expect(script.headers.get('content-type')).toBe('text/javascript; charset=utf-8');
    expect(script.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    expect(await script.text()).toBe('window.started = true;');
    const style = await get('/assets/app-3c4d.css?v=1');
    expect(style.headers.get('content-type')).toBe('text/css; charset=utf-8');
    // Not named by the page: read from disk when first asked for.
    const lazy = await get('/assets/Lazy-5e6f.js');
    expect(lazy.status).toBe(200);
    expect(await lazy.text()).toBe('export const lazy = 1;');
    // Named by their content's hash, so their ETag is that name: still revalidated by it.
    const etag = lazy.headers.get('etag')!;
    expect(etag).toMatch(/^".+"$/);
    expect(etag).not.toBe(script.headers.get('etag'));
    expect((await get('/assets/Lazy-5e6f.js', { 'if-none-match': etag })).status).toBe(304);
    expect((await get('/assets/app-1a2b.js', { 'if-none-match': etag })).status).toBe(200);
    const icon = await get('/favicon.ico');
    expect(icon.headers.get('content-type')).toBe('image/svg+xml');
    expect(icon.headers.get('cache-control')).toBe('no-cache');
  });

  it('serves nothing outside the renderer folder, hidden, or missing', async () => {
    for (const path of [
      '/..%2foutside.txt',
      '/assets/..%2f..%2foutside.txt',
      '/%2e%2e/outside.txt',
      '/.env',
      '/assets/missing.js',
      '/assets',
      '/bad%zzescape',
    ]) {
      const answer = await get(path);
      // (Fastify itself refuses a malformed escape, with 400.)
      expect([400, 404], path).toContain(answer.status);
      expect(await answer.text(), path).not.toContain('not the renderer');
    }
  });
});

describe('the sessions of a launch that prints its URL first', () => {
  const started: Array<{ host: BrowserHost; dataDir: string }> = [];
  afterAll(async () => {
    for (const { host, dataDir } of started) {
      await host.close();
      rmSync(dataDir, { recursive: true, force: true });
    }
  });

  async function launch(startSessionsAfterUrl: boolean) {
    const { dataDir, accountId } = returningDataDir();
    const host = await startBrowserHost({
      dataDir,
      vault: new FileVault(dataDir),
      rendererDir: writeRenderer(dataDir),
      startSessionsAfterUrl,
    });
    started.push({ host, dataDir });
    return { host, accountId };
  }

  it('start once the page has its scripts, not while it fetches its files', async () => {
    const { host, accountId } = await launch(true);
    const get = (path: string) => fetch(`http://127.0.0.1:${host.port}${path}`);
    await (await get('/')).text();
    await (await get('/assets/app-3c4d.css')).text();
    // The entry alone: the chunk it preloads is still to come.
    await (await get('/assets/app-1a2b.js')).text();
    await new Promise((resolve) => setImmediate(resolve));
    expect(sessionRuns(host, accountId)).toBe(false);
    await (await get('/assets/chunk-7a8b.js')).text();
    await eventually(() => sessionRuns(host, accountId));
  });

  it('start when a page opens the bridge (its script came from the browser cache)', async () => {
    const { host, accountId } = await launch(true);
    expect(sessionRuns(host, accountId)).toBe(false);
    const socket = new WebSocket(
      `ws://127.0.0.1:${host.port}/bridge?secret=${encodeURIComponent(host.secret)}`,
      { origin: `http://127.0.0.1:${host.port}` },
    );
    await new Promise((resolve, reject) => socket.once('open', resolve).once('error', reject));
    // The page's first call is answered, by the started session.
    const answer = await new Promise<{ ok: boolean; value: { accounts: unknown[] } }>((resolve) => {
      socket.on('message', (data: Buffer) => {
        const frame = JSON.parse(data.toString()) as { t: string; id?: number };
        if (frame.t === 'result' && frame.id === 1) resolve(frame as never);
      });
      socket.send(JSON.stringify({ t: 'call', id: 1, method: 'listAccounts', payload: {} }));
    });
    socket.close();
    expect(answer.ok).toBe(true);
    expect(answer.value.accounts).toHaveLength(1);
    expect(sessionRuns(host, accountId)).toBe(true);
  });

  it('start without any page, and at once when the host is not asked to wait', async () => {
    const waiting = await launch(true);
    await eventually(() => sessionRuns(waiting.host, waiting.accountId));
    const direct = await launch(false);
    expect(sessionRuns(direct.host, direct.accountId)).toBe(true);
  });

  it('start as soon as they may when a page asked while the launcher was still settling', async () => {
    const { dataDir, accountId } = returningDataDir();
    const port = await freePort();
    let release = () => {};
    const settling = new Promise<void>((resolve) => (release = resolve));
    let listening = () => {};
    const listened = new Promise<void>((resolve) => (listening = resolve));
    const starting = startBrowserHost({
      dataDir,
      vault: new FileVault(dataDir),
      rendererDir: writeRenderer(dataDir),
      port,
      startSessionsAfterUrl: true,
      // The launcher waits for the local realm server here; the host already listens.
      beforeServicesStart: () => {
        listening();
        return settling;
      },
    });
    await listened;
    await (await fetch(`http://127.0.0.1:${port}/assets/app-1a2b.js`)).text();
    await (await fetch(`http://127.0.0.1:${port}/assets/chunk-7a8b.js`)).text();
    release();
    const host = await starting;
    started.push({ host, dataDir });
    expect(sessionRuns(host, accountId)).toBe(true);
  });

  it("start in turns, the active account's first", async () => {
    const { dataDir, accountId } = returningDataDir();
    // A second account, made the active one: it starts first though it is listed second.
    const member = realm.users.emma;
    const store = new AccountStore(dataDir);
    store.upsert({
      id: 'acct-member',
      site: realm.url,
      email: member.email,
      userId: member.user_id,
      realmName: 'Demo',
      featureLevel: 372,
      secretBackend: 'file-0600',
      addedAt: Date.now(),
    });
    store.setActive('acct-member');
    new FileVault(dataDir).put('acct-member', member.api_key);
    const host = await startBrowserHost({
      dataDir,
      vault: new FileVault(dataDir),
      rendererDir: writeRenderer(dataDir),
      startSessionsAfterUrl: true,
    });
    started.push({ host, dataDir });
    host.startSessions();
    // Nothing in the caller's turn: the event loop (a page's request) runs before each start.
    expect(sessionRuns(host, 'acct-member') || sessionRuns(host, accountId)).toBe(false);
    const seen: string[][] = [];
    while (!sessionRuns(host, accountId)) {
      await new Promise((resolve) => setImmediate(resolve));
      seen.push(['acct-member', accountId].filter((id) => sessionRuns(host, id)));
    }
    expect(seen.find((ids) => ids.length > 0)).toEqual(['acct-member']);
  });

  it('start nothing more once the host is closing', async () => {
    const { dataDir, accountId } = returningDataDir();
    const host = await startBrowserHost({
      dataDir,
      vault: new FileVault(dataDir),
      rendererDir: writeRenderer(dataDir),
      startSessionsAfterUrl: true,
    });
    try {
      host.startSessions();
      await host.close();
      for (let turn = 0; turn < 5; turn++) await new Promise((r) => setImmediate(r));
      expect(sessionRuns(host, accountId)).toBe(false);
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  });

  it('start when the launcher asks, once only', async () => {
    const { host, accountId } = await launch(true);
    host.startSessions();
    await eventually(() => sessionRuns(host, accountId));
    const session = host.services.session(accountId);
    host.startSessions();
    await (await fetch(`http://127.0.0.1:${host.port}/assets/app-1a2b.js`)).text();
    await new Promise((resolve) => setImmediate(resolve));
    expect(host.services.session(accountId)).toBe(session);
  });
});
