// Builds what is stale: the renderer bundle (Vite), the Electron main process and preload (esbuild),
// the start bundle (dist/start.cjs: scripts/start.ts with the browser-mode host and main services,
// so a warm `npm start` runs plain node instead of transpiling TypeScript), and the local realm
// server's own process (dist/server/realm-process.cjs, forked by the launcher and the desktop app).
// `npm start` and `npm test` call this; it does nothing when the outputs are newer than their sources.
// Builds in parallel processes (test workers, `npm start` beside a test run) take turns through a
// lock folder, and each re-checks staleness once it holds the lock.
import { existsSync, mkdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { PluginBuild } from 'esbuild';
import {
  DEMO_TEMPLATE_DIR,
  REALM_PROCESS_BUNDLE,
  REALM_PROCESS_INPUTS,
} from '../server/process/supervisor';
import { madeByItsBundle } from '../server/seed/template-stamp';
import { demoFirstScreensFresh } from './demo-first-screens';
import { newestMtime } from './newest-mtime.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));

/** The start bundle and the sources it is made of (scripts/launch.mjs reads the same file). */
const startBundle = JSON.parse(readFileSync(join(root, 'scripts/start-bundle.json'), 'utf8')) as {
  bundle: string;
  inputs: string[];
};
export const START_BUNDLE = startBundle.bundle;
export const START_BUNDLE_INPUTS = startBundle.inputs;

/** The realm server's process bundle and its sources. */

/**
 * The Node bundles plain node starts are CommonJS, so that scripts/launch-code-cache.mjs can run
 * them as a vm.Script with V8's code cache (an ES module has no such option in Node 20): compiling
 * their source was the largest part of each process's start. `import.meta.url` is the bundle's
 * own file URL (set in the banner). A vm.Script cannot import() without an experimental flag, so
 * the few dynamic imports (the bundlers, tus) are written as require(): Node 20.19 and later
 * require ES modules too.
 */
const COMMONJS = {
  format: 'cjs',
  define: { 'import.meta.url': '__bundleUrl' },
  supported: { 'dynamic-import': false },
  banner: { js: "var __bundleUrl = require('node:url').pathToFileURL(__filename).href;" },
} as const;

/**
 * Fastify's server module requires node:https and node:http2 as it loads, for the TLS and HTTP/2
 * servers the realm never makes: loading them (with TLS) was about 20 ms of the realm's start
 * before it listens (a CPU profile; docs/benchmarks.md, start-up, eleventh pass). In that module
 * alone they become objects that load the real one at their first property read.
 */
const FASTIFY_TLS_ON_FIRST_USE = {
  name: 'fastify-tls-on-first-use',
  setup(build: PluginBuild) {
    build.onResolve({ filter: /^node:(https|http2)$/ }, (args) =>
      /[\\/]fastify[\\/]lib[\\/]server\.js$/.test(args.importer)
        ? { path: args.path, namespace: 'on-first-use' }
        : undefined,
    );
    build.onLoad({ filter: /.*/, namespace: 'on-first-use' }, (args) => ({
      contents: `module.exports = new Proxy({}, { get: (_, key) => require(${JSON.stringify(args.path)})[key] });`,
      loader: 'js',
    }));
  },
};

const LOCK_DIR = join(root, 'dist/.build-lock');
/** A lock older than this was left by a build that died. */
const LOCK_STALE_MS = 5 * 60_000;

/**
 * Whether an output is older than any of its inputs. `seen` holds each input's newest time for
 * one check of all outputs: shared/ and server/ feed four bundles, and walking them once is most
 * of what a warm start spends here.
 */
function isStale(output: string, inputs: string[], seen = new Map<string, number>()): boolean {
  if (!existsSync(output)) return true;
  const built = statSync(output).mtimeMs;
  return inputs.some((input) => {
    let newest = seen.get(input);
    if (newest === undefined) seen.set(input, (newest = newestMtime(join(root, input))));
    return newest > built;
  });
}

/**
 * Options for the Node bundles plain node starts (the launcher, the realm's process): minified,
 * since compiling the bundle's source is a large part of their start (4.1 MB before, 2.1 after);
 * names are kept for stack traces and errors, and the source map beside each says where.
 */
const NODE_BUNDLE = {
  bundle: true,
  platform: 'node',
  target: 'node20',
  minify: true,
  keepNames: true,
  sourcemap: true,
  logLevel: 'warning',
} as const;

async function withBuildLock<T>(work: () => Promise<T>): Promise<T> {
  mkdirSync(join(root, 'dist'), { recursive: true });
  for (;;) {
    try {
      mkdirSync(LOCK_DIR);
      break;
    } catch (error) {
      if ((error as { code?: string }).code !== 'EEXIST') throw error;
      try {
        if (Date.now() - statSync(LOCK_DIR).mtimeMs > LOCK_STALE_MS)
          rmSync(LOCK_DIR, { force: true, recursive: true });
      } catch {
        // Released meanwhile: try again.
      }
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }
  try {
    return await work();
  } finally {
    rmSync(LOCK_DIR, { force: true, recursive: true });
  }
}

/**
 * The newest times of the start bundle's inputs, if the launcher (scripts/launch.mjs) walked them
 * just now to decide that bundle is fresh; taken once, so a warm start walks each folder once.
 */
function launcherInputTimes(): Map<string, number> {
  const launcher = globalThis as { tributaryInputTimes?: Map<string, number> };
  const times = launcher.tributaryInputTimes;
  delete launcher.tributaryInputTimes;
  return new Map(times ?? []);
}

/**
 * Vite takes the bundle's `process.env.NODE_ENV` from the environment when one is set, whatever the
 * mode: a build started inside a test (Vitest sets NODE_ENV=test; a test calling buildAll() when
 * sources changed) made React's development build, a third larger and twice the script time at
 * start, and every later `npm start` and bench found it fresh and used it (docs/benchmarks.md,
 * fifteenth pass). The renderer is always built for production.
 */
async function asProduction<T>(build: () => Promise<T>): Promise<T> {
  const before = process.env.NODE_ENV;
  process.env.NODE_ENV = 'production';
  try {
    return await build();
  } finally {
    if (before === undefined) delete process.env.NODE_ENV;
    else process.env.NODE_ENV = before;
  }
}

export async function buildAll({ force = false } = {}): Promise<void> {
  const rendererOut = join(root, 'dist/renderer/index.html');
  const electronEntries: Array<[string, string]> = [
    ['electron/main.ts', 'dist/electron/main.cjs'],
    ['electron/preload.ts', 'dist/electron/preload.cjs'],
  ].filter(([entry]) => existsSync(join(root, entry))) as Array<[string, string]>;
  // Inputs' times for one round of checks (a new round once the build lock is held).
  let seen = launcherInputTimes();
  const rendererStale = () =>
    force ||
    isStale(
      rendererOut,
      // This file too: how the renderer is built is decided here as well (asProduction).
      ['renderer', 'shared', 'vite.config.ts', 'scripts/vite-emoji-sprites.ts', 'scripts/build.ts'],
      seen,
    );
  const electronStale = (out: string) =>
    force || isStale(join(root, out), ['electron', 'shared', 'server'], seen);
  const startStale = () => force || isStale(join(root, START_BUNDLE), START_BUNDLE_INPUTS, seen);
  const realmProcessStale = () =>
    force || isStale(join(root, REALM_PROCESS_BUNDLE), REALM_PROCESS_INPUTS, seen);
  const demoTemplate = {
    dir: join(root, DEMO_TEMPLATE_DIR),
    bundle: join(root, REALM_PROCESS_BUNDLE),
  };
  // The demo realm a first launch copies (server/seed/template.ts), made by the bundle as it is.
  const demoTemplateStale = () => force || !madeByItsBundle(demoTemplate);
  // A first launch's first screens, made of the template and the page (demo-first-screens.ts).
  const demoScreensStale = () => force || !demoFirstScreensFresh(root, demoTemplate.dir);
  const anyStale = () =>
    rendererStale() ||
    electronEntries.some(([, out]) => electronStale(out)) ||
    startStale() ||
    realmProcessStale() ||
    demoTemplateStale() ||
    demoScreensStale();
  if (!anyStale()) return;

  await withBuildLock(async () => {
    // Another process may have built meanwhile, and sources may have changed: look again.
    seen = new Map();
    // The bundlers are loaded only when something is stale: a warm start never pays for them.
    if (rendererStale()) {
      const { build: viteBuild } = await import('vite');
      await asProduction(() =>
        viteBuild({
          configFile: join(root, 'vite.config.ts'),
          logLevel: 'warn',
          mode: 'production',
        }),
      );
    }
    const { build: esbuild } = await import('esbuild');
    for (const [entry, out] of electronEntries) {
      if (!electronStale(out)) continue;
      await esbuild({
        entryPoints: [join(root, entry)],
        outfile: join(root, out),
        bundle: true,
        platform: 'node',
        format: 'cjs',
        target: 'node20',
        external: ['electron', 'better-sqlite3', 'sharp'],
        sourcemap: true,
        logLevel: 'warning',
      });
    }
    // The local realm server's own process (server/process/entry.ts), which the launcher and the
    // desktop app fork (through scripts/launch-realm-process.mjs): plain node runs it, no
    // transpiler at run time.
    if (realmProcessStale()) {
      await esbuild({
        ...NODE_BUNDLE,
        ...COMMONJS,
        entryPoints: [join(root, 'server/process/entry.ts')],
        outfile: join(root, REALM_PROCESS_BUNDLE),
        external: ['better-sqlite3', 'sharp'],
        // @fastify/multipart reads globalThis.FormData as it registers, only to add a
        // request.formData() this API never calls; that read loads Node's own fetch (undici),
        // about 25 ms of a first launch's realm before it listens (docs/benchmarks.md, start-up,
        // eleventh pass). Nothing else in the realm's bundle names the global.
        define: { ...COMMONJS.define, 'globalThis.FormData': 'undefined' },
        plugins: [FASTIFY_TLS_ON_FIRST_USE],
      });
    }
    if (demoTemplateStale()) await makeDemoTemplate(demoTemplate);
    if (startStale()) {
      // dist/start.cjs sits one folder below the root, like scripts/start.ts, so the
      // `new URL('..', import.meta.url)` roots in the bundled code still point at the repository.
      // Packages are bundled too (resolving and reading hundreds of module files is most of a
      // plain-node start); the native ones, the bundlers and Electron stay external, and so does
      // tus-js-client, which only the first large upload imports: bundled, its 73 KB were
      // compiled at every start for nothing.
      await esbuild({
        ...NODE_BUNDLE,
        ...COMMONJS,
        entryPoints: [join(root, 'scripts/start.ts')],
        outfile: join(root, START_BUNDLE),
        external: [
          'better-sqlite3',
          'sharp',
          'vite',
          'esbuild',
          'electron',
          'tsx',
          'tus-js-client',
          // Only a build that makes the demo's first screens drives Chromium with it.
          'playwright-core',
        ],
      });
    }
    // Last: it runs the app as built (the start bundle, the page, the template).
    if (demoScreensStale()) {
      const { makeDemoFirstScreens } = await import('./demo-first-screens');
      await makeDemoFirstScreens(root, demoTemplate.dir);
    }
  });
}

/**
 * The bundle itself seeds the template (server/process/entry.ts), forked as the app forks it, so
 * the code that uses the template is the code that made it, and the V8 code cache it keeps on
 * exit (scripts/launch-realm-process.mjs) serves the first launch's realm process too.
 */
async function makeDemoTemplate(location: { dir: string; bundle: string }): Promise<void> {
  const { forkRealmProcess } = await import('../server/process/fork-realm.mjs');
  const child = forkRealmProcess({ root, config: { makeDemoTemplate: location } });
  const code = await new Promise<number | null>((resolve, reject) => {
    child.once('error', reject);
    child.once('exit', resolve);
  });
  if (code !== 0) throw new Error(`making the demo realm's template failed (exit code ${code})`);
}

// Not awaited at the top level: the start bundle, which holds this module, is CommonJS.
if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  buildAll({ force: process.argv.includes('--force') }).catch((error: unknown) => {
    console.error(error);
    process.exitCode = 1;
  });
}
