// When a blocked poll is answered: events pushed during one turn of the event loop (a group
// commit announcing several messages) go out in one response; a quiet queue is answered without
// waiting for the coalescing interval; a busy one gets its events together after it.
import { describe, expect, it } from 'vitest';
import { EventQueue, type ClientOptions, type QueuedEvent } from '../../server/events/queue';

const options: ClientOptions = {
  eventTypes: null,
  capabilities: {},
  applyMarkdown: true,
  clientExtavatar: false,
  narrow: [],
  allPublicStreams: false,
  clientName: 'test',
};

function newQueue(minResponseIntervalMs: number): EventQueue {
  return new EventQueue(1, options, () => 60_000, Date.now(), minResponseIntervalMs);
}

const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve));

describe('EventQueue wake-ups', () => {
  it('answers a blocked poll once with every event pushed in the same turn', async () => {
    const queue = newQueue(0);
    const poll = queue.fetch(-1, false, Date.now()) as Promise<QueuedEvent[]>;
    queue.push({ type: 'message', n: 1 });
    // Later microtasks of the same turn, as when a batch's senders resume one after another.
    await Promise.resolve();
    queue.push({ type: 'message', n: 2 });
    await Promise.resolve();
    queue.push({ type: 'message', n: 3 });
    const events = await poll;
    expect(events.map((e) => e.id)).toEqual([0, 1, 2]);
    expect(events.map((e) => JSON.parse(e.text.json).n)).toEqual([1, 2, 3]);
    queue.close();
  });

  it('answers a quiet queue without waiting for the coalescing interval', async () => {
    // An hour-long interval: the test would time out if a quiet queue had to wait for it.
    const queue = newQueue(3_600_000);
    const poll = queue.fetch(-1, false, Date.now()) as Promise<QueuedEvent[]>;
    queue.push({ type: 'message', n: 1 });
    expect((await poll).map((e) => e.id)).toEqual([0]);
    queue.close();
  });

  it('holds events for a busy queue answered within the interval, then sends them together', async () => {
    const queue = newQueue(200);
    // Two events in one response: the queue counts as busy.
    queue.push({ type: 'message', n: 0 });
    queue.push({ type: 'message', n: 1 });
    expect((queue.fetch(-1, false, Date.now()) as QueuedEvent[]).map((e) => e.id)).toEqual([0, 1]);
    // Polled again right away: the next events wait out the rest of the interval.
    const second = queue.fetch(1, false, Date.now()) as Promise<QueuedEvent[]>;
    let answered = false;
    void second.then(() => (answered = true));
    queue.push({ type: 'message', n: 2 });
    await nextTurn();
    await nextTurn();
    queue.push({ type: 'message', n: 3 });
    expect(answered).toBe(false);
    expect((await second).map((e) => e.id)).toEqual([2, 3]);
    queue.close();
  });

  it('answers a quiet queue (last response of one event) at once, even within the interval', async () => {
    const queue = newQueue(60_000);
    const first = queue.fetch(-1, false, Date.now()) as Promise<QueuedEvent[]>;
    queue.push({ type: 'message', n: 1 });
    expect((await first).map((e) => e.id)).toEqual([0]);
    const second = queue.fetch(0, false, Date.now()) as Promise<QueuedEvent[]>;
    queue.push({ type: 'message', n: 2 });
    expect((await second).map((e) => e.id)).toEqual([1]);
    queue.close();
  });

  it('ends a poll replaced by a newer one with no events, and wakes the newer one', async () => {
    const queue = newQueue(0);
    const stale = queue.fetch(-1, false, Date.now()) as Promise<QueuedEvent[]>;
    queue.push({ type: 'message', n: 1 });
    // A second poll arrives before the wake-up runs: it takes the pending event at once.
    const fresh = queue.fetch(-1, false, Date.now());
    expect(await stale).toEqual([]);
    expect(Array.isArray(fresh) && fresh.map((e) => e.id)).toEqual([0]);
    const blocked = queue.fetch(0, false, Date.now()) as Promise<QueuedEvent[]>;
    queue.push({ type: 'message', n: 2 });
    expect((await blocked).map((e) => e.id)).toEqual([1]);
    queue.close();
  });
});

