// The local realm server's process as the app forks it (server/process/supervisor.ts): its bundle
// (dist/server/realm-process.cjs, built from server/process/entry.ts), run with V8's code cache
// like the launcher's own (launch-code-cache.mjs), so a returning launch's server does not compile
// its 2.4 MB again while the window loads. Its arguments are the bundle's own.
import { statSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { setFlagsFromString } from 'node:v8';
import { REALM_FLAG_DEFAULTS } from '../server/process/v8-flags.mjs';
import { runBundleWithCodeCache } from './launch-code-cache.mjs';

// Before the bundle: V8 accepts its code cache, and Node's own for each built-in module it loads,
// only under V8's default flags (v8-flags.mjs).
for (const flag of REALM_FLAG_DEFAULTS) setFlagsFromString(flag);

/** By then the server listens (it takes about a second) and its start's functions are compiled. */
const KEEP_AFTER_MS = 5_000;

const bundle = fileURLToPath(new URL('../dist/server/realm-process.cjs', import.meta.url));
runBundleWithCodeCache(bundle, statSync(bundle), { keepAfterMs: KEEP_AFTER_MS });
globalThis.tributaryAfterStart?.();
