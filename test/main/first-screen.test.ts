// The first screen in main (electron/first-screen) and the host's route to it
// (electron/host/first-screen-route.ts): a screen is kept only for the active, known account, cleaned
// of anything that could run or load, sealed at rest, handed out only for its launch keys and only
// the active account's, and gone when the account is signed out, removed or its offline copy
// cleared. The route answers only this launch's own pages, and before the sessions have started;
// the page itself carries the screens only for the launch URL's one-time page token.
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AccountStore } from '../../electron/accounts/account-store';
import { FileVault } from '../../electron/accounts/vault';
import { CacheCipher } from '../../electron/cache/cache-cipher';
import { FirstScreenStore, firstScreenPath } from '../../electron/first-screen/first-screen-store';
import { earlyScriptHashes } from '../../electron/host/csp';
import { startBrowserHost, type BrowserHost } from '../../electron/host/host';
import { createDispatcher } from '../../electron/ipc/dispatch';
import type { FirstScreen } from '../../shared/ipc/first-screen';
import {
  FIRST_SCREEN_ELEMENT_ID,
  FIRST_SCREEN_PATH,
  FIRST_SCREEN_SECRET_HEADER,
} from '../../shared/ipc/wire';
import { PAGE_TOKEN_PARAM } from '../../electron/host/early-listener.mjs';
import { startTestServer, type TestServer } from '../support/server';

const SCREEN: FirstScreen = {
  html:
    '<div class="app"><div class="message-list" data-first-screen-scroll-top="120">' +
    '<div style="transform: translateY(40px); height: 300px"><p class="msg">a quince in the list</p></div>' +
    '</div></div>',
  view: 'narrow:[]',
  width: 1400,
  theme: { 'data-theme': 'dark', '--font-size': '16px' },
};

const HOSTILE =
  '<div class="row" onclick="steal()" onmouseover="steal()">' +
  '<script>steal()</script><style>body{background:url(https://evil.example/x)}</style>' +
  '<a href="javascript:steal()">link</a><a href="https://zulip.com/">fine link</a>' +
  '<img src="https://evil.example/pixel.png"><img src="/media/acct-1/user_avatars/2.png">' +
  '<img src="data:image/png;base64,AAAA"><iframe src="https://evil.example/"></iframe>' +
  '<div style="background: url(https://evil.example/x); top: 10px">styled</div>' +
  '<div style="position: fixed; transform: rotate(3deg) translateY(2px)">fixed</div>' +
  '<div data-testid="message" id="m1" tabindex="0">kept words</div>' +
  '<svg viewBox="0 0 24 24" onload="steal()"><path d="M1 1h2"/><use href="#x"/></svg></div>';

interface DataDir {
  dataDir: string;
  vault: FileVault;
  accounts: AccountStore;
}

const folders: string[] = [];
afterAll(() => {
  for (const dir of folders) rmSync(dir, { recursive: true, force: true });
});

/** A data folder with accounts (the first active), each with a cache key unless `noKey`. */
function dataFolder(ids: string[], site = 'http://127.0.0.1:9', noKey: string[] = []): DataDir {
  const dataDir = mkdtempSync(join(tmpdir(), 'tributary-first-screen-'));
  folders.push(dataDir);
  const vault = new FileVault(dataDir);
  const accounts = new AccountStore(dataDir);
  for (const id of ids) {
    accounts.upsert({
      id,
      site,
      email: `${id}@example.com`,
      userId: 1,
      realmName: 'Demo',
      featureLevel: 372,
      secretBackend: 'file-0600',
      addedAt: Date.now(),
    });
    if (!noKey.includes(id)) vault.put(`cache:${id}`, CacheCipher.newKey());
  }
  return { dataDir, vault, accounts };
}

function storeOf(folder: DataDir, disabled = false): FirstScreenStore {
  return new FirstScreenStore({
    dataDir: folder.dataDir,
    vault: folder.vault,
    activeAccountId: () => folder.accounts.activeAccountId,
    known: (id) => folder.accounts.get(id) !== undefined,
    disabled,
  });
}

