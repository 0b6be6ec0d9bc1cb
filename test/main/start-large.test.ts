// `npm start -- --seed large --large-scale F`: a fresh local realm is the large organization at that
// scale, and the app signs in to it as its owner (whose first register is the bench's subject). A
// seed the launcher does not offer stops it with a message.
import { spawnSync, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import WebSocket from 'ws';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createWebSocketBridge, type WebSocketLike } from '../../shared/ipc/bridge-client';
import { largeRealmCounts } from '../../server/seed/large';
import { startBrowserMode, stopBrowserMode } from './support/browser-start';

const root = fileURLToPath(new URL('../..', import.meta.url));
const SCALE = 0.01;

describe('npm start --seed large', () => {
  let child: ChildProcess;
  let dataDir: string;
  let appUrl: URL;
  let realmUrl = '';

  beforeAll(async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'tributary-start-large-'));
    let lines: string[];
    ({ child, lines, appUrl } = await startBrowserMode(dataDir, [
      '--seed',
      'large',
      '--large-scale',
      String(SCALE),
    ]));
    realmUrl =
      lines.map((l) => /local realm server listening on (\S+)/.exec(l)?.[1]).find(Boolean) ?? '';
  }, 120_000);

  afterAll(async () => {
    await stopBrowserMode(child);
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('seeds the large organization at the scale given and signs in as its owner', async () => {
    const credentials = JSON.parse(
      readFileSync(join(dataDir, 'local-realm', 'demo-credentials.json'), 'utf8'),
    ) as { users: Array<{ email: string; api_key: string; role: number }> };
    const owner = credentials.users.find((u) => u.role === 100)!;
    const res = await fetch(`${realmUrl}/api/v1/users`, {
      headers: {
        authorization: `Basic ${Buffer.from(`${owner.email}:${owner.api_key}`).toString('base64')}`,
      },
    });
    const { members } = (await res.json()) as { members: Array<{ is_bot: boolean }> };
    expect(members.filter((m) => !m.is_bot)).toHaveLength(largeRealmCounts(SCALE).users);

    const bridge = createWebSocketBridge({
      origin: `ws://127.0.0.1:${appUrl.port}`,
      secret: appUrl.hash.replace('#secret=', ''),
      createSocket: (url) =>
        new WebSocket(url, {
          origin: `http://127.0.0.1:${appUrl.port}`,
        }) as unknown as WebSocketLike,
    });
    try {
      const { accounts } = await bridge.listAccounts({});
      expect(accounts.map((a) => a.email)).toEqual([owner.email]);
    } finally {
      bridge.close();
    }
  });

  it('refuses a seed it does not offer', () => {
    const run = spawnSync(
      process.execPath,
      ['--import', 'tsx', 'scripts/start.ts', '--browser', '--no-open', '--seed', 'empty'],
      { cwd: root, encoding: 'utf8', timeout: 60_000 },
    );
    expect(run.status).toBe(1);
    expect(run.stderr).toContain('--seed must be demo or large, got empty');
  });
});
