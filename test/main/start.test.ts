// `npm start` in browser mode, as a child process: with no account it starts the local realm server
// (data in DIR/local-realm), signs in as the demo owner, serves the renderer with its CSP, and prints
// the URL with the per-launch secret, which the bridge requires.
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import WebSocket from 'ws';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createWebSocketBridge, type WebSocketLike } from '../../shared/ipc/bridge-client';

const root = fileURLToPath(new URL('../..', import.meta.url));

describe('npm start (browser mode)', () => {
  let child: ChildProcess;
  let dataDir: string;
  const lines: string[] = [];
  let appUrl: URL;

  beforeAll(async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'tributary-start-'));
    child = spawn(
      process.execPath,
      [
        '--import',
        'tsx',
        'scripts/start.ts',
        '--browser',
        '--no-open',
        '--port',
        '0',
        '--data',
        dataDir,
        'x/manifest.json',
      ],
      { cwd: root, stdio: ['ignore', 'pipe', 'inherit'] },
    );
    const url = await new Promise<string>((resolve, reject) => {
      createInterface({ input: child.stdout! }).on('line', (line) => {
        lines.push(line);
        const found = /^Tributary is running at (\S+)$/.exec(line);
        if (found) resolve(found[1]);
      });
      child.once('exit', (code) =>
        reject(new Error(`npm start exited with ${code}: ${lines.join('\n')}`)),
      );
    });
    appUrl = new URL(url);
  }, 120_000);

  afterAll(async () => {
    if (child && child.exitCode === null) {
      child.kill('SIGTERM');
      await new Promise((resolve) => child.once('exit', resolve));
    }
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('prints the realm and app addresses and says why it runs in browser mode', () => {
    expect(
      lines.some((l) => /^local realm server listening on http:\/\/127\.0\.0\.1:\d+$/.test(l)),
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

  it('is signed in to the demo realm as its owner, and passes the manifest on', async () => {
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
    } finally {
      bridge.close();
    }
  });
});
