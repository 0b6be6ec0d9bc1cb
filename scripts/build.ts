// Builds what is stale: the renderer bundle (Vite) and the Electron main process and preload (esbuild).
// `npm start` and `npm test` call this; it does nothing when the outputs are newer than their sources.
import { build as viteBuild } from 'vite';
import { build as esbuild } from 'esbuild';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));

function newestMtime(dir: string): number {
  if (!existsSync(dir)) return 0;
  let newest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    newest = Math.max(newest, entry.isDirectory() ? newestMtime(path) : statSync(path).mtimeMs);
  }
  return newest;
}

function isStale(output: string, inputs: string[]): boolean {
  if (!existsSync(output)) return true;
  const built = statSync(output).mtimeMs;
  return inputs.some((input) => newestMtime(join(root, input)) > built);
}

export async function buildAll({ force = false } = {}): Promise<void> {
  const rendererOut = join(root, 'dist/renderer/index.html');
  if (force || isStale(rendererOut, ['renderer', 'shared'])) {
    await viteBuild({ configFile: join(root, 'vite.config.ts'), logLevel: 'warn' });
  }
  const electronEntries: Array<[string, string]> = [
    ['electron/main.ts', 'dist/electron/main.cjs'],
    ['electron/preload.ts', 'dist/electron/preload.cjs'],
  ];
  for (const [entry, out] of electronEntries) {
    if (!existsSync(join(root, entry))) continue;
    if (!force && !isStale(join(root, out), ['electron', 'shared'])) continue;
    await esbuild({
      entryPoints: [join(root, entry)],
      outfile: join(root, out),
      bundle: true,
      platform: 'node',
      format: 'cjs',
      target: 'node20',
      external: ['electron', 'better-sqlite3'],
      sourcemap: true,
      logLevel: 'warning',
    });
  }
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  await buildAll({ force: process.argv.includes('--force') });
}
