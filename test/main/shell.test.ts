// The Electron shell with Electron mocked: the app:// protocol's path-traversal check and CSP,
// navigation and window-open guards, permission and network guards on the session, the window
// factory's web preferences and remembered state, the menu, and the single-instance lock.
import { createHash } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';

const electron = vi.hoisted(() => {
  const windows: Array<{ options: Record<string, unknown>; handlers: Record<string, () => void> }> =
    [];
  class BrowserWindow {
    handlers: Record<string, () => void> = {};
    loaded = '';
    constructor(readonly options: Record<string, unknown>) {
      windows.push(this);
    }
    loadURL(url: string) {
      this.loaded = url;
      return Promise.resolve();
    }
    once(event: string, handler: () => void) {
      this.handlers[event] = handler;
    }
    on(event: string, handler: () => void) {
      this.handlers[event] = handler;
    }
    maximize = vi.fn();
    show = vi.fn();
    isDestroyed = () => false;
    isMaximized = () => false;
    getNormalBounds = () => ({ x: 10, y: 20, width: 900, height: 700 });
  }
  return {
    windows,
    BrowserWindow,
    app: {
      requestSingleInstanceLock: vi.fn(() => false),
      enableSandbox: vi.fn(),
      quit: vi.fn(),
      on: vi.fn(),
      whenReady: vi.fn(() => new Promise(() => undefined)),
      isPackaged: false,
      getPath: () => '/tmp',
    },
    protocol: { registerSchemesAsPrivileged: vi.fn(), handle: vi.fn() },
  };
});
vi.mock('electron', () => ({
  app: electron.app,
  protocol: electron.protocol,
  BrowserWindow: electron.BrowserWindow,
  dialog: {},
  ipcMain: {},
  Menu: {},
  powerMonitor: {},
  safeStorage: {},
  session: {},
  shell: {},
}));

import { registerAppProtocol, resolveAppPath, APP_CSP } from '../../electron/shell/app-protocol';
import {
  hardenWebContents,
  installSessionGuards,
  isAllowedRequestUrl,
} from '../../electron/shell/security';
import { createMainWindow, SECURE_WEB_PREFERENCES } from '../../electron/shell/window';
import { loadWindowState } from '../../electron/shell/window-state';
import { applicationMenuTemplate } from '../../electron/shell/menu';

let dir: string;
/** The page's early script, inline as vite.config.ts writes it. */
const EARLY = '<script data-first-screen>window.early = 1</script>';

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'tributary-shell-'));
  mkdirSync(join(dir, 'renderer', 'assets'), { recursive: true });
  writeFileSync(join(dir, 'renderer', 'index.html'), `<!doctype html>${EARLY}<title>T</title>`);
  writeFileSync(join(dir, 'renderer', 'assets', 'app.js'), 'console.log(1)');
  writeFileSync(join(dir, 'secret.txt'), 'outside');
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('app:// protocol', () => {
  it('maps app://tributary paths into the renderer folder and nothing outside it', () => {
    const root = join(dir, 'renderer');
    expect(resolveAppPath(root, 'app://tributary/')).toBe(join(root, 'index.html'));
    expect(resolveAppPath(root, 'app://tributary/assets/app.js')).toBe(
      join(root, 'assets', 'app.js'),
    );
    expect(resolveAppPath(root, 'app://tributary/../secret.txt')).toBe(join(root, 'secret.txt'));
    // The URL parser folds %2e%2e segments itself: the result stays inside the folder.
    expect(resolveAppPath(root, 'app://tributary/%2e%2e/secret.txt')).toBe(
      join(root, 'secret.txt'),
    );
    expect(resolveAppPath(root, 'app://tributary/assets/%2e%2e%2f%2e%2e%2fsecret.txt')).toBeNull();
    expect(resolveAppPath(root, 'app://tributary/a%00b')).toBeNull();
    expect(resolveAppPath(root, 'app://other/index.html')).toBeNull();
    expect(resolveAppPath(root, 'https://tributary/index.html')).toBeNull();
  });

  it('serves files with the CSP and 404s a traversal attempt', async () => {
    let handler: (request: Request) => Promise<Response> = async () => new Response();
    registerAppProtocol(
      {
        handle: (_scheme: string, h: (request: Request) => Promise<Response>) => (handler = h),
      } as never,
      join(dir, 'renderer'),
    );
    const page = await handler(new Request('app://tributary/index.html'));
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toContain('text/html');
    // The page's inline early script (vite.config.ts) may run, by its hash: that one only.
    const hash = createHash('sha256').update('window.early = 1').digest('base64');
    expect(page.headers.get('content-security-policy')).toBe(
      APP_CSP.replace("script-src 'self'", `script-src 'self' 'sha256-${hash}'`),
    );
    const escape = await handler(
      new Request('app://tributary/assets/%2e%2e%2f%2e%2e%2fsecret.txt'),
    );
    expect(escape.status).toBe(404);
    expect(await escape.text()).not.toContain('outside');
  });

  it('has a strict CSP: own scripts only, no objects, no framing', () => {
    expect(APP_CSP).toContain("script-src 'self'");
    expect(APP_CSP).not.toContain('unsafe-eval');
    expect(APP_CSP).toContain("object-src 'none'");
    expect(APP_CSP).toContain("frame-ancestors 'none'");
  });
});

