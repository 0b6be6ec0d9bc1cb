// A first launch's local realm, forked by `npm start` right after it prints its URL, before it
// loads its start bundle (about 0.3 s of CPU): the window of a first launch waits for this realm
// to be created and to listen, so its start is on the path to the first message. The supervisor
// (server/process/supervisor.ts, built by electron/local-realm.ts) adopts the child when it starts
// the realm with the same config. Only for a launch with no account and a realm that has never
// listened: then LocalRealm asks for any free port (no remembered port to probe or keep) and
// nothing is waiting for the page; every other launch forks as before. And only from a built
// bundle that is fresh: a stale one is rebuilt by start.ts's build, and the realm must run that.
import { existsSync, mkdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import {
  forkRealmEarly,
  planFirstRealm,
  REALM_PROCESS_BUNDLE,
  REALM_PROCESS_INPUTS,
} from '../server/process/fork-realm.mjs';
import { defaultDataDir, parseStartArgs } from './launch-early.mjs';
import { newestMtime } from './newest-mtime.mjs';

/** Whether the realm's bundle is built and newer than its sources (scripts/build.ts's check). */
function realmBundleFresh(root) {
  const built = statSync(join(root, REALM_PROCESS_BUNDLE), { throwIfNoEntry: false });
  return (
    built !== undefined &&
    REALM_PROCESS_INPUTS.every((input) => newestMtime(join(root, input)) <= built.mtimeMs)
  );
}

function hasAccounts(dataDir) {
  try {
    const file = JSON.parse(readFileSync(join(dataDir, 'accounts.json'), 'utf8'));
    return (file.accounts ?? []).length > 0;
  } catch {
    return false;
  }
}

/** Forks the realm's process when this browser-mode launch is a first one; its pid, or null. */
export async function forkFirstRealmEarly(root, argv) {
  const options = parseStartArgs(argv);
  const dataDir = options.dataDir ?? (await defaultDataDir());
  const realmDir = join(dataDir, 'local-realm');
  if (hasAccounts(dataDir) || existsSync(join(realmDir, 'port.json'))) return null;
  if (!realmBundleFresh(root)) return null;
  mkdirSync(realmDir, { recursive: true, mode: 0o700 });
  // Its port, the demo owner's key and the copy's time are decided here, so main signs in and
  // shows the build's seed while this process still loads (electron/local-realm.ts).
  // Not over a realm a stopped launch left (it would not be copied with this key).
  const plan = existsSync(join(realmDir, 'realm.sqlite3')) ? undefined : await planFirstRealm();
  if (process.env.TRIBUTARY_TIMING === '1') {
    console.log(
      `tributary-timing realm-fork ${(performance.timeOrigin + performance.now()).toFixed(1)}`,
    );
  }
  const child = forkRealmEarly({
    root,
    plan,
    config: {
      dataDir: realmDir,
      port: plan?.port ?? 0,
      seed: options.seed,
      largeScale: options.largeScale,
      copyAt: plan?.copyAt,
    },
  });
  return child.pid ?? null;
}
