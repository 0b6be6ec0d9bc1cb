// TypeScript entry points that tests run as child processes (the realm server's command line, the
// manifest command line, main's services), run from an esbuild bundle instead of through tsx:
// tsx compiles and resolves every module the child imports at each start, 2.1–2.9 s of CPU a child
// against 0.7–0.8 s from a bundle (main's services, test suite thirteenth pass), and a run starts
// a few dozen such children. Each entry is bundled on first use in each worker, so a bundle is
// never older than the run. CommonJS with the packages inside but the native ones and the
// bundlers, as the build's own Node bundles are (scripts/build.ts): an ES module bundle cannot
// import a package whose entry is JSON (tlds) without an import attribute, and a CommonJS one that
// requires an ES module package (env-paths) gets its namespace, not its default. What stays
// outside resolves from the repository's node_modules, linked beside the bundle.
import { mkdtempSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join, resolve } from 'node:path';
import { buildSync } from 'esbuild';

const root = resolve(import.meta.dirname, '../..');
const bundles = new Map<string, string>();

/** The bundle of `entry` (a path from the repository's root, e.g. server/cli.ts) to run with node. */
export function bundledEntry(entry: string): string {
  const known = bundles.get(entry);
  if (known) return known;
  const dir = mkdtempSync(join(tmpdir(), 'tributary-entry-'));
  process.once('exit', () => rmSync(dir, { recursive: true, force: true }));
  const outfile = join(dir, basename(entry).replace(/\.tsx?$/, '.cjs'));
  buildSync({
    entryPoints: [join(root, entry)],
    outfile,
    format: 'cjs',
    platform: 'node',
    bundle: true,
    external: ['better-sqlite3', 'sharp', 'electron', 'esbuild', 'vite', 'tsx', 'playwright-core'],
    define: { 'import.meta.url': '__bundleUrl', 'import.meta.dirname': '__dirname' },
    banner: { js: "var __bundleUrl = require('node:url').pathToFileURL(__filename).href;" },
    logLevel: 'silent',
  });
  symlinkSync(join(root, 'node_modules'), join(dir, 'node_modules'));
  bundles.set(entry, outfile);
  return outfile;
}
