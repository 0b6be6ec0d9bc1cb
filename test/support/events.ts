/**
 * Event-queue helpers for tests: register a queue and collect events.
 *
 *   const q = await registerQueue(client, { event_types: ['subscription'] });
 *   ... act ...
 *   const events = await q.next();            // blocks until at least one event (acknowledges)
 *   const none = await q.poll();              // dont_block: what is pending now, possibly []
 *   await q.waitFor((e) => e.type === 'subscription' && e.op === 'add');
 *
 * Events fetched but not yet handed out (waitFor takes only its match) stay buffered: the next
 * next()/poll()/waitFor() sees them first, so nothing is lost between calls.
 *
 * q.state holds the /register response.
 */
import type { ApiClient, Params } from './client';

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type TestEvent = { id: number; type: string } & Record<string, any>;

export interface TestQueue {
  queueId: string;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  state: Record<string, any>;
  lastEventId: number;
  /** Blocking poll; returns the events and acknowledges them on the next call. */
  next(): Promise<TestEvent[]>;
  /** Non-blocking poll. */
  poll(): Promise<TestEvent[]>;
  /** Polls until an event matches (skipping others); throws after `maxPolls` polls. */
  waitFor(match: (event: TestEvent) => boolean, maxPolls?: number): Promise<TestEvent>;
}

export async function registerQueue(client: ApiClient, params: Params = {}): Promise<TestQueue> {
  const res = await client.post('/register', params);
  if (res.status !== 200) throw new Error(`register failed: ${res.status} ${res.text}`);
  let buffer: TestEvent[] = [];
  const takeBuffer = () => {
    const events = buffer;
    buffer = [];
    return events;
  };
  const queue: TestQueue = {
    queueId: res.body.queue_id as string,
    state: res.body,
    lastEventId: res.body.last_event_id as number,
    async next() {
      return buffer.length > 0 ? takeBuffer() : fetchEvents(false);
    },
    async poll() {
      return [...takeBuffer(), ...(await fetchEvents(true))];
    },
    async waitFor(match, maxPolls = 20) {
      for (let i = 0; i <= maxPolls; i++) {
        if (i > 0 || buffer.length === 0) buffer.push(...(await fetchEvents(false)));
        const index = buffer.findIndex(match);
        if (index >= 0) return buffer.splice(index, 1)[0];
      }
      throw new Error('expected event did not arrive');
    },
  };
  async function fetchEvents(dontBlock: boolean): Promise<TestEvent[]> {
    const r = await client.get('/events', {
      queue_id: queue.queueId,
      last_event_id: queue.lastEventId,
      dont_block: dontBlock,
    });
    if (r.status !== 200) throw new Error(`events failed: ${r.status} ${r.text}`);
    const events = r.body.events as TestEvent[];
    if (events.length > 0) queue.lastEventId = events[events.length - 1].id;
    return events;
  }
  return queue;
}

/**
 * Reads the queue until an event matches, handing every batch to `apply` first (as the app feeds
 * its store); throws after 30 polls.
 */
export async function feedUntil<Applied = TestEvent>(
  q: TestQueue,
  apply: (events: Applied[]) => void,
  match: (e: TestEvent) => boolean,
): Promise<void> {
  for (let polls = 0; polls < 30; polls++) {
    const events = await q.next();
    apply(events as unknown as Applied[]);
    if (events.some(match)) return;
  }
  throw new Error('expected event did not arrive');
}