describe('the first-screen store', () => {
  it('keeps the active account’s screen sealed, and hands it out for its launch keys only', () => {
    const folder = dataFolder(['acct-1', 'acct-2']);
    const store = storeOf(folder);
    expect(store.save('acct-1', ['view=all', ''], SCREEN)).toBe(true);
    const onDisk = readFileSync(firstScreenPath(folder.dataDir, 'acct-1'), 'utf8');
    expect(onDisk).not.toContain('quince');
    expect(onDisk).not.toContain('message-list');

    // A new launch reads it from disk.
    const next = storeOf(folder);
    expect(next.take('')?.html).toContain('a quince in the list');
    expect(next.take('view=all')).toMatchObject({ view: 'narrow:[]', width: 1400 });
    expect(next.take('view=all')?.theme).toEqual(SCREEN.theme);
    expect(next.take('view=inbox')).toBeNull();
    expect(next.take('view=recent')).toBeNull();
    // Layout styles and the scroll offset survive the cleaning.
    expect(next.take('')?.html).toContain('data-first-screen-scroll-top="120"');
    expect(next.take('')?.html).toMatch(/transform:\s*translateY\(40px\)/);
  });

  it('takes screens only from the active, known account, and hands out only the active one’s', () => {
    const folder = dataFolder(['acct-1', 'acct-2']);
    const store = storeOf(folder);
    expect(store.save('acct-2', [''], SCREEN)).toBe(false);
    expect(store.save('acct-9', [''], SCREEN)).toBe(false);
    expect(existsSync(firstScreenPath(folder.dataDir, 'acct-2'))).toBe(false);
    expect(store.take('')).toBeNull();

    expect(store.save('acct-1', [''], SCREEN)).toBe(true);
    folder.accounts.setActive('acct-2');
    expect(store.take('')).toBeNull();
    folder.accounts.setActive('acct-1');
    expect(store.take('')).not.toBeNull();
  });

  it('cleans what a page hands over: no scripts, handlers, javascript: links, url() or foreign images', () => {
    const folder = dataFolder(['acct-1']);
    const store = storeOf(folder);
    store.save('acct-1', [''], { ...SCREEN, html: HOSTILE });
    const html = storeOf(folder).take('')!.html;
    for (const gone of [
      'steal',
      '<script',
      '<style',
      'onclick',
      'onmouseover',
      'onload',
      'javascript:',
      'url(',
      'evil.example',
      'data:image',
      '<iframe',
      'data-testid',
      'id="m1"',
      'tabindex',
      'position: fixed',
      'rotate',
      '<use',
    ])
      expect(html, gone).not.toContain(gone);
    expect(html).toContain('href="https://zulip.com/"');
    expect(html).toContain('src="/media/acct-1/user_avatars/2.png"');
    expect(html).toContain('top:10px');
    expect(html).toContain('viewBox="0 0 24 24"');
    expect(html).toContain('<path d="M1 1h2"');
    expect(html).toContain('kept words');
  });

  it('keeps nothing without a cache key, with --no-cache, or past a torn file', () => {
    const folder = dataFolder(['acct-1'], undefined, ['acct-1']);
    expect(storeOf(folder).save('acct-1', [''], SCREEN)).toBe(false);
    expect(existsSync(firstScreenPath(folder.dataDir, 'acct-1'))).toBe(false);

    const cached = dataFolder(['acct-1']);
    expect(storeOf(cached, true).save('acct-1', [''], SCREEN)).toBe(false);
    expect(storeOf(cached).save('acct-1', [''], SCREEN)).toBe(true);
    expect(storeOf(cached, true).take('')).toBeNull();

    // Altered at rest: it does not open, and nothing is shown.
    const path = firstScreenPath(cached.dataDir, 'acct-1');
    const file = JSON.parse(readFileSync(path, 'utf8')) as { sealed: string };
    const bytes = Buffer.from(file.sealed, 'base64');
    bytes[bytes.length - 1] ^= 1;
    writeFileSync(path, JSON.stringify({ ...file, sealed: bytes.toString('base64') }));
    expect(storeOf(cached).take('')).toBeNull();
  });

  it('keeps a screen for a plain launch only if it is what that launch opens', () => {
    const folder = dataFolder(['acct-1']);
    let reopens: string | null = 'narrow:[]';
    const store = new FirstScreenStore({
      dataDir: folder.dataDir,
      vault: folder.vault,
      activeAccountId: () => folder.accounts.activeAccountId,
      known: () => true,
      reopens: () => reopens,
    });
    // The conversation main reopens: a plain launch shows it, though the page did not say.
    expect(store.save('acct-1', [], SCREEN)).toBe(true);
    expect(store.take('')).not.toBeNull();
    // Another conversation is reopened: the page's home-view guess does not count.
    reopens = 'narrow:[{"operator":"channel","operand":"7"}]';
    expect(store.save('acct-1', ['view=all', ''], SCREEN)).toBe(true);
    expect(store.take('')).toBeNull();
    expect(store.take('view=all')).not.toBeNull();
    // Nothing reopened, and not the home view: no launch shows it, so it is not kept.
    reopens = null;
    expect(store.save('acct-1', [], { ...SCREEN, view: 'narrow:[1]' })).toBe(false);
    expect(store.take('view=all')).not.toBeNull();
  });

  it('forgets a screen from memory and disk', () => {
    const folder = dataFolder(['acct-1']);
    const store = storeOf(folder);
    store.save('acct-1', [''], SCREEN);
    store.forget('acct-1');
    expect(store.take('')).toBeNull();
    expect(existsSync(firstScreenPath(folder.dataDir, 'acct-1'))).toBe(false);
  });
});

