// Child process for the cache crash test: writes an account cache the way a session does (a snapshot,
// then event batches through appendEvents, with a fresh snapshot now and then) until it is killed.
// After each append it prints "<last event id> <ms since start> <epoch ms>" so the parent knows what
// was handed to the cache, and when. A third argument, N > 0, blocks the event loop for N ms once a second, as
// main's loop is blocked while it parses a large register: the flush timer is then late, and the
// cache must still commit on the next append.
import { AccountCache } from '../../../electron/cache/account-cache';
import type { ServerEvent } from '../../../shared/api/events';
import type { RegisterResponse } from '../../../shared/api/types';

const [path, key, busy] = process.argv.slice(2);
const busyMs = Number(busy ?? 0);
const cache = AccountCache.open(path, key);
const started = Date.now();
let id = 0;
let lastBusy = Date.now();
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
  const now = Date.now();
  process.stdout.write(`${id} ${now - started} ${now}\n`);
  if (busyMs > 0 && Date.now() - lastBusy >= 1_000) {
    const until = Date.now() + busyMs;
    while (Date.now() < until); // deliberately synchronous: nothing else runs meanwhile
    lastBusy = Date.now();
  }
  setTimeout(step, 1);
}
step();
