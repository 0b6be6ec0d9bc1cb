// Runs a CommonJS bundle with a V8 code cache beside it, so a launch does not compile the same
// 1.6 MB of source again (Node 20 has no compile cache of its own; 22's module.enableCompileCache
// would do this). The first launch after a build compiles the bundle as usual and, a few seconds
// after the launcher says it is running (`afterStart()`), or as it exits if that is sooner, keeps
// V8's compiled code, including the functions compiled by then (the start's whole path), for the
// next launches.
//
// The cache is named after the bundle's size and modification time: V8's own check compares only
// the source's length, so a rebuilt bundle of the same length would otherwise run the old code.
// V8 rejects a cache from another Node or V8 version or other flags by itself; it is then made
// again. Nothing here may stop a launch: a missing, unreadable or unwritable cache only costs the
// compile.
import { mkdirSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import Module, { createRequire } from 'node:module';
import { basename, dirname, join } from 'node:path';
import vm from 'node:vm';

/** How long after the launcher prints its URL the cache is made: the sessions have started by then. */
const KEEP_AFTER_START_MS = 3_000;

/** Where the cache of `bundle` (with `stat` its fs.Stats) is kept. */
export function codeCacheFile(bundle, stat) {
  return join(
    dirname(bundle),
    '.code-cache',
    `${basename(bundle)}-${stat.size}-${Math.trunc(stat.mtimeMs)}`,
  );
}

/**
 * Runs `bundle` (a CommonJS file, with no dynamic import(): the build turns those into require)
 * as Node would, with `stat` its fs.Stats. The bundle calls `globalThis.tributaryAfterStart()`
 * once the launch is up (scripts/start.ts, after its URL).
 */
export function runBundleWithCodeCache(bundle, stat, { keepAfterMs = KEEP_AFTER_START_MS } = {}) {
  const cacheFile = codeCacheFile(bundle, stat);
  const folder = dirname(cacheFile);
  const name = basename(bundle);
  let cachedData;
  try {
    cachedData = readFileSync(cacheFile);
  } catch {
    // None yet (the first launch after a build): compiled as usual and made below.
  }
  const script = new vm.Script(Module.wrap(readFileSync(bundle, 'utf8')), {
    filename: bundle,
    cachedData,
  });
  const keep = () => {
    try {
      const data = script.createCachedData();
      mkdirSync(folder, { recursive: true });
      // Launches running side by side each write their own file and rename it into place.
      const partial = `${cacheFile}.${process.pid}.partial`;
      writeFileSync(partial, data);
      renameSync(partial, cacheFile);
      for (const entry of readdirSync(folder)) {
        if (
          entry.startsWith(`${name}-`) &&
          join(folder, entry) !== cacheFile &&
          !entry.endsWith('.partial')
        ) {
          rmSync(join(folder, entry), { force: true });
        }
      }
    } catch {
      // A read-only or full disk: the next launch compiles again.
    }
  };
  const wanted = cachedData === undefined || script.cachedDataRejected === true;
  let kept = false;
  const keepOnce = () => {
    if (kept) return;
    kept = true;
    keep();
  };
  globalThis.tributaryAfterStart = () => {
    delete globalThis.tributaryAfterStart;
    if (!wanted) return;
    setTimeout(keepOnce, keepAfterMs).unref();
    // A launch stopped sooner (a bench, a test, Ctrl+C) keeps it as it exits.
    process.once('exit', keepOnce);
  };
  const module = { exports: {} };
  script
    .runInThisContext()
    .call(module.exports, module.exports, createRequire(bundle), module, bundle, dirname(bundle));
}
