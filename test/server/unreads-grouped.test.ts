// The register's unread_msgs is read grouped by conversation in SQL (resources/messages/unreads.ts)
// instead of one row object per unread message grouped in JavaScript. The answer must not change:
// each realm here is compared with the row-by-row reading the server did before (rowByRow below,
// over the same rows, UNREAD_ROWS_SQL), for the large seed and for a realm with every case the
// grouping must keep: a topic in letters of other cases (Unicode too), muted channels and topics
// with wildcard and personal mentions, followed and unmuted topics, the empty topic with and
// without the client's capability, one-to-one, self and group direct messages, and the limit.
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../support/server';
import { createChannel, sendDirect, sendToChannel } from './messages-support';
import {
  UNREAD_ROWS_SQL,
  unreadMuting,
  unreadState,
  emptyUnreadParts,
} from '../../server/resources/messages/unreads';
import { LIMITS as READ_ONLY_LIMITS } from '../../server/config';

/** The limit is lowered here to reach it with a few messages. */
const LIMITS = READ_ONLY_LIMITS as { maxUnreadMessages: number };
import { MessageFlag } from '../../server/db/flags';

interface UnreadRow {
  message_id: number;
  flags: number;
  type: string;
  channel_id: number | null;
  topic: string;
  user_ids: string | null;
}

const MENTION_BITS =
  MessageFlag.mentioned |
  MessageFlag.stream_wildcard_mentioned |
  MessageFlag.topic_wildcard_mentioned;

/** unread_msgs as the server built it before, row by row (the reference). */
function rowByRow(server: TestServer, userId: number, emptyTopicName: string | null) {
  const db = server.server.db;
  const rows = db
    .prepare<[number, number], UnreadRow>(UNREAD_ROWS_SQL)
    .all(userId, LIMITS.maxUnreadMessages + 1)
    .reverse();
  const truncated = rows.length > LIMITS.maxUnreadMessages;
  if (truncated) rows.shift();
  const isMuted = unreadMuting(db, userId);
  const parts = emptyUnreadParts();
  const { pms, streams, huddles, mentions } = parts;
  for (const row of rows) {
    let isMutedRow = false;
    if (row.type === 'stream' && row.channel_id !== null) {
      isMutedRow = isMuted(row.channel_id, row.topic);
      const key = `${row.channel_id}\u0000${row.topic.toLowerCase()}`;
      let entry = streams.get(key);
      if (!entry) {
        const topic = row.topic === '' && emptyTopicName !== null ? emptyTopicName : row.topic;
        streams.set(key, (entry = { stream_id: row.channel_id, topic, unread_message_ids: [] }));
      }
      entry.unread_message_ids.push(row.message_id);
    } else {
      const people = (row.user_ids ?? '').split(',').filter(Boolean).map(Number);
      if (people.length <= 2) {
        const other = people.find((id) => id !== userId) ?? userId;
        pms.set(other, [...(pms.get(other) ?? []), row.message_id]);
      } else {
        const key = [...people].sort((a, b) => a - b).join(',');
        huddles.set(key, [...(huddles.get(key) ?? []), row.message_id]);
      }
    }
    if (row.flags & MessageFlag.mentioned) mentions.push(row.message_id);
    else if (row.flags & MENTION_BITS && !isMutedRow) mentions.push(row.message_id);
    if (!isMutedRow) parts.count += 1;
  }
  return unreadState(parts, truncated);
}

async function registered(server: TestServer, who: string, emptyTopicName: boolean) {
  const res = await server.client(who).post('/register', {
    fetch_event_types: ['message', 'update_message_flags'],
    client_capabilities: { empty_topic_name: emptyTopicName },
  });
  expect(res.status, res.text).toBe(200);
  return res.body.unread_msgs as {
    count: number;
    streams: Array<{ topic: string }>;
    old_unreads_missing: boolean;
  };
}

const emptyTopicDisplay = async (server: TestServer) =>
  (await server.client('owner').post('/register', { fetch_event_types: ['realm'] })).body
    .realm_empty_topic_display_name as string;

