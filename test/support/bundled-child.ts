// Runs server modules in a fresh node process with V8 flags of the test's choosing
// (--expose-gc, --trace-gc-nvp): for assertions on what V8 allocates or promotes, which a
// vitest worker's own heap would blur. The modules are bundled with esbuild (packages left
// external, resolved from the repository's node_modules) next to a driver script that imports
// them as ./NAME.mjs.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildSync } from 'esbuild';

const root = join(import.meta.dirname, '../..');

/** The child's standard output. `modules`: paths from the repository root, e.g. server/db/index.ts. */
export function runBundledInChild(modules: string[], driver: string, nodeFlags: string[]): string {
  const dir = mkdtempSync(join(tmpdir(), 'tributary-child-'));
  try {
    buildSync({
      entryPoints: modules.map((path) => join(root, path)),
      outdir: dir,
      outExtension: { '.js': '.mjs' },
      format: 'esm',
      platform: 'node',
      bundle: true,
      splitting: true,
      packages: 'external',
      logLevel: 'silent',
    });
    symlinkSync(join(root, 'node_modules'), join(dir, 'node_modules'));
    writeFileSync(join(dir, 'driver.mjs'), driver);
    return execFileSync(process.execPath, [...nodeFlags, join(dir, 'driver.mjs')], {
      encoding: 'utf8',
      maxBuffer: 64 * 1024 * 1024,
    });
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
