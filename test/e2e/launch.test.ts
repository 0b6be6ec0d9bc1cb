// `npm start` runs scripts/launch.mjs: with plain node it runs the prebuilt start bundle
// (dist/start.cjs) when that is fresh, printing exactly what scripts/start.ts prints, and the app
// it starts serves the page. Once it is up, the bundle's compiled code is kept for the next launch.
// A first launch's realm is forked before the start bundle loads, from the build's demo realm, and
// its account's cache starts from the build's seed.
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildAll, START_BUNDLE } from '../../scripts/build';
import { codeCacheFile } from '../../scripts/launch-code-cache.mjs';
import { DEMO_TEMPLATE_DIR } from '../../server/process/supervisor';

const root = fileURLToPath(new URL('../..', import.meta.url));

describe('npm start launcher', () => {
  let child: ChildProcess;
  let dataDir: string;
  const lines: string[] = [];
  let appUrl: URL;

  beforeAll(async () => {
    await buildAll();
    dataDir = mkdtempSync(join(tmpdir(), 'tributary-launch-'));
    const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as {
      scripts: Record<string, string>;
    };
    expect(pkg.scripts.start).toBe('node scripts/launch.mjs');
    child = spawn(
      process.execPath,
      ['scripts/launch.mjs', '--browser', '--no-open', '--port', '0', '--data', dataDir],
      // With its moments printed (electron/timing.ts): the realm's fork is one of them.
      {
        cwd: root,
        stdio: ['ignore', 'pipe', 'inherit'],
        env: { ...process.env, TRIBUTARY_TIMING: '1' },
      },
    );
    appUrl = new URL(
      await new Promise<string>((resolve, reject) => {
        createInterface({ input: child.stdout! }).on('line', (line) => {
          lines.push(line);
          const found = /^Tributary is running at (\S+)$/.exec(line);
          if (found) resolve(found[1]);
        });
        child.once('exit', (code) => reject(new Error(`launcher exited with ${code}`)));
      }),
    );
  }, 180_000);

  afterAll(async () => {
    if (child && child.exitCode === null) {
      child.kill('SIGTERM');
      await new Promise((resolve) => child.once('exit', resolve));
    }
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('has a start bundle after the build', () => {
    expect(statSync(join(root, START_BUNDLE)).size).toBeGreaterThan(0);
  });

  it(
    "prints its URL first, then start.ts's lines, and serves the app",
    { timeout: 60_000 },
    async () => {
      // The URL before the start bundle loads (scripts/launch-early.mjs); start.ts's lines follow,
      // and a first launch's realm line once the demo realm is created.
      expect(lines[0]).toMatch(/^Tributary is running at /);
      await expect
        .poll(() => lines.includes('Running in browser mode: --browser was given.'), {
          timeout: 30_000,
        })
        .toBe(true);
      await expect
        .poll(
          () =>
            lines.some((line) =>
              /^local realm server listening on http:\/\/127\.0\.0\.1:\d+ \(process \d+\)$/.test(
                line,
              ),
            ),
          { timeout: 30_000 },
        )
        .toBe(true);
      expect(lines.filter((line) => line.startsWith('Tributary is running at'))).toHaveLength(1);
      // A first launch: the demo organization is signed in to after the URL, as before.
      await expect
        .poll(() => lines.includes('Signed in to the demo organization as its owner'), {
          timeout: 30_000,
        })
        .toBe(true);
      // Its realm was forked once, before start.ts ran (scripts/launch-realm-early.mjs), and is
      // the build's demo realm made its own: keys of its own.
      const forks = lines.filter((line) => line.startsWith('tributary-timing realm-fork '));
      expect(forks).toHaveLength(1);
      expect(lines.indexOf(forks[0])).toBeLessThan(
        lines.indexOf('Running in browser mode: --browser was given.'),
      );
      const keys = (dir: string) =>
        (
          JSON.parse(readFileSync(join(dir, 'demo-credentials.json'), 'utf8')) as {
            users: Array<{ api_key: string }>;
          }
        ).users.map((user) => user.api_key);
      const own = keys(join(dataDir, 'local-realm'));
      expect(own.length).toBeGreaterThan(5);
      expect(own.filter((key) => keys(join(root, DEMO_TEMPLATE_DIR)).includes(key))).toEqual([]);
      // The demo owner's cache started from the build's seed (docs/first-screen.md), and the
      // realm's note of it was read once.
      await expect
        .poll(() => lines.some((line) => line.startsWith('tributary-timing cache-seeded ')), {
          timeout: 30_000,
        })
        .toBe(true);
      expect(existsSync(join(dataDir, 'local-realm', 'demo-seed.json'))).toBe(false);
      // The launcher planned the realm (its port, the owner's key): main added the account and
      // filled its cache before the realm listened (electron/local-realm.ts, signInFromPlan).
      const moment = (name: string) =>
        lines.findIndex((line) => line.startsWith(`tributary-timing ${name} `));
      expect(moment('cache-seeded')).toBeGreaterThan(-1);
      expect(moment('cache-seeded')).toBeLessThan(moment('realm-running'));
      // The owner's key, made by the launcher, never on the realm process's command line nor in
      // what the launch printed.
      const ownerKey = (
        JSON.parse(readFileSync(join(dataDir, 'local-realm', 'demo-credentials.json'), 'utf8')) as {
          users: Array<{ api_key: string; role: number; is_bot: boolean }>;
        }
      ).users.find((user) => user.role === 100 && !user.is_bot)!.api_key;
      const realmPid = /\(process (\d+)\)$/.exec(
        lines.find((line) => line.startsWith('local realm server listening on'))!,
      )![1];
      expect(readFileSync(`/proc/${realmPid}/cmdline`, 'utf8')).not.toContain(ownerKey);
      expect(lines.join('\n')).not.toContain(ownerKey);
      expect(appUrl.hash).toMatch(/^#secret=/);
      const page = await fetch(new URL('/', appUrl));
      expect(page.status).toBe(200);
      expect(await page.text()).toContain('<div id="root">');
    },
  );

  it('keeps the compiled start bundle for the next launch', async () => {
    const bundle = join(root, START_BUNDLE);
    const cache = codeCacheFile(bundle, statSync(bundle));
    // Made a few seconds after the URL (or by an earlier launch of the same build).
    while (!existsSync(cache)) await new Promise((resolve) => setTimeout(resolve, 100));
    expect(statSync(cache).size).toBeGreaterThan(0);
  }, 30_000);
});
