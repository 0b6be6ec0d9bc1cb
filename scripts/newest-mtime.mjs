// The newest modification time under a path: how the launcher (launch-start.mjs) and the build
// (build.ts) tell a stale bundle. Plain JavaScript: the launcher runs before any transpiler.
import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';

/** The newest modification time of `path` or of anything under it; 0 when it is missing. */
export function newestMtime(path) {
  // One stat per entry (no existsSync before it): the walk is on every start's path.
  const stat = statSync(path, { throwIfNoEntry: false });
  if (!stat) return 0;
  if (!stat.isDirectory()) return stat.mtimeMs;
  let newest = 0;
  for (const entry of readdirSync(path)) newest = Math.max(newest, newestMtime(join(path, entry)));
  return newest;
}
