// The installers' configuration, without building: electron-builder accepts it (its own schema), and
// its targets, icons, protocols and manifest associations are those the table of
// docs/desktop-shell.md ("Desktop shell and installers") states. `npm run dist` where the Electron runtime is absent (these machines) says
// so in one paragraph and fails without a stack trace; the app it would pack is staged correctly.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import sharp from 'sharp';
import { buildAll } from '../../scripts/build';
import {
  electronVersion,
  findElectronRuntime,
  noRuntimeMessage,
  requiredPackages,
  stageApp,
} from '../../scripts/dist';
import { parseMainArgs } from '../../electron/args';

const require = createRequire(import.meta.url);
const root = join(import.meta.dirname, '../..');
const config = require(join(root, 'electron-builder.config.cjs')) as Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

let dir: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'tributary-packaging-'));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** The installers table's rows in docs/desktop-shell.md: platform -> [targets, icon, manifests]. */
function installersTable(): Map<string, string[]> {
  const section = readFileSync(join(root, 'docs/desktop-shell.md'), 'utf8');
  const rows = new Map<string, string[]>();
  for (const line of section.split('\n')) {
    const cells = line
      .split('|')
      .slice(1, -1)
      .map((c) => c.trim());
    if (cells.length === 4 && ['Linux', 'macOS', 'Windows'].includes(cells[0]!)) {
      rows.set(cells[0]!, cells.slice(1));
    }
  }
  return rows;
}

