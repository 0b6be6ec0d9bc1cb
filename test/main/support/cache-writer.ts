// Child process for the cache crash test: writes an account cache the way a session does (a snapshot,
// then event batches through appendEvents, with a fresh snapshot now and then) until it is killed.
// After each append it prints "<last event id> <ms since start>" so the parent knows what was handed
// to the cache, and when.
import { AccountCache } from '../../../electron/cache/account-cache';
import type { ServerEvent } from '../../../shared/api/events';
import type { RegisterResponse } from '../../../shared/api/types';

const [path, key] = process.argv.slice(2);
const cache = AccountCache.open(path, key);
const started = Date.now();
let id = 0;
const snapshotAt = (lastEventId: number) => ({
  accountId: 'crash',
  queueId: `q${lastEventId}`,
  register: { last_event_id: lastEventId, queue_id: `q${lastEventId}` } as RegisterResponse,
});
cache.saveSnapshot(snapshotAt(0));

const padding = 'x'.repeat(500); // events of a realistic size, so writes take real time
function step(): void {
  const batch: ServerEvent[] = [];
  for (let n = 0; n < 5; n += 1) {
    id += 1;
    batch.push({ id, type: 'heartbeat', padding } as unknown as ServerEvent);
  }
  cache.appendEvents(batch);
  if (id % 3_000 === 0) cache.saveSnapshot(snapshotAt(id)); // a re-registration compacts the log
  process.stdout.write(`${id} ${Date.now() - started}\n`);
  setTimeout(step, 1);
}
step();
