// A first launch's local realm, forked by `npm start` right after it prints its URL, before it
// loads its start bundle (about 0.3 s of CPU): the window of a first launch waits for this realm
// to be created and to listen, so its start is on the path to the first message. The supervisor
// (server/process/supervisor.ts, built by electron/local-realm.ts) adopts the child when it starts
// the realm with the same config. Only for a launch with no account and a realm that has never
// listened: then LocalRealm asks for any free port (no remembered port to probe or keep) and
// nothing is waiting for the page; every other launch forks as before.
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { forkRealmEarly } from '../server/process/fork-realm.mjs';
import { defaultDataDir, parseStartArgs } from './launch-early.mjs';

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
  mkdirSync(realmDir, { recursive: true, mode: 0o700 });
  if (process.env.TRIBUTARY_TIMING === '1') {
    console.log(
      `tributary-timing realm-fork ${(performance.timeOrigin + performance.now()).toFixed(1)}`,
    );
  }
  const child = forkRealmEarly({
    root,
    config: { dataDir: realmDir, port: 0, seed: options.seed, largeScale: options.largeScale },
  });
  return child.pid ?? null;
}