describe('web contents guards', () => {
  const makeContents = () => {
    const listeners: Record<string, (event: { preventDefault(): void }, url: string) => void> = {};
    let openHandler: (details: { url: string }) => { action: string } = () => ({ action: 'allow' });
    return {
      contents: {
        on: (event: string, listener: (e: { preventDefault(): void }, url: string) => void) => {
          listeners[event] = listener;
        },
        setWindowOpenHandler: (handler: typeof openHandler) => (openHandler = handler),
      },
      navigate(event: string, url: string) {
        const e = { preventDefault: vi.fn() };
        listeners[event](e, url);
        return e.preventDefault.mock.calls.length > 0;
      },
      open: (url: string) => openHandler({ url }),
    };
  };

  it('keeps navigation on app:// and opens only http(s)/mailto links outside', () => {
    const opened: string[] = [];
    const page = makeContents();
    hardenWebContents(page.contents as never, (url) => opened.push(url));
    expect(page.navigate('will-navigate', 'https://evil.example/')).toBe(true);
    expect(page.navigate('will-navigate', 'file:///etc/passwd')).toBe(true);
    expect(page.navigate('will-navigate', 'app://tributary/index.html')).toBe(false);
    expect(page.navigate('will-redirect', 'http://evil.example/')).toBe(true);
    expect(page.navigate('will-attach-webview', '')).toBe(true);
    expect(page.open('https://example.com/')).toEqual({ action: 'deny' });
    expect(page.open('mailto:a@example.com')).toEqual({ action: 'deny' });
    expect(page.open('javascript:alert(1)')).toEqual({ action: 'deny' });
    expect(page.open('file:///etc/passwd')).toEqual({ action: 'deny' });
    expect(opened).toEqual(['https://example.com/', 'mailto:a@example.com']);
  });

  it('denies every permission except notifications and clipboard writes, and blocks network requests', () => {
    let request: (c: unknown, p: string, cb: (ok: boolean) => void) => void = () => undefined;
    let check: (c: unknown, p: string) => boolean = () => true;
    let beforeRequest: (d: { url: string }, cb: (r: { cancel: boolean }) => void) => void = () =>
      undefined;
    installSessionGuards({
      setPermissionRequestHandler: (h: typeof request) => (request = h),
      setPermissionCheckHandler: (h: typeof check) => (check = h),
      webRequest: { onBeforeRequest: (h: typeof beforeRequest) => (beforeRequest = h) },
    } as never);
    const granted = (permission: string) => {
      let answer = true;
      request(null, permission, (ok) => (answer = ok));
      return answer;
    };
    expect(granted('notifications')).toBe(true);
    expect(granted('clipboard-sanitized-write')).toBe(true);
    expect(check(null, 'clipboard-sanitized-write')).toBe(true);
    for (const permission of ['media', 'geolocation', 'clipboard-read', 'openExternal', 'midi']) {
      expect(granted(permission)).toBe(false);
      expect(check(null, permission)).toBe(false);
    }
    const cancelled = (url: string) => {
      let result = { cancel: false };
      beforeRequest({ url }, (r) => (result = r));
      return result.cancel;
    };
    expect(cancelled('https://chat.example.com/api/v1/events')).toBe(true);
    expect(cancelled('http://127.0.0.1:9991/')).toBe(true);
    expect(cancelled('ws://127.0.0.1:9991/')).toBe(true);
    expect(cancelled('app://tributary/index.html')).toBe(false);
    expect(cancelled('tributary-media://acc/user_uploads/1/x.png')).toBe(false);
    expect(isAllowedRequestUrl('data:text/html,hi')).toBe(false);
  });
});

describe('window factory', () => {
  beforeEach(() => electron.windows.splice(0));

  it('creates locked-down windows on app:// and remembers their bounds', () => {
    const window = createMainWindow({ dataDir: dir, preloadPath: '/x/preload.cjs' }) as unknown as {
      options: { webPreferences: Record<string, unknown> };
      loaded: string;
      handlers: Record<string, () => void>;
    };
    expect(window.options.webPreferences).toMatchObject({
      contextIsolation: true,
      sandbox: true,
      nodeIntegration: false,
      webviewTag: false,
      preload: '/x/preload.cjs',
    });
    expect(SECURE_WEB_PREFERENCES.webSecurity).toBe(true);
    expect(window.loaded).toBe('app://tributary/');
    window.handlers.close();
    expect(loadWindowState(dir)).toEqual({
      x: 10,
      y: 20,
      width: 900,
      height: 700,
      maximized: false,
    });
  });

  it('ignores a corrupt or absurd saved state', () => {
    writeFileSync(join(dir, 'window-state.json'), '{"width": -5, "height": "big"}');
    expect(loadWindowState(dir)).toMatchObject({ width: 1200, height: 800 });
  });
});

describe('menu and single instance', () => {
  it('offers the usual roles', () => {
    const roles = JSON.stringify(applicationMenuTemplate('linux'));
    for (const role of ['editMenu', 'windowMenu', 'reload', 'togglefullscreen', 'zoomIn']) {
      expect(roles).toContain(role);
    }
    expect(JSON.stringify(applicationMenuTemplate('darwin'))).toContain('hideOthers');
  });

  it('a second instance quits at once, leaving the first to handle the launch', async () => {
    await import('../../electron/main');
    expect(electron.app.requestSingleInstanceLock).toHaveBeenCalled();
    expect(electron.app.enableSandbox).toHaveBeenCalled();
    expect(electron.app.quit).toHaveBeenCalled();
    expect(electron.protocol.registerSchemesAsPrivileged).toHaveBeenCalledWith(
      expect.arrayContaining([expect.objectContaining({ scheme: 'app' })]),
    );
    expect(electron.app.whenReady).not.toHaveBeenCalled();
  });
});
