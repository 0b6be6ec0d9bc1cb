// A flag change naming thousands of messages reads them in pieces with other requests running
// between, then sets or clears the bit in SQL in one transaction (bench/hostile-load). Two such
// changes at once must still report each message as changed by exactly one of them, in their
// answers and in their update_message_flags events, and leave every bit as asked.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../support/server';
import { registerQueue, type TestEvent } from '../support/events';
import { createChannel } from './messages-support';

let server: TestServer;
let uid: Record<string, number>;
const ids: number[] = [];

beforeAll(async () => {
  server = await startTestServer({ seed: 'demo' });
  uid = server.userIds;
  await createChannel(server, server.client('owner'), 'starfield', [uid.dev, uid.emma]);
  // More than one read of targets (1,000 ids) per request, sent a few at a time.
  const dev = server.client('dev');
  const count = 2400;
  let next = 0;
  await Promise.all(
    Array.from({ length: 16 }, async () => {
      while (next < count) {
        const i = next++;
        const res = await dev.post('/messages', {
          type: 'channel',
          to: 'starfield',
          topic: `t${i % 7}`,
          content: `m${i}`,
        });
        expect(res.status, res.text).toBe(200);
        ids.push(res.body.id as number);
      }
    }),
  );
  ids.sort((a, b) => a - b);
}, 120_000);
afterAll(async () => {
  await server.close();
});

/** Every message id the update_message_flags events on the queue name, in order of arrival. */
async function flagEventIds(queue: Awaited<ReturnType<typeof registerQueue>>, op: string) {
  const named: number[] = [];
  for (let polls = 0; polls < 10; polls++) {
    const events: TestEvent[] = await queue.poll();
    for (const event of events) {
      if (event.type === 'update_message_flags' && event.op === op) named.push(...event.messages);
    }
    if (events.length === 0) break;
  }
  return named;
}

function starredOf(userId: number): Set<number> {
  const rows = server.server.db
    .prepare('SELECT message_id FROM user_messages WHERE user_id = ? AND (flags & 2) <> 0')
    .pluck()
    .all(userId) as number[];
  return new Set(rows);
}

describe('two large flag changes at once', () => {
  it('report each message changed once, and leave the bit set, then cleared', async () => {
    const emma = server.client('emma');
    const queue = await registerQueue(emma, { event_types: ['update_message_flags'] });
    const first = ids.slice(0, 1600);
    const second = ids.slice(800);
    for (const op of ['add', 'remove'] as const) {
      const [a, b] = await Promise.all(
        [first, second].map((messages) =>
          emma.post('/messages/flags', { messages, op, flag: 'starred' }),
        ),
      );
      expect(a.status, a.text).toBe(200);
      expect(b.status, b.text).toBe(200);
      const reported = [...a.body.messages, ...b.body.messages] as number[];
      expect(reported.length).toBe(ids.length);
      expect(new Set(reported)).toEqual(new Set(ids));
      const evented = await flagEventIds(queue, op);
      expect(evented.sort((x, y) => x - y)).toEqual(ids);
      const starred = starredOf(uid.emma);
      expect(ids.every((id) => starred.has(id))).toBe(op === 'add');
    }
  });

  it('star history never received (historical rows) once each', async () => {
    // The administrator is not subscribed: every message is public history to them.
    const admin = server.client('admin');
    const [a, b] = await Promise.all(
      [ids.slice(0, 1500), ids.slice(900)].map((messages) =>
        admin.post('/messages/flags', { messages, op: 'add', flag: 'starred' }),
      ),
    );
    expect(a.status, a.text).toBe(200);
    expect(b.status, b.text).toBe(200);
    const reported = [...a.body.messages, ...b.body.messages] as number[];
    expect(reported.length).toBe(ids.length);
    expect(new Set(reported)).toEqual(new Set(ids));
    const flags = server.server.db
      .prepare('SELECT DISTINCT flags FROM user_messages WHERE user_id = ? AND message_id >= ?')
      .pluck()
      .all(uid.admin, ids[0]);
    // historical | starred | read, whichever request made the row.
    expect(flags).toEqual([128 | 2 | 1]);
    // Collapsing some of them sets the bit on the rows already there.
    const collapsed = await admin.post('/messages/flags', {
      messages: ids.slice(0, 1200),
      op: 'add',
      flag: 'collapsed',
    });
    expect(collapsed.body.messages).toEqual(ids.slice(0, 1200));
  });

  it('refuses the whole change when one message is not readable, changing nothing', async () => {
    const emma = server.client('emma');
    const before = starredOf(uid.emma);
    const res = await emma.post('/messages/flags', {
      messages: [...ids.slice(0, 1500), 10 ** 9],
      op: 'add',
      flag: 'starred',
    });
    expect(res.status).toBe(400);
    expect(res.body.msg).toBe('Invalid message(s)');
    expect(starredOf(uid.emma)).toEqual(before);
  });
});