describe('answering many polls at once', () => {
  it('answers polls carrying a large event over several turns, every one of them in the end', async () => {
    // 20 queues woken by a 300 KB event each: 6 MB of responses. One turn answers about 1 MB, so
    // other requests are served between the turns instead of after all of them.
    const queues = Array.from({ length: 20 }, () => newQueue(0));
    const answered = new Set<number>();
    const polls = queues.map((queue, index) =>
      (queue.fetch(-1, false, Date.now()) as Promise<QueuedEvent[]>).then((events) => {
        answered.add(index);
        return events;
      }),
    );
    const big = { type: 'stream', op: 'create', streams: 'x'.repeat(300 * 1024) };
    for (const queue of queues) queue.push(big);
    await nextTurn();
    const afterFirstTurn = answered.size;
    expect(afterFirstTurn).toBeGreaterThan(0);
    expect(afterFirstTurn).toBeLessThan(queues.length);
    const all = await Promise.all(polls);
    expect(all.every((events) => events.length === 1)).toBe(true);
    expect(answered.size).toBe(queues.length);
    for (const queue of queues) queue.close();
  });

  it('answers polls carrying small events in one turn', async () => {
    const queues = Array.from({ length: 50 }, () => newQueue(0));
    let answered = 0;
    const polls = queues.map((queue) =>
      (queue.fetch(-1, false, Date.now()) as Promise<QueuedEvent[]>).then(() => (answered += 1)),
    );
    for (const queue of queues) queue.push({ type: 'message', n: 1 });
    await nextTurn();
    await Promise.resolve();
    expect(answered).toBe(queues.length);
    await Promise.all(polls);
    for (const queue of queues) queue.close();
  });
});

describe('answering polls that arrive with a backlog', () => {
  const big = () => ({ type: 'stream', op: 'create', streams: 'x'.repeat(300 * 1024) });

  it('answers at once no more than about 1 MB in one turn; the rest in later turns, every one', async () => {
    await nextTurn();
    // 20 clients polling again together, each with a 300 KB event waiting (6 MB in all): as many
    // as fit in the turn's megabyte are answered at once, the others wait for later turns.
    const queues = Array.from({ length: 20 }, () => newQueue(0));
    for (const queue of queues) queue.push(big());
    const answers = queues.map((queue) => queue.fetch(-1, false, Date.now()));
    const atOnce = answers.filter((answer) => Array.isArray(answer));
    expect(atOnce.length).toBeGreaterThan(0);
    expect(atOnce.length * 300 * 1024).toBeLessThanOrEqual(1024 * 1024);
    const all = await Promise.all(answers);
    expect(all.every((events) => events.length === 1 && events[0].id === 0)).toBe(true);
    for (const queue of queues) queue.close();
  });

  it('answers small backlogs at once', async () => {
    await nextTurn();
    const queues = Array.from({ length: 50 }, () => newQueue(0));
    for (const queue of queues) queue.push({ type: 'message', n: 1 });
    const answers = queues.map((queue) => queue.fetch(-1, false, Date.now()));
    expect(answers.every((answer) => Array.isArray(answer) && answer.length === 1)).toBe(true);
    for (const queue of queues) queue.close();
  });

  it('answers a poll that asked not to block at once, past the turn’s bytes', async () => {
    await nextTurn();
    const queues = Array.from({ length: 6 }, () => newQueue(0));
    for (const queue of queues) queue.push(big());
    const answers = queues.map((queue) => queue.fetch(-1, true, Date.now()));
    expect(answers.every((answer) => Array.isArray(answer) && answer.length === 1)).toBe(true);
    for (const queue of queues) queue.close();
  });

  it('a deferred poll also gets what arrives before its turn; a newer poll replaces it', async () => {
    await nextTurn();
    const queues = Array.from({ length: 5 }, () => newQueue(0));
    for (const queue of queues) queue.push(big());
    const first = queues.map((queue) => queue.fetch(-1, false, Date.now()));
    const last = queues[queues.length - 1];
    expect(first[first.length - 1]).toBeInstanceOf(Promise);
    last.push({ type: 'message', n: 2 });
    expect((await first[first.length - 1]).map((e) => e.id)).toEqual([0, 1]);

    await nextTurn();
    for (const queue of queues) queue.push(big());
    const second = queues.map((queue) => queue.fetch(0, false, Date.now()));
    expect(second[second.length - 1]).toBeInstanceOf(Promise);
    // The client gave up and polled again (same turn): the deferred poll ends with no events.
    const again = last.fetch(1, false, Date.now());
    expect(await second[second.length - 1]).toEqual([]);
    expect((await again).map((e) => e.id)).toEqual([2]);
    for (const queue of queues) queue.close();
  });
});
