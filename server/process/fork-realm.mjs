// How the local realm server's process is forked: by its supervisor (supervisor.ts) and, on a first
// launch, by `npm start` before its start bundle loads (scripts/launch-realm-early.mjs), a child the
// supervisor then adopts (`adoptEarlyRealm`). Plain JavaScript: the launcher runs it before any
// transpiler or bundle.
import { fork } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createServer } from 'node:net';
import { setPriority } from 'node:os';
import { join } from 'node:path';
import { generateApiKey } from '../http/api-key.mjs';
import { REALM_NODE_FLAGS } from './v8-flags.mjs';

/** The built child (scripts/build.ts), relative to the repository or app root. */
export const REALM_PROCESS_BUNDLE = 'dist/server/realm-process.cjs';

/** What the child's bundle is built from: newer than the bundle, it is stale (scripts/build.ts). */
export const REALM_PROCESS_INPUTS = ['server', 'shared', 'package-lock.json'];

/**
 * How to run the child: the built bundle when there is one (through its loader, which keeps V8's
 * compiled code for the next start), else the source through tsx.
 */
export function realmProcessEntry(root) {
  const bundle = join(root, REALM_PROCESS_BUNDLE);
  const loader = join(root, 'scripts/launch-realm-process.mjs');
  if (existsSync(bundle) && existsSync(loader)) return { script: loader, execArgv: [], bundle };
  return { script: join(root, 'server/process/entry.ts'), execArgv: ['--import', 'tsx'] };
}

/** Where the build puts the demo realm's template (server/seed/template.ts), relative to the root. */
export const DEMO_TEMPLATE_DIR = 'dist/server/demo-realm';

/**
 * The realm process's scheduling priority (niceness; the app's own processes keep 0). On a
 * two-core machine a returning launch boots the server (about 0.7 s of CPU) while the browser runs
 * the page's script and main opens the cache: at equal priority the page's first message waited
 * behind the server's boot, which nothing on the first screen needs (docs/benchmarks.md, start-up,
 * fifth pass). Lower, the server still gets every core the window leaves idle.
 */
export const REALM_NICENESS = 10;

/**
 * Two malloc arenas instead of glibc's eight per core: with one per thread the freed memory of a
 * load stayed spread over arenas and was never returned (bench:server RSS 250 -> 418 MB a minute
 * after the load, heap flat; with two: 252 -> 200 MB, docs/benchmarks.md). Other C libraries
 * ignore it.
 */
export const SERVER_ENV = Object.freeze({ MALLOC_ARENA_MAX: '2' });

/**
 * The environment variable a first realm's process reads the demo owner's API key from (and
 * removes at once): never its arguments, which any user of the machine can list.
 */
export const DEMO_OWNER_KEY_ENV = 'TRIBUTARY_DEMO_OWNER_KEY';

/** A port nothing listens on now: bound and closed at once (one taken later moves the realm). */
function freePort() {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen({ host: '127.0.0.1', port: 0, exclusive: true }, () => {
      const { port } = probe.address();
      probe.close(() => resolve(port));
    });
  });
}

/**
 * What a first launch decides before its realm process starts, so main can sign in and show the
 * build's seed while that process still loads (docs/first-screen.md): the realm's port, the demo
 * owner's new API key (made here, per install, and handed to the copy through the environment),
 * and the time the copy moves the template's dates to (main moves the seed's by the same shift).
 */
export async function planFirstRealm() {
  return {
    port: await freePort(),
    ownerKey: generateApiKey(),
    copyAt: Math.floor(Date.now() / 1000),
  };
}

/** Forks the realm's process with `config` (messages.ts's RealmProcessConfig), below the app's priority. */
export function forkRealmProcess({ root, nodePath, config, ownerKey }) {
  const entry = realmProcessEntry(root);
  // The build's demo realm goes with its bundle: the child uses it only if that bundle made it.
  const demoTemplate = entry.bundle
    ? { dir: join(root, DEMO_TEMPLATE_DIR), bundle: entry.bundle }
    : undefined;
  const child = fork(entry.script, [JSON.stringify({ ...config, demoTemplate })], {
    cwd: root,
    execPath: nodePath ?? process.execPath,
    // Set explicitly: a parent run through tsx or a test runner would hand down its loaders.
    execArgv: [...REALM_NODE_FLAGS, ...entry.execArgv],
    // Electron's binary runs as plain Node for the child; Node ignores it. SERVER_ENV: see there.
    env: {
      ...process.env,
      ELECTRON_RUN_AS_NODE: '1',
      ...SERVER_ENV,
      ...(ownerKey ? { [DEMO_OWNER_KEY_ENV]: ownerKey } : {}),
    },
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  if (child.pid !== undefined) {
    try {
      setPriority(child.pid, REALM_NICENESS);
    } catch {
      // Not permitted or not supported here: the server runs at the app's priority.
    }
  }
  return child;
}

/** Whether two RealmProcessConfigs start the same server. */
function sameConfig(a, b) {
  return ['dataDir', 'port', 'seed', 'largeScale', 'host'].every((key) => a[key] === b[key]);
}

/**
 * Forks it now and keeps what it says (its messages, its exit) until the supervisor adopts it, so
 * nothing it says before then is lost. One at a time: the launch's own.
 */
export function forkRealmEarly(options) {
  const child = forkRealmProcess({ ...options, ownerKey: options.plan?.ownerKey });
  const held = [];
  const hold = (event) => {
    const listener = (...args) => held.push([event, args]);
    child.on(event, listener);
    return () => child.off(event, listener);
  };
  const unhold = ['message', 'exit', 'error'].map(hold);
  globalThis.tributaryEarlyRealm = {
    config: options.config,
    plan: options.plan,
    child,
    release() {
      for (const stop of unhold) stop();
      for (const [event, args] of held.splice(0)) child.emit(event, ...args);
    },
  };
  return child;
}

/** The plan of the first realm forked early, if one was (read by start.ts before it is adopted). */
export function earlyRealmPlan() {
  return globalThis.tributaryEarlyRealm?.plan ?? null;
}

/**
 * The child forked early for this `config`, if there is one: its holder is handed over once, and
 * the caller calls release() after adding its own listeners (what the child said meanwhile is
 * said again then). One forked for another config is stopped: the launch decided otherwise.
 */
export function adoptEarlyRealm(config) {
  const early = globalThis.tributaryEarlyRealm;
  if (!early) return null;
  globalThis.tributaryEarlyRealm = undefined;
  if (sameConfig(early.config, config)) return early;
  early.child.kill('SIGTERM');
  return null;
}
