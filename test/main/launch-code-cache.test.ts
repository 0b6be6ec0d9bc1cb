// The launcher runs its bundle with a V8 code cache (scripts/launch-code-cache.mjs): it keeps the
// compiled code once a launch is up, the next launch uses it, and a rebuilt bundle (even of the
// same length, which V8's own check cannot tell apart) runs its new code and gets a new cache.
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  utimesSync,
  writeFileSync,
} from 'node:fs';
import { spawnSync } from 'node:child_process';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { codeCacheFile, runBundleWithCodeCache } from '../../scripts/launch-code-cache.mjs';

type Launched = typeof globalThis & { tributaryAfterStart?: () => void; bundleRuns?: string[] };
const launched = globalThis as Launched;

/** A bundle that notes it ran (with `mark`) and uses require and the CommonJS module variables. */
const bundleSource = (mark: string) =>
  `const { basename } = require('node:path');
globalThis.bundleRuns = [...(globalThis.bundleRuns ?? []), '${mark}:' + basename(__filename)];
module.exports = { mark: '${mark}' };`;

async function untilExists(path: string): Promise<void> {
  while (!existsSync(path)) await new Promise((resolve) => setTimeout(resolve, 10));
}

describe('launch code cache', () => {
  let dir: string;
  let bundle: string;

  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'tributary-code-cache-'));
    bundle = join(dir, 'start.cjs');
    launched.bundleRuns = [];
  });

  afterEach(() => {
    delete launched.tributaryAfterStart;
    rmSync(dir, { recursive: true, force: true });
  });

  const run = () => runBundleWithCodeCache(bundle, statSync(bundle), { keepAfterMs: 0 });

  it('keeps the compiled bundle once the launch is up, and the next launch uses it', async () => {
    writeFileSync(bundle, bundleSource('A'));
    run();
    expect(launched.bundleRuns).toEqual(['A:start.cjs']);
    const cache = codeCacheFile(bundle, statSync(bundle));
    expect(existsSync(cache)).toBe(false);
    launched.tributaryAfterStart?.();
    await untilExists(cache);
    const kept = statSync(cache).ino;

    run();
    launched.tributaryAfterStart?.();
    // Accepted, so not made again (a new cache would be a new file renamed into place).
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(launched.bundleRuns).toEqual(['A:start.cjs', 'A:start.cjs']);
    expect(statSync(cache).ino).toBe(kept);
  });

  it('runs a rebuilt bundle of the same length anew and replaces its cache', async () => {
    writeFileSync(bundle, bundleSource('A'));
    run();
    launched.tributaryAfterStart?.();
    const first = codeCacheFile(bundle, statSync(bundle));
    await untilExists(first);

    writeFileSync(bundle, bundleSource('B'));
    const later = new Date(statSync(bundle).mtimeMs + 10_000);
    utimesSync(bundle, later, later);
    run();
    expect(launched.bundleRuns).toEqual(['A:start.cjs', 'B:start.cjs']);
    launched.tributaryAfterStart?.();
    const second = codeCacheFile(bundle, statSync(bundle));
    expect(second).not.toBe(first);
    await untilExists(second);
    expect(readdirSync(join(dir, '.code-cache'))).toEqual([second.split('/').at(-1)]);
  });

  it('runs the bundle when its cache is not one, and makes a real one', async () => {
    writeFileSync(bundle, bundleSource('A'));
    const cache = codeCacheFile(bundle, statSync(bundle));
    mkdirSync(join(dir, '.code-cache'));
    writeFileSync(cache, 'not a code cache');
    run();
    expect(launched.bundleRuns).toEqual(['A:start.cjs']);
    launched.tributaryAfterStart?.();
    while (readFileSync(cache).length <= 'not a code cache'.length) {
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
  });

  it('runs the bundle when no cache can be written', () => {
    writeFileSync(bundle, bundleSource('A'));
    // A file where the cache's folder should be.
    writeFileSync(join(dir, '.code-cache'), '');
    run();
    launched.tributaryAfterStart?.();
    run();
    expect(launched.bundleRuns).toEqual(['A:start.cjs', 'A:start.cjs']);
  });

  it('keeps it as the process exits, when that comes before the delay', () => {
    writeFileSync(bundle, bundleSource('A'));
    const loader = fileURLToPath(new URL('../../scripts/launch-code-cache.mjs', import.meta.url));
    // A launch stopped a moment after it is up (as the benches and tests stop it).
    const run = spawnSync(
      process.execPath,
      [
        '--input-type=module',
        '-e',
        `import { statSync } from 'node:fs';
import { runBundleWithCodeCache } from ${JSON.stringify(pathToFileURL(loader).href)};
runBundleWithCodeCache(${JSON.stringify(bundle)}, statSync(${JSON.stringify(bundle)}));
globalThis.tributaryAfterStart();
process.exit(0);`,
      ],
      { encoding: 'utf8' },
    );
    expect(run.status).toBe(0);
    expect(existsSync(codeCacheFile(bundle, statSync(bundle)))).toBe(true);
  });
});