/** The early script's text, inline in the page as Vite writes it (vite.config.ts). */
const EARLY_SCRIPT = 'void fetch("/first-screen?key=")';

/** A built renderer with the early script, as Vite writes it. */
function writeRenderer(dir: string): string {
  const renderer = join(dir, 'renderer');
  mkdirSync(join(renderer, 'assets'), { recursive: true });
  writeFileSync(
    join(renderer, 'index.html'),
    `<!doctype html><script data-first-screen>${EARLY_SCRIPT}</script>` +
      '<script>window.notOurs = true</script>' +
      '<script type="module" src="./assets/index-1a2b.js"></script>',
  );
  writeFileSync(join(renderer, 'assets', 'index-1a2b.js'), 'export {};');
  return renderer;
}

describe('the early script’s place in the CSP', () => {
  const hashOf = (text: string) =>
    `'sha256-${createHash('sha256').update(text, 'utf8').digest('base64')}'`;

  it('allows the marked inline script by the hash of its exact text, and nothing else', () => {
    const page =
      '<!doctype html><head><script data-first-screen>(() => {"é";})();</script>' +
      '<script>window.unmarked = 1</script>' +
      '<script data-first-screen-not>window.lookalike = 1</script>' +
      '<script data-first-screen src="./assets/x.js"></script>' +
      '<script type="module" src="./assets/index-1a2b.js"></script></head>';
    expect(earlyScriptHashes(page)).toEqual([hashOf('(() => {"é";})();')]);
    expect(earlyScriptHashes('<!doctype html><script>window.a = 1</script>')).toEqual([]);
  });
});

