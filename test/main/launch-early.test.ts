// `npm start` binds the host's socket and prints its URL before its start bundle loads
// (scripts/launch-early.mjs, electron/host/early-listener.mjs): what arrives meanwhile waits and is
// answered by the host itself, with its checks and headers; the last launch's port and secret are
// taken by the launch record's rules; and the launches that stop at their arguments or their data
// folder say why and leave no port behind. Real processes and sockets.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, request as httpRequest, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import WebSocket from 'ws';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createWebSocketBridge, type WebSocketLike } from '../../shared/ipc/bridge-client';
import { BRIDGE_PATH } from '../../shared/ipc/wire';
import { spawnNode, stopBrowserMode } from './support/browser-start';

const root = fileURLToPath(new URL('../..', import.meta.url));
const URL_LINE = /^Tributary is running at (\S+)$/;

/** A port nothing listens on now (bound, then released). */
async function freePort(): Promise<number> {
  const server = await listening(0);
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

function listening(port: number): Promise<Server> {
  const server = createServer((_request, response) => response.end('someone else'));
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => resolve(server));
  });
}

/** GET / with the Host header given: status, headers and body. */
function get(port: number, host: string) {
  return new Promise<{ status: number; headers: Record<string, unknown>; body: string }>(
    (resolve, reject) => {
      httpRequest({ host: '127.0.0.1', port, path: '/', headers: { host } }, (response) => {
        let body = '';
        response.on('data', (chunk: Buffer) => (body += chunk.toString()));
        response.on('end', () =>
          resolve({ status: response.statusCode ?? 0, headers: response.headers, body }),
        );
      })
        .on('error', reject)
        .end();
    },
  );
}

/** Resolves once `child` has printed `count` lines matching `wanted`. */
function printed(child: ChildProcess, lines: string[], wanted: string, count: number) {
  return new Promise<void>((resolve, reject) => {
    const check = () => {
      if (lines.filter((line) => line === wanted).length < count) return;
      clearInterval(poll);
      resolve();
    };
    const poll = setInterval(check, 20);
    child.once('exit', (code) => {
      clearInterval(poll);
      reject(new Error(`exited with ${code} before ${count}× "${wanted}": ${lines.join('\n')}`));
    });
  });
}

describe('npm start before its start bundle has loaded', () => {
  let child: ChildProcess;
  let dataDir: string;
  const lines: string[] = [];
  let appUrl: URL;

  beforeAll(async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'tributary-held-launch-'));
    child = spawn(
      process.execPath,
      [
        'test/main/support/held-launch.mjs',
        ...['--browser', '--no-open', '--port', '0', '--data', dataDir],
      ],
      { cwd: root, stdio: ['pipe', 'pipe', 'inherit'] },
    );
    appUrl = new URL(
      await new Promise<string>((resolve, reject) => {
        createInterface({ input: child.stdout! }).on('line', (line) => {
          lines.push(line);
          const found = URL_LINE.exec(line);
          if (found) resolve(found[1]);
        });
        child.once('exit', (code) => reject(new Error(`exited with ${code}: ${lines.join('\n')}`)));
      }),
    );
  }, 60_000);

  afterAll(async () => {
    await stopBrowserMode(child);
    rmSync(dataDir, { recursive: true, force: true });
  });

  it(
    'holds a page request and a bridge socket until the host answers them itself, with its checks',
    { timeout: 120_000 },
    async () => {
      const port = Number(appUrl.port);
      const secret = appUrl.hash.replace('#secret=', '');
      const host = `127.0.0.1:${port}`;
      const page = get(port, host);
      // Another name for this address (DNS rebinding): the host's own check refuses it.
      const rebound = get(port, `evil.example:${port}`);
      const origin = `http://${host}`;
      const bridge = createWebSocketBridge({
        origin: `ws://${host}`,
        secret,
        createSocket: (url) => new WebSocket(url, { origin }) as unknown as WebSocketLike,
      });
      const accounts = bridge.listAccounts({});
      // A socket without the secret: the bridge's own check refuses it.
      const refused = new Promise<number>((resolve, reject) => {
        const socket = new WebSocket(`ws://${host}${BRIDGE_PATH}?secret=wrong`, { origin });
        socket.on('unexpected-response', (_request, response) => resolve(response.statusCode!));
        socket.on('open', () => reject(new Error('opened without the secret')));
      });
      try {
        // All of them reached the socket while the start bundle had not loaded.
        await printed(child, lines, 'held request', 2);
        await printed(child, lines, 'held upgrade', 2);
        child.stdin!.write('go\n');

        const answered = await page;
        expect(answered.status).toBe(200);
        expect(answered.body).toContain('<div id="root">');
        expect(answered.headers['content-security-policy']).toContain("default-src 'self'");
        expect(answered.headers['content-security-policy']).toContain(`ws://${host}`);
        expect(answered.headers['x-frame-options']).toBe('DENY');
        expect(answered.headers['cross-origin-opener-policy']).toBe('same-origin');
        expect((await rebound).status).toBe(421);
        expect(Array.isArray((await accounts).accounts)).toBe(true);
        expect(await refused).toBe(401);
        // The URL was printed once, first, and the launch's record holds that port and secret.
        expect(lines[0]).toMatch(URL_LINE);
        expect(lines.filter((line) => URL_LINE.test(line))).toHaveLength(1);
        const record = JSON.parse(readFileSync(join(dataDir, 'browser-host.json'), 'utf8')) as {
          port: number;
          secret: string;
        };
        expect(record).toMatchObject({ port, secret });
      } finally {
        bridge.close();
      }
    },
  );
});

