// The proxy preference on main's own connections: a real CONNECT proxy (a few lines of node:net) in
// front of the real local realm server. Manual mode tunnels main's fetch through it, the bypass list
// and "no proxy" go direct, and the preference survives in the desktop preferences file.
import { createServer, connect, type Server } from 'node:net';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { endpoints } from '../../shared/api/endpoints';
import { ApiClient } from '../../electron/api/client';
import { DesktopShell } from '../../electron/shell/desktop-shell';
import { applyProxy, proxyDispatcher } from '../../electron/shell/proxy';
import { startTestServer, type TestServer } from '../support/server';

let realm: TestServer;
let proxy: Server;
let proxyUrl: string;
const tunnels: string[] = [];
let dir: string;

beforeAll(async () => {
  realm = await startTestServer();
  proxy = createServer((socket) => {
    socket.once('data', (head) => {
      const match = /^CONNECT (\S+):(\d+) HTTP/.exec(head.toString('latin1'));
      if (!match) return socket.destroy();
      tunnels.push(`${match[1]}:${match[2]}`);
      const upstream = connect(Number(match[2]), match[1], () => {
        socket.write('HTTP/1.1 200 Connection Established\r\n\r\n');
        upstream.pipe(socket);
        socket.pipe(upstream);
      });
      upstream.on('error', () => socket.destroy());
      socket.on('error', () => upstream.destroy());
    });
  });
  await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));
  const address = proxy.address();
  proxyUrl = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
  dir = mkdtempSync(join(tmpdir(), 'tributary-proxy-'));
});

afterAll(async () => {
  applyProxy({ mode: 'direct', url: '', bypass: '' });
  await new Promise((resolve) => proxy?.close(resolve));
  await realm?.close();
  rmSync(dir, { recursive: true, force: true });
});

const realmHost = () => new URL(realm.url).host;
const askServer = () =>
  new ApiClient({ site: realm.url }).call(endpoints.serverSettings, {}).then((s) => s.realm_name);

describe('proxy preference', () => {
  it('sends main’s requests through a manual proxy, and straight again when turned off', async () => {
    const pushes: string[] = [];
    const shell = new DesktopShell({ dataDir: dir, push: (channel) => pushes.push(channel) });
    shell.handlers.setDesktopPreferences({ proxy: { mode: 'manual', url: proxyUrl, bypass: '' } });
    expect(await askServer()).toBeTruthy();
    expect(tunnels).toContain(realmHost());
    expect(pushes).toContain('desktopPreferences');

    const before = tunnels.length;
    shell.handlers.setDesktopPreferences({
      proxy: { mode: 'manual', url: proxyUrl, bypass: '127.0.0.1' },
    });
    expect(await askServer()).toBeTruthy();
    expect(tunnels.length).toBe(before);

    shell.handlers.setDesktopPreferences({ proxy: { mode: 'direct', url: proxyUrl, bypass: '' } });
    expect(await askServer()).toBeTruthy();
    expect(tunnels.length).toBe(before);
    const stored = JSON.parse(readFileSync(join(dir, 'desktop-preferences.json'), 'utf8'));
    expect(stored.proxy).toEqual({ mode: 'direct', url: proxyUrl, bypass: '' });
  });

  it('applies a stored manual proxy at start-up', async () => {
    writeFileSync(
      join(dir, 'desktop-preferences.json'),
      JSON.stringify({ proxy: { mode: 'manual', url: proxyUrl, bypass: '' } }),
    );
    const before = tunnels.length;
    new DesktopShell({ dataDir: dir, push: () => undefined });
    expect(await askServer()).toBeTruthy();
    expect(tunnels.length).toBe(before + 1);
    applyProxy({ mode: 'direct', url: '', bypass: '' });
  });

  it('uses the environment’s proxy variables only in system mode, and only when set', () => {
    const system = { mode: 'system' as const, url: '', bypass: '' };
    expect(proxyDispatcher(system, {})).toBeNull();
    expect(proxyDispatcher(system, { HTTPS_PROXY: proxyUrl })).not.toBeNull();
    expect(
      proxyDispatcher({ mode: 'direct', url: '', bypass: '' }, { HTTPS_PROXY: proxyUrl }),
    ).toBeNull();
    expect(proxyDispatcher({ mode: 'manual', url: '', bypass: '' })).toBeNull();
  });
});
