// Fan-out of one channel message to many recipients: user_messages rows written several per
// INSERT (more subscribers than one INSERT holds), per-recipient flags, and message events shared
// between queues without one queue's flags or local echo reaching another.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiClient } from '../support/client';
import { registerQueue, type TestEvent } from '../support/events';
import { startTestServer, type TestServer } from '../support/server';
import { createUser } from '../../server/realm/accounts';
import { Role } from '../../server/realm/roles';
import { MessageFlag } from '../../server/db/flags';

// More than one multi-row INSERT chunk (64 rows) plus a remainder.
const EXTRA_MEMBERS = 140;

let server: TestServer;
const members: Array<{ id: number; client: ApiClient }> = [];

beforeAll(async () => {
  server = await startTestServer({ seed: 'demo' });
  // Accounts straight in the database: the API would hash a password per account, which is slow
  // and not what this test is about.
  for (let i = 0; i < EXTRA_MEMBERS; i++) {
    const email = `fanout${i}@tributary.local`;
    const created = createUser(server.server.db, {
      email,
      fullName: `Fanout ${i}`,
      role: Role.member,
    });
    members.push({
      id: created.id,
      client: new ApiClient(() => server.url, { email, apiKey: created.apiKey }),
    });
  }
  const subscribed = await server.client('owner').post('/users/me/subscriptions', {
    subscriptions: [{ name: 'crowd' }],
    principals: members.map((m) => m.id),
  });
  expect(subscribed.status, subscribed.text).toBe(200);
});

afterAll(() => server.close());

function messageEvents(events: TestEvent[]): TestEvent[] {
  return events.filter((event) => event.type === 'message');
}

describe('channel message fan-out', () => {
  it('stores one row per subscriber with its own flags', async () => {
    const sender = members[0];
    const mentioned = members[100];
    const sent = await sender.client.post('/messages', {
      type: 'stream',
      to: 'crowd',
      topic: 'fan-out',
      content: `hello @**Fanout 100**`,
      read_by_sender: true,
    });
    expect(sent.status, sent.text).toBe(200);
    const rows = server.server.db
      .prepare<[number], { user_id: number; flags: number }>(
        'SELECT user_id, flags FROM user_messages WHERE message_id = ? ORDER BY user_id',
      )
      .all(sent.body.id as number);
    const subscribers = server.server.db
      .prepare<[], { user_id: number }>(
        `SELECT user_id FROM subscriptions JOIN channels ON channels.id = channel_id
          WHERE channels.name = 'crowd' AND active = 1 ORDER BY user_id`,
      )
      .all()
      .map((r) => r.user_id);
    expect(subscribers).toHaveLength(EXTRA_MEMBERS);
    expect(rows.map((r) => r.user_id)).toEqual(subscribers);
    const flagsOf = new Map(rows.map((r) => [r.user_id, r.flags]));
    expect(flagsOf.get(sender.id)).toBe(MessageFlag.read);
    expect(flagsOf.get(mentioned.id)).toBe(MessageFlag.mentioned);
    expect(rows.filter((r) => r.flags !== 0)).toHaveLength(2);
  });

  it('gives each queue its own flags and the local echo only to the sending queue', async () => {
    const sender = members[1];
    const mentioned = members[2];
    const plain = members[3];
    const senderQueue = await registerQueue(sender.client, { event_types: ['message'] });
    const otherSenderQueue = await registerQueue(sender.client, { event_types: ['message'] });
    const mentionedQueue = await registerQueue(mentioned.client, { event_types: ['message'] });
    const plainQueues = await Promise.all([
      registerQueue(plain.client, { event_types: ['message'], apply_markdown: true }),
      registerQueue(plain.client, { event_types: ['message'], apply_markdown: false }),
      registerQueue(members[4].client, { event_types: ['message'] }),
    ]);
    const sent = await sender.client.post('/messages', {
      type: 'stream',
      to: 'crowd',
      topic: 'echo',
      content: 'ping @**Fanout 2**',
      queue_id: senderQueue.queueId,
      local_id: '7.01',
      read_by_sender: true,
    });
    expect(sent.status, sent.text).toBe(200);

    const [own] = messageEvents(await senderQueue.next());
    expect(own.local_message_id).toBe('7.01');
    expect(own.flags).toEqual(['read']);
    const [ownOther] = messageEvents(await otherSenderQueue.next());
    expect(ownOther.local_message_id).toBeUndefined();
    expect(ownOther.flags).toEqual(['read']);

    const [forMentioned] = messageEvents(await mentionedQueue.next());
    expect(forMentioned.flags).toEqual(['mentioned']);
    expect(forMentioned.local_message_id).toBeUndefined();

    const [rendered, raw, other] = await Promise.all(
      plainQueues.map(async (q) => messageEvents(await q.next())[0]),
    );
    for (const event of [rendered, raw, other]) {
      expect(event.message.id).toBe(sent.body.id);
      expect(event.flags).toEqual([]);
      expect(event.local_message_id).toBeUndefined();
    }
    expect(rendered.message.content).toContain('<span class="user-mention"');
    expect(raw.message.content).toBe('ping @**Fanout 2**');
  });

  it('keeps delivering to all_public_streams queues after another one is deleted', async () => {
    // The admin is not in #crowd, so it sees crowd messages only through all_public_streams.
    const admin = server.client('admin');
    const kept = await registerQueue(admin, { all_public_streams: true, event_types: ['message'] });
    const dropped = await registerQueue(admin, {
      all_public_streams: true,
      event_types: ['message'],
    });
    const deleted = await admin.delete('/events', { queue_id: dropped.queueId });
    expect(deleted.status, deleted.text).toBe(200);
    const sent = await members[5].client.post('/messages', {
      type: 'stream',
      to: 'crowd',
      topic: 'watchers',
      content: 'for the watchers',
    });
    expect(sent.status, sent.text).toBe(200);
    const [event] = messageEvents(await kept.next());
    expect(event.message.id).toBe(sent.body.id);
    expect(event.flags).toEqual(['read', 'historical']);
  });
});
