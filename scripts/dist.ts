// npm run dist [-- --linux | --mac | --win, other electron-builder options]: builds the installers
// electron-builder.config.cjs describes, for this platform unless told otherwise.
//
// electron-builder packs an Electron runtime it takes from node_modules/electron/dist, from
// ELECTRON_OVERRIDE_DIST_PATH, or from a zip in the Electron download cache. With none of those,
// this tries once to download it (electron's own installer); where that fails too (the project's
// build machines cannot reach GitHub), it says so in one paragraph and exits with status 1 before
// building anything.
import { builtinModules } from 'node:module';
import { spawnSync } from 'node:child_process';
import {
  cpSync,
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
/** A download of the runtime (about 100 MB) that has not finished by then is given up. */
const DOWNLOAD_TIMEOUT_MS = 5 * 60_000;

export type RuntimeSource =
  { kind: 'installed' | 'override'; dir: string } | { kind: 'cache'; zip: string };

interface Host {
  root: string;
  env: Record<string, string | undefined>;
  platform: string;
  arch: string;
  home: string;
}

const currentHost = (): Host => ({
  root,
  env: process.env,
  platform: process.platform,
  arch: process.arch,
  home: homedir(),
});

export function electronVersion(projectRoot = root): string {
  const pkg = join(projectRoot, 'node_modules/electron/package.json');
  return (JSON.parse(readFileSync(pkg, 'utf8')) as { version: string }).version;
}

/** Where @electron/get (and so electron-builder) keeps downloaded runtimes. */
export function electronCacheDir(host: Host): string {
  if (host.env.ELECTRON_CACHE) return host.env.ELECTRON_CACHE;
  if (host.platform === 'darwin') return join(host.home, 'Library/Caches/electron');
  if (host.platform === 'win32') {
    return join(host.env.LOCALAPPDATA ?? join(host.home, 'AppData/Local'), 'electron/Cache');
  }
  return join(host.env.XDG_CACHE_HOME ?? join(host.home, '.cache'), 'electron');
}

function findFile(dir: string, name: string, depth: number): string | null {
  if (!existsSync(dir)) return null;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isFile() && entry.name === name) return path;
    if (entry.isDirectory() && depth > 0) {
      const found = findFile(path, name, depth - 1);
      if (found) return found;
    }
  }
  return null;
}

/** The Electron runtime electron-builder can use without downloading, or null. */
export function findElectronRuntime(
  version: string,
  host: Host = currentHost(),
): RuntimeSource | null {
  const installed = join(host.root, 'node_modules/electron/dist');
  if (existsSync(installed) && readdirSync(installed).length > 0) {
    return { kind: 'installed', dir: installed };
  }
  const override = host.env.ELECTRON_OVERRIDE_DIST_PATH;
  if (override && existsSync(override)) return { kind: 'override', dir: override };
  // @electron/get files a download under a hash of its URL: look one level down too.
  const zip = findFile(
    electronCacheDir(host),
    `electron-v${version}-${host.platform}-${host.arch}.zip`,
    1,
  );
  return zip ? { kind: 'cache', zip } : null;
}

export function noRuntimeMessage(version: string, host: Host = currentHost()): string {
  return (
    `npm run dist cannot build installers here: they contain the Electron ${version} runtime, ` +
    `which is not on this machine (not in node_modules/electron/dist, not at ` +
    `ELECTRON_OVERRIDE_DIST_PATH, no electron-v${version}-${host.platform}-${host.arch}.zip in ` +
    `${electronCacheDir(host)}) and downloading it failed. On a machine that can reach ` +
    `GitHub, run npm ci and then npm run dist (electron-builder also downloads its packaging tools ` +
    `there); or put an unpacked Electron ${version} at ELECTRON_OVERRIDE_DIST_PATH. Nothing was built.`
  );
}

/**
 * The packages the bundled main process still requires at run time: native modules the bundle keeps
 * external (better-sqlite3, for the local cache). electron-builder installs them into the app and
 * rebuilds them for Electron's ABI.
 */
export function requiredPackages(mainBundle: string): string[] {
  const names = [...mainBundle.matchAll(/require\("([^".][^"]*)"\)/g)].map((m) => m[1]!);
  return [
    ...new Set(
      names.filter(
        (name) =>
          !name.startsWith('node:') && name !== 'electron' && !builtinModules.includes(name),
      ),
    ),
  ].sort();
}

/**
 * dist/app: what the installers contain: the bundled main process and preload, the renderer, and a
 * package.json listing only the native modules main requires (at the versions this repo pins).
 */
export function stageApp(projectRoot: string, out: string): void {
  const pkg = JSON.parse(readFileSync(join(projectRoot, 'package.json'), 'utf8')) as {
    version: string;
    description: string;
    dependencies: Record<string, string>;
  };
  const main = readFileSync(join(projectRoot, 'dist/electron/main.cjs'), 'utf8');
  const dependencies = Object.fromEntries(
    requiredPackages(main).map((name) => {
      const version = pkg.dependencies[name];
      if (!version) throw new Error(`main requires ${name}, which package.json does not list`);
      return [name, version];
    }),
  );
  rmSync(out, { recursive: true, force: true });
  mkdirSync(join(out, 'dist/electron'), { recursive: true });
  for (const file of ['main.cjs', 'preload.cjs']) {
    cpSync(join(projectRoot, 'dist/electron', file), join(out, 'dist/electron', file));
  }
  cpSync(join(projectRoot, 'dist/renderer'), join(out, 'dist/renderer'), { recursive: true });
  writeFileSync(
    join(out, 'package.json'),
    JSON.stringify(
      {
        name: 'tributary',
        productName: 'Tributary',
        version: pkg.version,
        description: pkg.description,
        author: 'Tributary contributors',
        main: 'dist/electron/main.cjs',
        dependencies,
      },
      null,
      2,
    ),
  );
}

const PLATFORM_FLAGS: Record<string, string[]> = {
  linux: ['--linux', '-l'],
  darwin: ['--mac', '-m', '--macos'],
  win32: ['--win', '-w', '--windows'],
};

async function main(): Promise<void> {
  const passThrough = process.argv.slice(2);
  const version = electronVersion();
  let runtime = findElectronRuntime(version);
  if (!runtime) {
    console.log(`Downloading the Electron ${version} runtime...`);
    // Its output is a stack trace when there is no network: the paragraph below says it better.
    spawnSync(process.execPath, [join(root, 'node_modules/electron/install.js')], {
      stdio: 'ignore',
      timeout: DOWNLOAD_TIMEOUT_MS,
    });
    runtime = findElectronRuntime(version);
  }
  if (!runtime) {
    console.error(noRuntimeMessage(version));
    process.exit(1);
  }
  const { buildAll } = await import('./build');
  await buildAll();
  stageApp(root, join(root, 'dist/app'));
  const args = ['--config', 'electron-builder.config.cjs', '--publish', 'never', ...passThrough];
  // An unpacked runtime is this platform's: use it unless another platform was asked for.
  const otherPlatform = Object.entries(PLATFORM_FLAGS).some(
    ([platform, flags]) =>
      platform !== process.platform && flags.some((f) => passThrough.includes(f)),
  );
  if (runtime.kind !== 'cache' && !otherPlatform) args.push(`--config.electronDist=${runtime.dir}`);
  const result = spawnSync(
    process.execPath,
    [join(root, 'node_modules/electron-builder/cli.js'), ...args],
    { cwd: root, stdio: 'inherit' },
  );
  process.exit(result.status ?? 1);
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  main().catch((error: unknown) => {
    console.error(error instanceof Error ? error.message : String(error));
    process.exit(1);
  });
}
