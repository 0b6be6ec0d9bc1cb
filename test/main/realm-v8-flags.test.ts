// The realm process runs under V8's default flags once its loader has started it
// (server/process/v8-flags.mjs): a code cache it keeps is one a process without flags accepts, which
// is what Node's own code cache for its built-in modules (made with the defaults) needs too; and the
// flags it was forked with still hold (a young generation of 32 MB semi-spaces, `gc` exposed).
import { execFileSync } from 'node:child_process';
import { existsSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import { buildAll } from '../../scripts/build';
import { codeCacheFile } from '../../scripts/launch-code-cache.mjs';
import { REALM_PROCESS_BUNDLE } from '../../server/process/fork-realm.mjs';
import { REALM_FLAG_DEFAULTS, REALM_NODE_FLAGS } from '../../server/process/v8-flags.mjs';

const root = fileURLToPath(new URL('../..', import.meta.url));

/** Runs `script` in a node with `flags` and no inherited options; what it printed, as JSON. */
function runNode(flags: readonly string[], script: string): unknown {
  const env = { ...process.env };
  delete env.NODE_OPTIONS;
  const out = execFileSync(process.execPath, [...flags, '--input-type=module', '-e', script], {
    env,
    encoding: 'utf8',
  });
  return JSON.parse(out);
}

describe("the realm process's V8 flags", () => {
  beforeAll(async () => {
    // The build's demo template is made by the realm process, which keeps the bundle's code cache.
    await buildAll();
  }, 180_000);

  it("keeps a code cache a process with V8's default flags accepts", () => {
    const bundle = join(root, REALM_PROCESS_BUNDLE);
    const cache = codeCacheFile(bundle, statSync(bundle));
    expect(existsSync(cache)).toBe(true);
    const verdict = runNode(
      [],
      `import { readFileSync } from 'node:fs';
       import Module from 'node:module';
       import vm from 'node:vm';
       const script = new vm.Script(Module.wrap(readFileSync(${JSON.stringify(bundle)}, 'utf8')), {
         filename: ${JSON.stringify(bundle)},
         cachedData: readFileSync(${JSON.stringify(cache)}),
       });
       console.log(JSON.stringify({ rejected: script.cachedDataRejected }));`,
    );
    expect(verdict).toEqual({ rejected: false });
  });

  it('still has the young generation and the gc it was forked with once the defaults are back', () => {
    const measure = (flags: readonly string[], restore: boolean) =>
      runNode(
        flags,
        `import v8 from 'node:v8';
         if (${restore}) for (const flag of ${JSON.stringify(REALM_FLAG_DEFAULTS)}) v8.setFlagsFromString(flag);
         // Its semi-spaces' largest size is part of the heap's limit.
         const limit = v8.getHeapStatistics().heap_size_limit;
         console.log(JSON.stringify({ limit, gc: typeof globalThis.gc }));`,
      ) as { limit: number; gc: string };
    const plain = measure([], false);
    const forked = measure(REALM_NODE_FLAGS, false);
    expect(forked.gc).toBe('function');
    expect(forked.limit).toBeGreaterThan(plain.limit);
    expect(measure(REALM_NODE_FLAGS, true)).toEqual(forked);
  });
});