describe("npm start's port and secret", () => {
  let dataDir: string;
  let child: ChildProcess | undefined;
  let taken: Server | undefined;
  const earlierSecret = 'e'.repeat(43);

  beforeAll(() => {
    dataDir = mkdtempSync(join(tmpdir(), 'tributary-launch-port-'));
  });

  afterEach(async () => {
    await stopBrowserMode(child);
    await new Promise((resolve) => (taken ? taken.close(resolve) : resolve(undefined)));
    taken = undefined;
  });

  afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

  const launch = async () => {
    const started = await spawnNode(
      ['scripts/launch.mjs', '--browser', '--no-open', '--port', '0', '--data', dataDir],
      URL_LINE,
    );
    child = started.child;
    return new URL(started.found[1]);
  };
  const record = () =>
    JSON.parse(readFileSync(join(dataDir, 'browser-host.json'), 'utf8')) as {
      port: number;
      secret: string;
      earlierSecrets: string[];
    };

  it("are the last launch's when its port is free", { timeout: 60_000 }, async () => {
    const port = await freePort();
    writeFileSync(
      join(dataDir, 'browser-host.json'),
      JSON.stringify({ port, secret: earlierSecret }),
    );
    const url = await launch();
    expect(Number(url.port)).toBe(port);
    expect(url.hash).toBe(`#secret=${earlierSecret}`);
  });

  it('are both fresh when something else holds that port', { timeout: 60_000 }, async () => {
    const port = await freePort();
    writeFileSync(
      join(dataDir, 'browser-host.json'),
      JSON.stringify({ port, secret: earlierSecret }),
    );
    taken = await listening(port);
    const url = await launch();
    expect(Number(url.port)).not.toBe(port);
    const secret = url.hash.replace('#secret=', '');
    expect(secret).not.toBe(earlierSecret);
    expect(secret.length).toBeGreaterThanOrEqual(32);
    // The page is served there, and the record says so for the next launch; pages of the last
    // launch still have their sealed leftovers opened (unsent-handover.ts).
    expect((await get(Number(url.port), `127.0.0.1:${url.port}`)).status).toBe(200);
    expect(record()).toMatchObject({ port: Number(url.port), secret });
    expect(record().earlierSecrets).toContain(earlierSecret);
  });
});

describe('npm start stopped by its arguments or its data folder', () => {
  let scratch: string;

  beforeAll(() => {
    scratch = mkdtempSync(join(tmpdir(), 'tributary-launch-exit-'));
    writeFileSync(join(scratch, 'a-file'), '');
  });

  afterAll(() => rmSync(scratch, { recursive: true, force: true }));

  /** `node scripts/launch.mjs ARGS` to its exit: its code and everything it printed. */
  const run = (args: string[]) =>
    new Promise<{ code: number | null; output: string }>((resolve) => {
      const child = spawn(process.execPath, ['scripts/launch.mjs', ...args], { cwd: root });
      let output = '';
      child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
      child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
      child.on('exit', (code) => resolve({ code, output }));
    });

  it.each([
    { why: '--help', args: ['--help'], code: 0, says: /^usage: npm start/m },
    {
      why: 'a bad option',
      args: ['--seed', 'nope'],
      code: 1,
      says: /--seed must be demo or large/,
    },
    { why: 'an unknown option', args: ['--colour'], code: 1, says: /Unknown option '--colour'/ },
    {
      why: 'a data folder that is a file',
      args: ['--data', 'DATA_FILE'],
      code: 1,
      says: /a-file/,
    },
  ])('says so on $why, prints no URL and leaves its port free', { timeout: 60_000 }, async (c) => {
    const port = await freePort();
    const args = c.args.map((arg) => (arg === 'DATA_FILE' ? join(scratch, 'a-file') : arg));
    const data = args.includes('--data') ? [] : ['--data', join(scratch, 'data')];
    const { code, output } = await run([
      ...['--browser', '--no-open', '--port', `${port}`],
      ...data,
      ...args,
    ]);
    expect(code).toBe(c.code);
    expect(output).toMatch(c.says);
    expect(output).not.toMatch(/Tributary is running at/);
    const server = await listening(port);
    await new Promise((resolve) => server.close(resolve));
  });
});