describe('the host’s first-screen route and the main-side deletions', () => {
  let realm: TestServer;
  const hosts: BrowserHost[] = [];
  beforeAll(async () => {
    realm = await startTestServer();
  }, 60_000);
  afterAll(async () => {
    for (const host of hosts) await host.close();
    await realm?.close();
  });

  /** The browser-mode host on `folder`, as npm start runs it. */
  async function startHost(folder: DataDir): Promise<BrowserHost> {
    const host = await startBrowserHost({
      dataDir: folder.dataDir,
      vault: folder.vault,
      rendererDir: writeRenderer(folder.dataDir),
      startSessionsAfterUrl: true,
    });
    hosts.push(host);
    return host;
  }

  /** A returning launch (as npm start runs it) whose account kept a screen. */
  async function launch(apiKey = realm.users.owner!.api_key) {
    const folder = dataFolder(['acct-owner'], realm.url);
    // The owner's own address: the key is checked with it (a wrong pair signs the account out).
    const owner = realm.users.owner!;
    folder.accounts.upsert({
      ...folder.accounts.get('acct-owner')!,
      email: owner.email,
      userId: owner.user_id,
    });
    folder.vault.put('acct-owner', apiKey);
    storeOf(folder).save('acct-owner', [''], SCREEN);
    const host = await startHost(folder);
    const get = (path: string, headers: Record<string, string> = {}) =>
      fetch(`http://127.0.0.1:${host.port}${path}`, { headers });
    const sessionRuns = () => {
      try {
        host.services.session('acct-owner');
        return true;
      } catch {
        return false;
      }
    };
    return { folder, host, get, sessionRuns };
  }

  it('answers a page that asks before a first launch has signed in once it has', async () => {
    const folder = dataFolder(['acct-owner'], realm.url);
    let signedIn = () => {};
    const host = await startBrowserHost({
      dataDir: folder.dataDir,
      vault: folder.vault,
      rendererDir: writeRenderer(folder.dataDir),
      startSessionsAfterUrl: true,
      firstScreenAfter: new Promise<void>((resolve) => (signedIn = resolve)),
    });
    hosts.push(host);
    const asked = fetch(`http://127.0.0.1:${host.port}${FIRST_SCREEN_PATH}?key=`, {
      headers: { [FIRST_SCREEN_SECRET_HEADER]: host.secret },
    });
    await new Promise((resolve) => setTimeout(resolve, 50));
    // The sign-in stores the build's screens (MainServices.startSession), then says so.
    expect(host.services.firstScreens.save('acct-owner', [''], SCREEN)).toBe(true);
    signedIn();
    const answer = await asked;
    expect(answer.status).toBe(200);
    expect(((await answer.json()) as FirstScreen).view).toBe('narrow:[]');
  });

  it('has the kept screen open before the page asks: read as the host starts', async () => {
    const { folder, get, host } = await launch();
    await new Promise((resolve) => setImmediate(resolve));
    // Gone from disk now: an answer can only come from what the host read as it started.
    rmSync(firstScreenPath(folder.dataDir, 'acct-owner'));
    const answer = await get(`${FIRST_SCREEN_PATH}?key=`, {
      [FIRST_SCREEN_SECRET_HEADER]: host.secret,
    });
    expect(answer.status).toBe(200);
    expect(((await answer.json()) as FirstScreen).html).toContain('a quince in the list');
  });

  it('answers this launch’s own pages only, before the sessions start, and holds them until then', async () => {
    const { host, get, sessionRuns } = await launch();
    const page = await get('/');
    await page.text();
    // The inline early script may run, by its hash; no other inline script may.
    const scriptSources = /script-src ([^;]*)/.exec(page.headers.get('content-security-policy')!)!;
    const earlyHash = createHash('sha256').update(EARLY_SCRIPT).digest('base64');
    expect(scriptSources[1]).toBe(`'self' 'sha256-${earlyHash}'`);
    await (await get('/assets/index-1a2b.js')).text();
    await new Promise((resolve) => setImmediate(resolve));
    // Every script has gone, but the page has not had its screen yet.
    expect(sessionRuns()).toBe(false);

    const secret = { [FIRST_SCREEN_SECRET_HEADER]: host.secret };
    const answer = await get(`${FIRST_SCREEN_PATH}?key=`, {
      ...secret,
      'sec-fetch-site': 'same-origin',
    });
    expect(answer.status).toBe(200);
    expect(answer.headers.get('cache-control')).toBe('no-store');
    const screen = (await answer.json()) as FirstScreen;
    expect(screen.html).toContain('a quince in the list');
    expect(screen.view).toBe('narrow:[]');
    // Answered while they had not started: now they start.
    await expect.poll(sessionRuns).toBe(true);
    const other = await get(`${FIRST_SCREEN_PATH}?key=view%3Dinbox`, secret);
    expect(other.status).toBe(204);
    expect(other.headers.get('cache-control')).toBe('no-store');

    // The desktop app's page asks main through the IPC map instead (the same store).
    const dispatch = createDispatcher(host.services.handlers);
    const viaIpc = await dispatch('firstScreen', { key: '' });
    expect(viaIpc).toMatchObject({ ok: true, value: { view: 'narrow:[]' } });
    expect(await dispatch('firstScreen', { key: 'view=inbox' })).toEqual({ ok: true, value: null });
    expect(await dispatch('firstScreen', { key: '#secret' })).toMatchObject({ ok: false });

    // Without this launch's secret, or from another site: refused.
    expect((await get(FIRST_SCREEN_PATH)).status).toBe(401);
    expect((await get(FIRST_SCREEN_PATH, { [FIRST_SCREEN_SECRET_HEADER]: 'guess' })).status).toBe(
      401,
    );
    const crossSite = await get(FIRST_SCREEN_PATH, { ...secret, 'sec-fetch-site': 'same-site' });
    expect(crossSite.status).toBe(403);
    expect((await get(`${FIRST_SCREEN_PATH}?key=view%3Dnope`, secret)).status).toBe(400);
  });

  /** The screens a page carries (first-screen-route.ts `inPage`), or null when it carries none. */
  function carried(html: string): unknown {
    const element = new RegExp(
      `<script type="application/json" id="${FIRST_SCREEN_ELEMENT_ID}">([^<]*)</script>` +
        // Just before the early script, which reads it as it runs.
        `<script data-first-screen>`,
    ).exec(html);
    if (!element) expect(html).not.toContain(FIRST_SCREEN_ELEMENT_ID);
    return element ? JSON.parse(element[1]!) : null;
  }

  it('puts the screens in the page itself for this launch’s page token only, once, and only in a page the browser opened', async () => {
    const { host, get, sessionRuns } = await launch();
    const token = new URL(host.url).searchParams.get(PAGE_TOKEN_PARAM)!;
    expect(token).toMatch(/^[A-Za-z0-9_-]{40,}$/);
    expect(token).not.toBe(host.secret);
    const opened = { 'sec-fetch-site': 'none', 'sec-fetch-dest': 'document' };
    // No token, another, a frame, a fetch, a navigation another site (or another loopback port)
    // started: the plain page, and the token is not used up.
    const refused: Array<[string, Record<string, string>]> = [
      ['/', opened],
      [`/?${PAGE_TOKEN_PARAM}=guess`, opened],
      [`/?${PAGE_TOKEN_PARAM}=${token}x`, opened],
      [`/?${PAGE_TOKEN_PARAM}=${token}`, { ...opened, 'sec-fetch-site': 'cross-site' }],
      [`/?${PAGE_TOKEN_PARAM}=${token}`, { ...opened, 'sec-fetch-site': 'same-site' }],
      [`/?${PAGE_TOKEN_PARAM}=${token}`, { ...opened, 'sec-fetch-dest': 'iframe' }],
      [
        `/?${PAGE_TOKEN_PARAM}=${token}`,
        { 'sec-fetch-site': 'same-origin', 'sec-fetch-dest': 'empty' },
      ],
    ];
    for (const [path, headers] of refused) {
      const page = await get(path, headers);
      expect(carried(await page.text()), path).toBeNull();
      expect(page.headers.get('etag')).not.toBeNull();
    }
    const page = await get(`/?${PAGE_TOKEN_PARAM}=${token}`, opened);
    expect(page.status).toBe(200);
    // The account's screen: never in the browser's cache, and under the same CSP, whose hash
    // still lets the early script (and nothing else inline) run.
    expect(page.headers.get('cache-control')).toBe('no-store');
    expect(page.headers.get('etag')).toBeNull();
    const earlyHash = createHash('sha256').update(EARLY_SCRIPT).digest('base64');
    expect(/script-src ([^;]*)/.exec(page.headers.get('content-security-policy')!)![1]).toBe(
      `'self' 'sha256-${earlyHash}'`,
    );
    const screens = carried(await page.text()) as Array<{ keys: string[]; screen: FirstScreen }>;
    expect(screens).toHaveLength(1);
    expect(screens[0]!.keys).toEqual(['']);
    expect(screens[0]!.screen).toMatchObject({ view: 'narrow:[]', width: 1400 });
    expect(screens[0]!.screen.html).toContain('a quince in the list');
    // The page had its screen: once its scripts have gone the sessions start, unasked.
    await (await get('/assets/index-1a2b.js')).text();
    await expect.poll(sessionRuns).toBe(true);
    // Once: the same address again (a reload, a copied link) gets the plain page.
    expect(carried(await (await get(`/?${PAGE_TOKEN_PARAM}=${token}`, opened)).text())).toBeNull();
  });

  it('puts no screen in the page where the route gives none: nothing kept, no cache key, another account', async () => {
    const pageOf = async (host: BrowserHost) => {
      const token = new URL(host.url).searchParams.get(PAGE_TOKEN_PARAM)!;
      const page = await fetch(`http://127.0.0.1:${host.port}/?${PAGE_TOKEN_PARAM}=${token}`);
      return carried(await page.text());
    };
    // Nothing kept: an empty list (the early script then shows none and asks nothing).
    expect(await pageOf(await startHost(dataFolder(['acct-1'], realm.url)))).toEqual([]);
    // Kept, but the cache key is gone (the screen cannot be opened).
    const locked = dataFolder(['acct-1'], realm.url);
    storeOf(locked).save('acct-1', [''], SCREEN);
    locked.vault.delete('cache:acct-1');
    expect(await pageOf(await startHost(locked))).toEqual([]);
    // Kept for an account that is no longer the active one.
    const switched = dataFolder(['acct-1', 'acct-2'], realm.url);
    storeOf(switched).save('acct-1', [''], SCREEN);
    switched.accounts.setActive('acct-2');
    expect(await pageOf(await startHost(switched))).toEqual([]);
  });

  it('drops the screen when the account is removed or its offline copy cleared', async () => {
    const removed = await launch();
    removed.host.startSessions();
    // The sessions start in turns (the active account's first): wait for it.
    await expect.poll(removed.sessionRuns).toBe(true);
    const path = firstScreenPath(removed.folder.dataDir, 'acct-owner');
    expect(existsSync(path)).toBe(true);
    await removed.host.services.removeAccount('acct-owner');
    expect(existsSync(path)).toBe(false);

    const cleared = await launch();
    cleared.host.startSessions();
    await expect.poll(cleared.sessionRuns).toBe(true);
    await cleared.host.services.handlers.clearOfflineData({ accountId: 'acct-owner' });
    expect(existsSync(firstScreenPath(cleared.folder.dataDir, 'acct-owner'))).toBe(false);
    expect(cleared.host.services.firstScreens.take('')).toBeNull();
  });

  it('drops the screen when the server signs the account out', async () => {
    const { folder, host } = await launch('a-revoked-key');
    host.startSessions();
    await expect
      .poll(() => existsSync(firstScreenPath(folder.dataDir, 'acct-owner')), { timeout: 10_000 })
      .toBe(false);
    expect(host.services.firstScreens.take('')).toBeNull();
  });
});
