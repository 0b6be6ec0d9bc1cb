// The IPC guards: Electron's single wrapper refuses frames that are not our app:// top frame and
// payloads that fail the contract's schemas; the preload exposes named functions only; the
// browser-mode bridge refuses sockets without the per-launch secret or from another origin.
import { mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { request } from 'node:http';
import WebSocket from 'ws';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { methodNames } from '../../shared/ipc/contract';
import { IPC_INTAKE_CHANNEL, IPC_INVOKE_PREFIX } from '../../shared/ipc/wire';
import type { IpcResult } from '../../shared/ipc/errors';
import { FileVault } from '../../electron/accounts/vault';
import { MainServices } from '../../electron/services';
import { PushHub } from '../../electron/push-hub';
import { createDispatcher } from '../../electron/ipc/dispatch';
import { registerIpcHandlers } from '../../electron/ipc/electron-transport';
import { createPreloadApi } from '../../electron/ipc/preload-api';
import { mediaCookie } from './support/media-cookie';
import { startBrowserHost, type BrowserHost } from '../../electron/host/host';
import { fakeElectronIpc, type FakeFrame } from './support/transports';

describe('Electron IPC wrapper', () => {
  let dataDir: string;
  let services: MainServices;
  const top: FakeFrame = { url: 'app://tributary/index.html', parent: null };
  const frame = { current: top, top };
  const ipc = fakeElectronIpc(frame);

  beforeAll(() => {
    dataDir = mkdtempSync(join(tmpdir(), 'tributary-guards-'));
    services = new MainServices({
      dataDir,
      vault: new FileVault(dataDir),
      push: new PushHub().push,
      appInfo: { runtime: 'electron', version: 'test', platform: 'linux' },
      openExternal: () => undefined,
    });
    registerIpcHandlers(
      ipc.ipcMain as unknown as Parameters<typeof registerIpcHandlers>[0],
      createDispatcher(services.handlers),
      services.intake,
    );
  });
  afterAll(async () => {
    await services.stop();
    rmSync(dataDir, { recursive: true, force: true });
  });

  const call = (method: string, payload: unknown) =>
    ipc.ipcRenderer.invoke(`${IPC_INVOKE_PREFIX}${method}`, payload) as Promise<IpcResult<unknown>>;

  it('registers one handler per contract method, plus the file intake', () => {
    expect([...ipc.handlers.keys()].sort()).toEqual(
      [...methodNames.map((name) => `${IPC_INVOKE_PREFIX}${name}`), IPC_INTAKE_CHANNEL].sort(),
    );
  });

  it('answers our own top frame', async () => {
    const result = await call('getAppInfo', {});
    expect(result).toEqual({
      ok: true,
      value: { runtime: 'electron', version: 'test', platform: 'linux' },
    });
  });

  it.each([
    ['another origin', { url: 'https://evil.example/', parent: null }],
    ['a file: page', { url: 'file:///tmp/x.html', parent: null }],
    ['an app:// page of another host', { url: 'app://other/index.html', parent: null }],
    ['a subframe of our page', { url: 'app://tributary/frame.html', parent: top }],
    [
      "a top frame that is not the sender's main frame",
      { url: 'app://tributary/index.html', parent: null },
    ],
  ])('refuses %s', async (_label, sender) => {
    frame.current = sender as FakeFrame;
    try {
      const result = await call('getAppInfo', {});
      expect(result).toMatchObject({ ok: false, error: { code: 'FORBIDDEN_SENDER' } });
      const intake = (await ipc.ipcRenderer.invoke(IPC_INTAKE_CHANNEL, {
        path: '/etc/passwd',
      })) as IpcResult<unknown>;
      expect(intake).toMatchObject({ ok: false, error: { code: 'FORBIDDEN_SENDER' } });
    } finally {
      frame.current = top;
    }
  });

  it('refuses a missing sender frame (a frame that navigated away or was destroyed)', async () => {
    frame.current = null as unknown as FakeFrame;
    try {
      expect(await call('getAppInfo', {})).toMatchObject({
        ok: false,
        error: { code: 'FORBIDDEN_SENDER' },
      });
    } finally {
      frame.current = top;
    }
  });

  it.each([
    ['a non-object payload', 'listAccounts', 'hello'],
    ['a wrong type', 'getUser', { accountId: 'abc', userId: 'one' }],
    ['an extra key', 'getAppInfo', { debug: true }],
    ['a bad URL field', 'openExternal', { url: 42 }],
    ['a path where a token belongs', 'startUpload', { accountId: 'abc', token: '/etc/passwd' }],
  ])('refuses %s with INVALID_PAYLOAD', async (_label, method, payload) => {
    const result = await call(method, payload);
    expect(result).toMatchObject({ ok: false, error: { code: 'INVALID_PAYLOAD' } });
  });

  it('opens only http, https and mailto links outside the app', async () => {
    expect(await call('openExternal', { url: 'javascript:alert(1)' })).toMatchObject({
      ok: false,
      error: { code: 'BAD_REQUEST' },
    });
    expect(await call('openExternal', { url: 'file:///etc/passwd' })).toMatchObject({ ok: false });
    expect(await call('openExternal', { url: 'https://example.com/' })).toEqual({
      ok: true,
      value: null,
    });
  });

  it('turns a dropped file into an opaque token, never echoing the path', async () => {
    const userDir = mkdtempSync(join(tmpdir(), 'tributary-user-files-'));
    const path = join(userDir, 'dropped.txt');
    writeFileSync(path, 'x');
    const result = (await ipc.ipcRenderer.invoke(IPC_INTAKE_CHANNEL, { path })) as IpcResult<{
      token: string;
    }>;
    expect(result.ok).toBe(true);
    expect(JSON.stringify(result)).not.toContain(dataDir);
    const notFile = (await ipc.ipcRenderer.invoke(IPC_INTAKE_CHANNEL, {
      path: dataDir,
    })) as IpcResult<unknown>;
    expect(notFile.ok).toBe(false);
    rmSync(userDir, { recursive: true, force: true });
  });

  it("refuses intake paths to Tributary's own state (the vault), system folders, or relative ones", async () => {
    const vaultFile = join(dataDir, 'secrets.json');
    writeFileSync(vaultFile, '{}');
    const userDir = mkdtempSync(join(tmpdir(), 'tributary-user-files-'));
    const link = join(userDir, 'innocent.txt');
    symlinkSync(vaultFile, link); // a symlink pointing into the data folder is judged by its target
    for (const path of [vaultFile, link, '/proc/self/environ', 'relative/file.txt']) {
      const result = (await ipc.ipcRenderer.invoke(IPC_INTAKE_CHANNEL, {
        path,
      })) as IpcResult<unknown>;
      expect(result.ok, path).toBe(false);
    }
    rmSync(userDir, { recursive: true, force: true });
  });

  it('exposes named methods only: no ipcRenderer, no generic invoke or send', () => {
    const api = createPreloadApi(ipc.ipcRenderer, {
      getPathForFile: () => '',
    }) as unknown as Record<string, unknown>;
    expect(Object.keys(api).sort()).toEqual(
      [...methodNames, 'on', 'uploadFile', 'intakeFile'].sort(),
    );
    expect(Object.values(api).every((value) => typeof value === 'function')).toBe(true);
    expect(api.invoke).toBeUndefined();
    expect(api.send).toBeUndefined();
    expect(api.ipcRenderer).toBeUndefined();
  });
});

describe('browser-mode bridge', () => {
  let host: BrowserHost;
  let dataDir: string;

  beforeAll(async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'tributary-host-'));
    host = await startBrowserHost({
      dataDir,
      vault: new FileVault(dataDir),
      rendererDir: join(dataDir, 'renderer'),
    });
  });
  afterAll(async () => {
    await host.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  const tryConnect = (secret: string, origin: string | undefined) =>
    new Promise<number | 'open'>((resolve) => {
      const socket = new WebSocket(
        `ws://127.0.0.1:${host.port}/bridge?secret=${encodeURIComponent(secret)}`,
        {
          ...(origin ? { origin } : {}),
        },
      );
      socket.on('open', () => {
        socket.close();
        resolve('open');
      });
      socket.on('unexpected-response', (_req, res) => resolve(res.statusCode ?? 0));
      socket.on('error', () => resolve(0));
    });

  it('accepts our page with the secret', async () => {
    expect(await tryConnect(host.secret, `http://127.0.0.1:${host.port}`)).toBe('open');
  });

  it('refuses a wrong or missing secret', async () => {
    expect(await tryConnect('not-the-secret', `http://127.0.0.1:${host.port}`)).toBe(401);
    expect(await tryConnect('', `http://127.0.0.1:${host.port}`)).toBe(401);
  });

  it('refuses another origin even with the secret', async () => {
    expect(await tryConnect(host.secret, 'http://evil.example')).toBe(403);
    expect(await tryConnect(host.secret, undefined)).toBe(403);
  });

  it('serves pages with the CSP and refuses foreign Host headers', async () => {
    const page = await fetch(`http://127.0.0.1:${host.port}/`);
    expect(page.headers.get('content-security-policy')).toContain("script-src 'self'");
    expect(page.headers.get('content-security-policy')).toContain("object-src 'none'");
    const rebindingStatus = await new Promise<number>((resolve, reject) => {
      const req = request(
        { host: '127.0.0.1', port: host.port, path: '/', headers: { host: 'evil.example' } },
        (res) => {
          res.resume();
          resolve(res.statusCode ?? 0);
        },
      );
      req.on('error', reject);
      req.end();
    });
    expect(rebindingStatus).toBe(421);
  });

  it('refuses a bridge upgrade under a foreign Host header', async () => {
    const status = await new Promise<number>((resolve) => {
      const socket = new WebSocket(
        `ws://127.0.0.1:${host.port}/bridge?secret=${encodeURIComponent(host.secret)}`,
        { origin: `http://127.0.0.1:${host.port}`, headers: { host: `evil.example:${host.port}` } },
      );
      socket.on('open', () => {
        socket.close();
        resolve(101);
      });
      socket.on('unexpected-response', (_req, res) => resolve(res.statusCode ?? 0));
      socket.on('error', () => resolve(0));
    });
    expect(status).toBe(421);
  });

  it('issues a media cookie that is not the secret and cannot open the bridge', async () => {
    const header = await mediaCookie(host.port, host.secret);
    const cookie = decodeURIComponent(header.slice(header.indexOf('=') + 1));
    expect(cookie).not.toBe('');
    expect(cookie).not.toBe(host.secret);
    expect(await tryConnect(cookie, `http://127.0.0.1:${host.port}`)).toBe(401);
    // With the cookie, from our own origin: accepted (404: no such account). From elsewhere: not.
    const own = await fetch(`http://127.0.0.1:${host.port}/media/abc/user_uploads/1/x.png`, {
      headers: {
        cookie: `tributary_media=${encodeURIComponent(cookie)}`,
        'sec-fetch-site': 'same-origin',
      },
    });
    expect(own.status).not.toBe(401);
    const foreign = await fetch(`http://127.0.0.1:${host.port}/media/abc/user_uploads/1/x.png`, {
      headers: {
        cookie: `tributary_media=${encodeURIComponent(cookie)}`,
        'sec-fetch-site': 'same-site',
      },
    });
    expect(foreign.status).toBe(401);
  });

  it('refuses /media without the secret cookie', async () => {
    const res = await fetch(`http://127.0.0.1:${host.port}/media/abc/user_uploads/1/x.png`);
    expect(res.status).toBe(401);
  });
});
