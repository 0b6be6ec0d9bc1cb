// The rest of `npm start` after its URL (launch.mjs): runs dist/start.cjs (scripts/start.ts bundled
// by scripts/build.ts) with plain node, so a warm start does not load a TypeScript transpiler, and
// with a V8 code cache (launch-code-cache.mjs), so it does not compile that bundle again either.
// When a source of that bundle is newer than it (or it is missing), it runs scripts/start.ts
// through tsx instead, whose buildAll() refreshes the bundle for the next start.
import { existsSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { runBundleWithCodeCache } from './launch-code-cache.mjs';
import { newestMtime } from './newest-mtime.mjs';

/** Runs scripts/start.ts of the checkout at `root`, from its bundle when that is fresh. */
export async function runStart(root) {
  // The bundle and its sources, as scripts/build.ts builds it.
  const { bundle: bundlePath, inputs } = JSON.parse(
    readFileSync(join(root, 'scripts/start-bundle.json'), 'utf8'),
  );
  const bundle = join(root, bundlePath);
  // Each input's newest time, walked once: the bundle's own build check (scripts/build.ts) starts
  // from these instead of walking the same folders again.
  const newest = new Map(inputs.map((input) => [input, newestMtime(join(root, input))]));
  const built = existsSync(bundle) ? statSync(bundle) : null;
  const fresh = built !== null && inputs.every((input) => newest.get(input) <= built.mtimeMs);
  if (fresh) {
    globalThis.tributaryInputTimes = newest;
    runBundleWithCodeCache(bundle, built);
  } else {
    const { register } = await import('tsx/esm/api');
    register();
    await import(pathToFileURL(join(root, 'scripts/start.ts')).href);
  }
}