describe('electron-builder configuration', () => {
  it('passes electron-builder’s own validation, and a typo would not', async () => {
    const { validateConfiguration } = require('app-builder-lib/out/util/config/config');
    const { DebugLogger } = require('builder-util');
    await expect(validateConfiguration(config, new DebugLogger(false))).resolves.toBeUndefined();
    await expect(
      validateConfiguration(
        { ...config, linux: { ...config.linux, targt: 'deb' } },
        new DebugLogger(false),
      ),
    ).rejects.toThrow(/Invalid configuration object/);
  });

  it('has the targets and icons the docs list, and the icons exist and are what they claim', async () => {
    const table = installersTable();
    expect([...table.keys()]).toEqual(['Linux', 'macOS', 'Windows']);
    const platforms = { Linux: config.linux, macOS: config.mac, Windows: config.win };
    for (const [name, options] of Object.entries(platforms)) {
      const [targets, icon] = table.get(name)!;
      expect(options.target, name).toEqual(targets!.split(', '));
      expect(options.icon, name).toBe(icon);
    }
    for (const size of [16, 32, 48, 64, 128, 256, 512]) {
      const meta = await sharp(join(root, config.linux.icon, `${size}x${size}.png`)).metadata();
      expect([meta.width, meta.height]).toEqual([size, size]);
    }
    expect(readFileSync(join(root, config.mac.icon)).subarray(0, 4).toString('latin1')).toBe(
      'icns',
    );
    expect([...readFileSync(join(root, config.win.icon)).subarray(0, 4)]).toEqual([0, 0, 1, 0]);
  });

  it('registers the protocols the docs name, which are the ones the app parses', async () => {
    const readme = readFileSync(join(root, 'docs/desktop-shell.md'), 'utf8');
    const line = /Protocols registered by every installer: (.*)\./.exec(readme)![1]!;
    const schemes = config.protocols.flatMap((p: { schemes: string[] }) => p.schemes);
    expect(line.split(', ').map((s) => s.replace(/`/g, ''))).toEqual(schemes);
    const { DEEP_LINK_SCHEMES } = await import('../../shared/narrow/deep-link');
    expect(schemes).toEqual([...DEEP_LINK_SCHEMES]);
  });

  it('offers itself for JSON manifests on every platform without taking .json over', () => {
    const table = installersTable();
    expect(config.fileAssociations).toBeUndefined();
    expect(config.win.fileAssociations).toBeUndefined();
    expect(config.mac.fileAssociations).toEqual([
      expect.objectContaining({ ext: 'json', role: 'Viewer', rank: 'Alternate' }),
    ]);
    expect(table.get('macOS')![2]).toContain('Alternate viewer of .json');
    expect(config.linux.mimeTypes).toEqual(['application/json']);
    expect(table.get('Linux')![2]).toContain('application/json');
    const nsh = readFileSync(join(root, config.nsis.include), 'utf8');
    expect(nsh).toContain('Software\\Classes\\.json\\OpenWithProgids');
    expect(nsh).not.toMatch(/WriteRegStr SHCTX "Software\\Classes\\\.json" ""/);
    expect(table.get('Windows')![2]).toContain(config.nsis.include);
    // How those launches arrive: a file:// URL from a Linux desktop entry, a path elsewhere.
    expect(parseMainArgs(['file:///tmp/a%20b.json', 'file://elsewhere/x.json']).manifests).toEqual(
      process.platform === 'win32' ? ['\\\\elsewhere\\x.json'] : ['/tmp/a b.json'],
    );
  });

  it('packs the staged app: its package.json points at the bundled main and lists the native modules main requires', async () => {
    expect(config.directories).toMatchObject({ app: 'dist/app', buildResources: 'build' });
    await buildAll();
    const out = join(dir, 'app');
    stageApp(root, out);
    const pkg = JSON.parse(readFileSync(join(out, 'package.json'), 'utf8'));
    expect(pkg.main).toBe('dist/electron/main.cjs');
    expect(existsSync(join(out, pkg.main))).toBe(true);
    expect(existsSync(join(out, 'dist/electron/preload.cjs'))).toBe(true);
    expect(existsSync(join(out, 'dist/renderer/index.html'))).toBe(true);
    const main = readFileSync(join(out, pkg.main), 'utf8');
    const rootPkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
    // The local cache's SQLite is the one native module; electron-builder rebuilds it for Electron.
    expect(requiredPackages(main)).toEqual(['better-sqlite3']);
    expect(pkg.dependencies).toEqual({
      'better-sqlite3': rootPkg.dependencies['better-sqlite3'],
    });
  }, 180_000);
});

describe('npm run dist', () => {
  it('finds a runtime in node_modules, the override path or the download cache', () => {
    const version = electronVersion();
    const host = (env: Record<string, string>) => ({
      root: dir,
      env,
      platform: 'linux',
      arch: 'x64',
      home: dir,
    });
    expect(findElectronRuntime(version, host({}))).toBeNull();
    const override = join(dir, 'unpacked');
    mkdirSync(override);
    expect(findElectronRuntime(version, host({ ELECTRON_OVERRIDE_DIST_PATH: override }))).toEqual({
      kind: 'override',
      dir: override,
    });
    const cached = join(dir, '.cache/electron/0123abcd');
    mkdirSync(cached, { recursive: true });
    writeFileSync(join(cached, `electron-v${version}-linux-x64.zip`), '');
    expect(findElectronRuntime(version, host({}))).toEqual({
      kind: 'cache',
      zip: join(cached, `electron-v${version}-linux-x64.zip`),
    });
    const installed = join(dir, 'node_modules/electron/dist');
    mkdirSync(installed, { recursive: true });
    writeFileSync(join(installed, 'electron'), '');
    expect(findElectronRuntime(version, host({}))).toEqual({ kind: 'installed', dir: installed });
  });

  it.skipIf(findElectronRuntime(electronVersion()) !== null)(
    'says in one paragraph that the runtime is missing, and fails without a stack trace',
    () => {
      const env: NodeJS.ProcessEnv = { ...process.env, ELECTRON_CACHE: join(dir, 'empty-cache') };
      delete env.ELECTRON_OVERRIDE_DIST_PATH;
      const run = spawnSync('npm', ['run', '--silent', 'dist'], {
        cwd: root,
        env,
        encoding: 'utf8',
      });
      expect(run.status).toBe(1);
      const errors = run.stderr.split('\n').filter((l) => l && !l.startsWith('npm warn'));
      expect(errors).toEqual([
        noRuntimeMessage(electronVersion(), {
          root,
          env,
          platform: process.platform,
          arch: process.arch,
          home: '',
        }),
      ]);
      expect(run.stdout + run.stderr).not.toMatch(/^\s+at /m);
      expect(existsSync(join(root, 'dist/installers'))).toBe(false);
    },
  );
});
