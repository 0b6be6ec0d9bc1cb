// --seed large at a small scale: the counts the seed promises reach the client through /register,
// and the realm works as any other afterwards (channel and topic narrows, search, read marks,
// sending).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../support/server';
import { largeRealmCounts } from '../../server/seed/large';
import { topicName } from '../../server/seed/large-content';

const SCALE = 0.01;
const counts = largeRealmCounts(SCALE);

interface UnreadChannelEntry {
  stream_id: number;
  topic: string;
  unread_message_ids: number[];
}
interface FetchedMessage {
  id: number;
  content: string;
  subject: string;
  flags: string[];
  sender_id: number;
}

let server: TestServer;
let generalId: number;

beforeAll(async () => {
  server = await startTestServer({ seed: 'large', largeScale: SCALE });
  const owner = server.client('owner');
  const res = await owner.get('/get_stream_id', { stream: 'general' });
  expect(res.status, res.text).toBe(200);
  generalId = res.body.stream_id;
});
afterAll(async () => {
  await server.close();
});

const register = async (who = 'owner') => {
  const res = await server.client(who).post('/register', {
    fetch_event_types: ['realm_user', 'subscription', 'message', 'update_message_flags'],
  });
  expect(res.status, res.text).toBe(200);
  return res.body;
};

const fetchMessages = async (narrow: unknown, who = 'owner'): Promise<FetchedMessage[]> => {
  const res = await server
    .client(who)
    .get('/messages', { anchor: 'newest', num_before: 1000, num_after: 0, narrow });
  expect(res.status, res.text).toBe(200);
  return res.body.messages as FetchedMessage[];
};

describe('--seed large', () => {
  it('registers with the promised users, subscriptions and unread messages', async () => {
    const state = await register();
    expect(state.realm_users).toHaveLength(counts.users);
    expect(new Set(state.realm_users.map((u: { email: string }) => u.email)).size).toBe(
      counts.users,
    );
    expect(state.subscriptions).toHaveLength(counts.ownerChannels);
    const unread = state.unread_msgs;
    expect(unread.count).toBe(counts.unread);
    const streams = unread.streams as UnreadChannelEntry[];
    expect(new Set(streams.map((s) => `${s.stream_id}/${s.topic}`)).size).toBe(counts.unreadTopics);
    const ids = streams.flatMap((s) => s.unread_message_ids);
    expect(ids).toHaveLength(counts.unread);
    // The owner's unread mentions are exactly the unread messages stored as mentioning them.
    const owner = server.userIds.owner;
    const mentioned = server.server.db
      .prepare<[number], { message_id: number }>(
        `SELECT message_id FROM user_messages
          WHERE user_id = ? AND (flags & 1) = 0 AND (flags & 8) <> 0 ORDER BY message_id`,
      )
      .all(owner)
      .map((r) => r.message_id);
    expect(mentioned.length).toBeGreaterThan(0);
    expect([...unread.mentions].sort((a: number, b: number) => a - b)).toEqual(mentioned);
    expect(unread.mentions.every((id: number) => ids.includes(id))).toBe(true);
    // Every unread topic holds the same share of the unread messages.
    for (const entry of streams) {
      expect(entry.unread_message_ids).toHaveLength(counts.unread / counts.unreadTopics);
    }
  });

  it('stores exactly the channels and messages the scale asks for', () => {
    const db = server.server.db;
    const count = (sql: string) => (db.prepare(sql).get() as { n: number }).n;
    expect(count('SELECT COUNT(*) AS n FROM channels')).toBe(counts.channels);
    expect(count('SELECT COUNT(*) AS n FROM messages')).toBe(counts.messages);
    expect(
      count("SELECT COUNT(*) AS n FROM users WHERE is_bot = 0 AND email LIKE '%@tributary.local'"),
    ).toBe(counts.users);
    // Everyone is in general, the default channel.
    expect(
      count(
        `SELECT COUNT(*) AS n FROM subscriptions s JOIN channels c ON c.id = s.channel_id
          WHERE c.name = 'general' AND s.active = 1`,
      ),
    ).toBe(counts.users);
    // Full size is the organization of issue #14.
    expect(largeRealmCounts(1)).toEqual({
      users: 10_000,
      channels: 1000,
      ownerChannels: 500,
      messages: 200_000,
      unread: 20_000,
      unreadTopics: 2000,
    });
    expect(counts).toEqual({
      users: 100,
      channels: 10,
      ownerChannels: 5,
      messages: 2000,
      unread: 200,
      unreadTopics: 20,
    });
  });

  it('serves a channel narrow and a topic narrow with the unread ones last', async () => {
    const channel = await fetchMessages([{ operator: 'channel', operand: generalId }]);
    expect(channel.length).toBeGreaterThan(10);
    const ids = channel.map((m) => m.id);
    expect(ids).toEqual([...ids].sort((a, b) => a - b));

    const topic = topicName(0);
    const inTopic = await fetchMessages([
      { operator: 'channel', operand: generalId },
      { operator: 'topic', operand: topic },
    ]);
    expect(inTopic.every((m) => m.subject.toLowerCase() === topic)).toBe(true);
    const unread = inTopic.filter((m) => !m.flags.includes('read'));
    expect(unread).toHaveLength(counts.unread / counts.unreadTopics);
    expect(inTopic.slice(-unread.length)).toEqual(unread);
    // Another member of general reads its history without rows of their own.
    const asDev = await fetchMessages([{ operator: 'channel', operand: 'general' }], 'dev');
    expect(asDev.length).toBeGreaterThan(0);
  });

  it('finds messages by search and renders markup as the server does', async () => {
    const found = await fetchMessages([{ operator: 'search', operand: 'migration' }]);
    expect(found.length).toBeGreaterThan(0);
    expect(found.every((m) => /migration/i.test(m.content + m.subject))).toBe(true);
    // Stored HTML is what the renderer makes of the stored text, markup and mentions included.
    const all = await fetchMessages([]);
    const rich = all.filter((m) => /<code>|class="emoji|user-mention/.test(m.content));
    expect(rich.length).toBeGreaterThan(0);
    const owner = server.client('owner');
    for (const message of rich.slice(0, 5)) {
      const raw = await owner.get(`/messages/${message.id}`, { apply_markdown: false });
      const rendered = await owner.post('/messages/render', { content: raw.body.raw_content });
      expect(rendered.body.rendered).toBe(message.content);
    }
  });

  it('marks a topic read and accepts new messages', async () => {
    const before = (await register()).unread_msgs;
    const entry = (before.streams as UnreadChannelEntry[])[0];
    const marked = await server.client('owner').post('/messages/flags', {
      messages: entry.unread_message_ids,
      op: 'add',
      flag: 'read',
    });
    expect(marked.status, marked.text).toBe(200);
    const sent = await server.client('dev').post('/messages', {
      type: 'stream',
      to: generalId,
      topic: 'large realm check',
      content: 'Hello from the test @**Olivia Owner**',
    });
    expect(sent.status, sent.text).toBe(200);
    const after = (await register()).unread_msgs;
    expect(after.count).toBe(before.count - entry.unread_message_ids.length + 1);
    expect(after.mentions).toContain(sent.body.id);
    const searched = await fetchMessages([{ operator: 'search', operand: 'hello test' }]);
    expect(searched.map((m) => m.id)).toContain(sent.body.id);
  });
});
