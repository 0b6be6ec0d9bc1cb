// `npm start` in browser mode, as a child process: with no account it starts the local realm server
// (data in DIR/local-realm), signs in as the demo owner, serves the renderer with its CSP, and prints
// the URL with the per-launch secret, which the bridge requires.
import type { ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import WebSocket from 'ws';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createWebSocketBridge, type WebSocketLike } from '../../shared/ipc/bridge-client';
import { mediaCookie, SAME_ORIGIN } from './support/media-cookie';
import { startBrowserMode, stopBrowserMode } from './support/browser-start';

const root = fileURLToPath(new URL('../..', import.meta.url));

describe('npm start (browser mode)', () => {
  let child: ChildProcess;
  let dataDir: string;
  let lines: string[];
  let appUrl: URL;

  beforeAll(async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'tributary-start-'));
    ({ child, lines, appUrl } = await startBrowserMode(dataDir, [
      'x/manifest.json',
      '--open',
      'tributary://chat.example.com/#narrow/channel/5-x',
      'zulip://chat.example.com:8443',
    ]));
  }, 120_000);

  afterAll(async () => {
    await stopBrowserMode(child);
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('prints the realm and app addresses and says why it runs in browser mode', () => {
    expect(
      lines.some((l) =>
        /^local realm server listening on http:\/\/127\.0\.0\.1:\d+ \(process \d+\)$/.test(l),
      ),
    ).toBe(true);
    expect(lines.some((l) => l.startsWith('Running in browser mode: --browser was given'))).toBe(
      true,
    );
    expect(appUrl.hostname).toBe('127.0.0.1');
    expect(appUrl.hash).toMatch(/^#secret=[A-Za-z0-9_-]{40,}$/);
    expect(existsSync(join(dataDir, 'local-realm', 'demo-credentials.json'))).toBe(true);
  });

  it('serves the renderer with the CSP', async () => {
    const page = await fetch(new URL('/', appUrl));
    expect(page.status).toBe(200);
    expect(await page.text()).toContain('<div id="root">');
    expect(page.headers.get('content-security-policy')).toContain("default-src 'self'");
  });

  it('proxies realm files to the page under /media, only with the media cookie and never the API', async () => {
    const realmUrl = lines
      .map((l) => /^local realm server listening on (\S+) \(process \d+\)$/.exec(l)?.[1])
      .find(Boolean)!;
    const owner = (
      JSON.parse(readFileSync(join(dataDir, 'local-realm', 'demo-credentials.json'), 'utf8')) as {
        users: Array<{ email: string; api_key: string; role: number }>;
      }
    ).users.find((u) => u.role === 100)!;
    const authorization = `Basic ${Buffer.from(`${owner.email}:${owner.api_key}`).toString('base64')}`;
    const form = new FormData();
    form.append('file', new Blob(['picture bytes']), 'pic.txt');
    const uploaded = (await (
      await fetch(`${realmUrl}/api/v1/user_uploads`, {
        method: 'POST',
        headers: { authorization },
        body: form,
      })
    ).json()) as { url: string };
    const secret = appUrl.hash.replace('#secret=', '');
    const accountId = (
      JSON.parse(readFileSync(join(dataDir, 'accounts.json'), 'utf8')) as {
        accounts: Array<{ id: string }>;
      }
    ).accounts[0].id;
    const media = new URL(`/media/${accountId}${uploaded.url}`, appUrl);
    // The page's media token comes with the bridge handshake (never the bridge secret itself).
    const mediaHeader = await mediaCookie(Number(appUrl.port), secret);
    const asSecret = { cookie: `tributary_media=${encodeURIComponent(secret)}` };
    expect((await fetch(media, { headers: asSecret })).status).toBe(401);
    const cookie = { cookie: mediaHeader, ...SAME_ORIGIN };
    const withCookie = await fetch(media, { headers: cookie });
    expect(withCookie.status).toBe(200);
    expect(await withCookie.text()).toBe('picture bytes');
    expect((await fetch(media)).status).toBe(401);
    const api = await fetch(new URL(`/media/${accountId}/api/v1/users/me`, appUrl), {
      headers: cookie,
    });
    expect(api.status).toBe(404);
  });

  it('is signed in to the demo realm as its owner, and passes the manifest and deep links on', async () => {
    const secret = appUrl.hash.replace('#secret=', '');
    const origin = `http://127.0.0.1:${appUrl.port}`;
    const bridge = createWebSocketBridge({
      origin: `ws://127.0.0.1:${appUrl.port}`,
      secret,
      createSocket: (url) => new WebSocket(url, { origin }) as unknown as WebSocketLike,
    });
    try {
      const { accounts } = await bridge.listAccounts({});
      expect(accounts).toHaveLength(1);
      expect(accounts[0].email).toMatch(/^owner@/);
      const launch = await bridge.takeLaunchRequests({});
      expect(launch.openManifest.map((r) => r.path)).toEqual([join(root, 'x/manifest.json')]);
      // Deep links by --open and bare: parsed by main, waiting for the page.
      expect(launch.openLink).toEqual([
        { server: 'chat.example.com', narrow: [{ operator: 'channel', operand: 5 }] },
        { server: 'chat.example.com:8443' },
      ]);
    } finally {
      bridge.close();
    }
  });
});
