// The realm process's V8 flags, and V8's defaults for them, which the process sets back once the flags
// have done their work. Plain JavaScript: the launcher forks with them (fork-realm.mjs) and the
// realm's loader (scripts/launch-realm-process.mjs) sets the defaults before it loads the bundle.

/**
 * On the realm's command line. The npm `server` script's flags: a larger young generation cut
 * garbage collection from about 12% to 4% of the server's time under load (server/cli.ts);
 * --expose-gc lets the server run one full collection once a burst of requests is over
 * (server/memory/idle-release.ts), which brought its RSS back from 364 to 233 MB (baseline 201)
 * where it otherwise stayed at 315 (docs/benchmarks.md).
 */
export const REALM_NODE_FLAGS = Object.freeze(['--max-semi-space-size=32', '--expose-gc']);

/**
 * Each of REALM_NODE_FLAGS at V8's own default, which the realm's loader sets first thing. Any flag
 * off its default changes V8's flag hash, and a code cache made under another hash is refused:
 * Node's own, built into the node binary with the defaults, for every built-in module the process
 * loads (child_process, http, crypto and the rest: 40 against 15 ms of CPU for seven of them), and
 * the realm bundle's (scripts/launch-code-cache.mjs). Both flags have done their work once the
 * process runs, and neither is read again: the heap was sized when it was made, and `gc` is on the
 * global object.
 */
export const REALM_FLAG_DEFAULTS = Object.freeze(['--max-semi-space-size=0', '--no-expose-gc']);