describe("register's unread_msgs, grouped in SQL", () => {
  const servers: TestServer[] = [];
  const limit = LIMITS.maxUnreadMessages;
  afterEach(() => {
    LIMITS.maxUnreadMessages = limit;
  });
  afterAll(async () => {
    for (const server of servers) await server.close();
  });

  it('is the row-by-row answer for the large seed', async () => {
    const server = await startTestServer({ seed: 'large', largeScale: 0.01 });
    servers.push(server);
    const display = await emptyTopicDisplay(server);
    const answer = await registered(server, 'owner', true);
    expect(answer.count).toBeGreaterThan(0);
    expect(answer.streams.length).toBeGreaterThan(1);
    expect(answer).toEqual(rowByRow(server, server.userIds.owner, null));
    expect(await registered(server, 'owner', false)).toEqual(
      rowByRow(server, server.userIds.owner, display),
    );
  }, 120_000);

  it('is the row-by-row answer for every case the grouping must keep, and at the limit', async () => {
    const server = await startTestServer({ seed: 'demo' });
    servers.push(server);
    const { owner, dev, emma, farid } = server.userIds;
    const devClient = server.client('dev');
    const ownerClient = server.client('owner');
    await createChannel(server, ownerClient, 'cases', [owner, dev, emma]);
    await createChannel(server, ownerClient, 'quiet', [owner, dev, emma]);
    const quiet = server.server.db
      .prepare<[string], { id: number }>('SELECT id FROM channels WHERE name = ?')
      .get('quiet')!.id;
    const cases = server.server.db
      .prepare<[string], { id: number }>('SELECT id FROM channels WHERE name = ?')
      .get('cases')!.id;
    const res = await ownerClient.post('/users/me/subscriptions/properties', {
      subscription_data: [{ stream_id: quiet, property: 'is_muted', value: true }],
    });
    expect(res.status, res.text).toBe(200);
    for (const [channel, topic, policy] of [
      [cases, 'muted here', 1],
      [quiet, 'Unmuted THERE', 2],
      [quiet, 'followed', 3],
    ] as const) {
      const set = await ownerClient.post('/user_topics', {
        stream_id: channel,
        topic,
        visibility_policy: policy,
      });
      expect(set.status, set.text).toBe(200);
    }
    // Interleaved, so one topic's cases and conversations alternate in id order.
    for (let round = 0; round < 3; round++) {
      for (const topic of ['Ärger', 'ärger', 'ÄRGER', 'plain', '']) {
        await sendToChannel(devClient, 'cases', topic, `round ${round}`);
      }
      await sendToChannel(devClient, 'cases', 'muted here', '@**all** in a muted topic');
      await sendToChannel(devClient, 'cases', 'Muted Here', '@**Olivia Owner** by name');
      await sendToChannel(devClient, 'quiet', 'anything', '@**all** in a muted channel');
      await sendToChannel(devClient, 'quiet', 'unmuted there', '@**topic** unmuted');
      await sendToChannel(devClient, 'quiet', 'FOLLOWED', '@**Olivia Owner** followed');
      await sendDirect(devClient, [owner], `direct ${round}`);
      await sendDirect(devClient, [owner, emma], `group ${round}`);
      await sendDirect(server.client('emma'), [owner, dev], `group again ${round}`);
      await sendDirect(server.client('farid'), [farid, owner], `another ${round}`);
      await sendDirect(ownerClient, [owner], `to myself ${round}`);
    }
    // Sent by the owner: read, but marked unread again.
    const own = await sendDirect(ownerClient, [owner], 'marked unread');
    await ownerClient.post('/messages/flags', { messages: [own], op: 'remove', flag: 'read' });

    const display = await emptyTopicDisplay(server);
    const full = await registered(server, 'owner', true);
    expect(full.old_unreads_missing).toBe(false);
    expect(full.streams.filter((s) => s.topic.toLowerCase() === 'ärger')).toHaveLength(1);
    expect(full).toEqual(rowByRow(server, owner, null));
    expect(await registered(server, 'owner', false)).toEqual(rowByRow(server, owner, display));
    expect(await registered(server, 'emma', true)).toEqual(rowByRow(server, emma, null));

    // At the limit, the oldest goes (whatever conversation it is in) and that is said.
    for (const cut of [full.count + 40, 30, 17, 16, 5, 1]) {
      LIMITS.maxUnreadMessages = cut;
      const answer = await registered(server, 'owner', true);
      expect(answer).toEqual(rowByRow(server, owner, null));
    }
    LIMITS.maxUnreadMessages = 17;
    expect((await registered(server, 'owner', true)).old_unreads_missing).toBe(true);
  }, 120_000);
});
