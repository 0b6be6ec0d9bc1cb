// Personal flags: POST /messages/flags, POST /messages/flags/narrow, POST /mark_all_as_read and the
// deprecated per-channel/topic variants; update_message_flags events (message_details on read
// removal), unread_msgs in /register, historical rows and privacy.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../support/server';
import { registerQueue } from '../support/events';
import { createChannel, sendDirect, sendToChannel } from './messages-support';
import { STARRED_IDS_SQL, UNREAD_ROWS_SQL } from '../../server/resources/messages/unreads';

let server: TestServer;
let uid: Record<string, number>;
let flagland: number;

beforeAll(async () => {
  server = await startTestServer({ seed: 'demo' });
  uid = server.userIds;
  flagland = await createChannel(server, server.client('owner'), 'flagland', [
    uid.owner,
    uid.dev,
    uid.emma,
  ]);
});
afterAll(async () => {
  await server.close();
});

const unreadState = async (who: string) =>
  (
    await server.client(who).post('/register', {
      fetch_event_types: ['message', 'update_message_flags'],
    })
  ).body.unread_msgs;

describe('POST /messages/flags', () => {
  it('adds and removes read with events; message_details rebuild unread state', async () => {
    const dev = server.client('dev');
    const a = await sendToChannel(dev, 'flagland', 'reading', 'hi @**Emma Member**');
    const b = await sendDirect(dev, [uid.emma], 'psst');
    const emma = server.client('emma');
    const before = await unreadState('emma');
    expect(before.mentions).toContain(a);
    expect(
      before.pms.find((p: { other_user_id: number }) => p.other_user_id === uid.dev)
        .unread_message_ids,
    ).toContain(b);
    const queue = await registerQueue(emma, { event_types: ['update_message_flags'] });
    const add = await emma.post('/messages/flags', { messages: [a, b], op: 'add', flag: 'read' });
    expect(add.status).toBe(200);
    expect(add.body.messages).toEqual([a, b]);
    const added = await queue.waitFor((e) => e.type === 'update_message_flags');
    expect(added).toMatchObject({
      op: 'add',
      operation: 'add',
      flag: 'read',
      messages: [a, b],
      all: false,
    });
    expect(added).not.toHaveProperty('message_details');
    const after = await unreadState('emma');
    expect(after.mentions).not.toContain(a);
    expect(after.count).toBe(before.count - 2);

    const remove = await emma.post('/messages/flags', {
      messages: [a, b],
      op: 'remove',
      flag: 'read',
    });
    expect(remove.body).toMatchObject({
      messages: [a, b],
      ignored_because_not_subscribed_channels: [],
    });
    const removed = await queue.waitFor((e) => e.type === 'update_message_flags');
    expect(removed.message_details).toEqual({
      [a]: { type: 'stream', mentioned: true, stream_id: flagland, topic: 'reading' },
      [b]: { type: 'private', user_ids: [uid.dev] },
    });
    expect((await unreadState('emma')).count).toBe(before.count);
  });

  it('reports only messages whose flag changed', async () => {
    const dev = server.client('dev');
    const a = await sendToChannel(dev, 'flagland', 'stars', 'star me');
    const emma = server.client('emma');
    await emma.post('/messages/flags', { messages: [a], op: 'add', flag: 'starred' });
    const again = await emma.post('/messages/flags', { messages: [a], op: 'add', flag: 'starred' });
    expect(again.body.messages).toEqual([]);
    const state = await emma.post('/register', { fetch_event_types: ['starred_messages'] });
    expect(state.body.starred_messages).toContain(a);
  });

  it('rejects unknown and non-editable flags and invisible messages', async () => {
    const emma = server.client('emma');
    const a = await sendToChannel(server.client('dev'), 'flagland', 'errors', 'x');
    const unknown = await emma.post('/messages/flags', { messages: [a], op: 'add', flag: 'shiny' });
    expect(unknown.body).toMatchObject({ code: 'BAD_REQUEST', msg: "Invalid flag: 'shiny'" });
    const fixed = await emma.post('/messages/flags', {
      messages: [a],
      op: 'add',
      flag: 'mentioned',
    });
    expect(fixed.body.msg).toBe("Flag not editable: 'mentioned'");
    const badOp = await emma.post('/messages/flags', { messages: [a], op: 'toggle', flag: 'read' });
    expect(badOp.body).toMatchObject({ code: 'REQUEST_VARIABLE_INVALID', var_name: 'op' });
    const missing = await emma.post('/messages/flags', {
      messages: [a, 999999],
      op: 'add',
      flag: 'read',
    });
    expect(missing.body.msg).toBe('Invalid message(s)');
  });

  it('never touches messages of a private channel the user cannot see', async () => {
    const leadership = await sendToChannel(
      server.client('owner'),
      'leadership',
      'staff',
      'private',
    );
    const dev = server.client('dev');
    const queue = await registerQueue(dev, { event_types: ['update_message_flags'] });
    const res = await dev.post('/messages/flags', {
      messages: [leadership],
      op: 'add',
      flag: 'starred',
    });
    expect(res.status).toBe(400);
    expect(await queue.poll()).toEqual([]);
    const rows = server.server.db
      .prepare('SELECT 1 FROM user_messages WHERE user_id = ? AND message_id = ?')
      .all(uid.dev, leadership);
    expect(rows).toEqual([]);
  });

  it('stars public history the user never received by creating a historical row', async () => {
    const a = await sendToChannel(server.client('dev'), 'flagland', 'history', 'public history');
    const admin = server.client('admin'); // not subscribed to #flagland
    const res = await admin.post('/messages/flags', { messages: [a], op: 'add', flag: 'starred' });
    expect(res.body.messages).toEqual([a]);
    const message = (await admin.get(`/messages/${a}`)).body.message;
    expect(message.flags).toEqual(expect.arrayContaining(['read', 'starred', 'historical']));
    // Unread removal does not apply to never-received messages.
    const unread = await admin.post('/messages/flags', {
      messages: [a],
      op: 'remove',
      flag: 'read',
    });
    expect(unread.body.messages).toEqual([]);
  });

  it('skips unread marking in channels the user left', async () => {
    const a = await sendToChannel(server.client('dev'), 'flagland', 'leaving', 'bye');
    const owner = server.client('owner');
    await owner.post('/messages/flags', { messages: [a], op: 'add', flag: 'read' });
    await owner.delete('/users/me/subscriptions', { subscriptions: ['flagland'] });
    const res = await owner.post('/messages/flags', { messages: [a], op: 'remove', flag: 'read' });
    expect(res.body).toMatchObject({
      messages: [],
      ignored_because_not_subscribed_channels: [flagland],
    });
    await owner.post('/users/me/subscriptions', { subscriptions: [{ name: 'flagland' }] });
  });
});

describe("register's unread_msgs", () => {
  it('reads the unread rows from the unread index alone, flags included', async () => {
    const plan = server.server.db
      .prepare<[number, number], { detail: string }>(`EXPLAIN QUERY PLAN ${UNREAD_ROWS_SQL}`)
      .all(server.userIds.dev, 50_000)
      .map((r) => r.detail)
      .join(' ');
    expect(plan).toMatch(/SEARCH um USING COVERING INDEX user_messages_unread\b/);
  });
});

describe("register's starred_messages", () => {
  it('reads the starred ids from the starred index, not every row of the user', async () => {
    const plan = server.server.db
      .prepare<[number], { detail: string }>(`EXPLAIN QUERY PLAN ${STARRED_IDS_SQL}`)
      .all(server.userIds.dev)
      .map((r) => r.detail)
      .join(' ');
    expect(plan).toMatch(/USING (COVERING )?INDEX user_messages_starred\b/);
    // And the ids it reads are the starred ones, in order, as the register sends them.
    const dev = server.client('dev');
    const ids: number[] = [];
    for (let i = 0; i < 3; i++) ids.push(await sendToChannel(dev, 'flagland', 'stars', `s${i}`));
    await dev.post('/messages/flags', { messages: [ids[2], ids[0]], op: 'add', flag: 'starred' });
    const state = await dev.post('/register', { fetch_event_types: ['starred_messages'] });
    const starred = state.body.starred_messages as number[];
    expect(starred).toEqual([...starred].sort((a, b) => a - b));
    expect(starred).toEqual(expect.arrayContaining([ids[0], ids[2]]));
    expect(starred).not.toContain(ids[1]);
  });
});

describe('POST /messages/flags/narrow', () => {
  it('updates a range of a narrow and reports counts and bounds', async () => {
    const dev = server.client('dev');
    const sent: number[] = [];
    for (let i = 0; i < 5; i++) sent.push(await sendToChannel(dev, 'flagland', 'bulk', `n${i}`));
    const emma = server.client('emma');
    const narrow = [
      { operator: 'channel', operand: 'flagland' },
      { operator: 'topic', operand: 'bulk' },
    ];
    const res = await emma.post('/messages/flags/narrow', {
      anchor: String(sent[1]),
      num_before: 0,
      num_after: 2,
      narrow,
      op: 'add',
      flag: 'read',
    });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      processed_count: 3,
      updated_count: 3,
      first_processed_id: sent[1],
      last_processed_id: sent[3],
      found_oldest: false,
      found_newest: false,
    });
    const again = await emma.post('/messages/flags/narrow', {
      anchor: 'oldest',
      num_before: 0,
      num_after: 100,
      narrow,
      op: 'add',
      flag: 'read',
    });
    expect(again.body).toMatchObject({
      processed_count: 5,
      updated_count: 2,
      first_processed_id: sent[0],
      last_processed_id: sent[4],
      found_oldest: true,
      found_newest: true,
    });
    const unread = await emma.post('/messages/flags/narrow', {
      anchor: 'newest',
      num_before: 1,
      num_after: 0,
      narrow,
      op: 'remove',
      flag: 'read',
    });
    expect(unread.body).toMatchObject({
      updated_count: 1,
      last_processed_id: sent[4],
      ignored_because_not_subscribed_channels: [],
    });
  });

  it('returns nulls for an empty range and validates parameters', async () => {
    const emma = server.client('emma');
    const empty = await emma.post('/messages/flags/narrow', {
      anchor: 'newest',
      num_before: 10,
      num_after: 0,
      narrow: [{ operator: 'topic', operand: 'nothing here at all' }],
      op: 'add',
      flag: 'starred',
    });
    expect(empty.body).toMatchObject({
      processed_count: 0,
      updated_count: 0,
      first_processed_id: null,
      last_processed_id: null,
    });
    const missing = await emma.post('/messages/flags/narrow', {
      anchor: 'newest',
      op: 'add',
      flag: 'read',
    });
    expect(missing.body.code).toBe('REQUEST_VARIABLE_MISSING');
    const bad = await emma.post('/messages/flags/narrow', {
      anchor: 'newest',
      num_before: 1,
      num_after: 0,
      narrow: [{ operator: 'bogus', operand: 'x' }],
      op: 'add',
      flag: 'read',
    });
    expect(bad.body.code).toBe('BAD_NARROW');
  });
});

describe('mark as read', () => {
  it('mark_all_as_read reads everything and says so with all: true', async () => {
    const farid = server.client('farid');
    await sendDirect(server.client('dev'), [uid.farid], 'unread for farid');
    expect((await unreadState('farid')).count).toBeGreaterThan(0);
    const queue = await registerQueue(farid, { event_types: ['update_message_flags'] });
    const res = await farid.post('/mark_all_as_read');
    expect(res.body).toMatchObject({ result: 'success', complete: true });
    const event = await queue.waitFor((e) => e.type === 'update_message_flags');
    expect(event).toMatchObject({ op: 'add', flag: 'read', all: true, messages: [] });
    const state = await unreadState('farid');
    expect(state).toMatchObject({ count: 0, pms: [], streams: [], huddles: [], mentions: [] });
  });

  it('mark_topic_as_read and mark_stream_as_read read only their part', async () => {
    const dev = server.client('dev');
    const a = await sendToChannel(dev, 'flagland', 'topic one', 'a');
    const b = await sendToChannel(dev, 'flagland', 'topic two', 'b');
    const emma = server.client('emma');
    await emma.post('/mark_topic_as_read', { stream_id: flagland, topic_name: 'topic one' });
    const state = await unreadState('emma');
    const unreadIds = state.streams.flatMap(
      (s: { unread_message_ids: number[] }) => s.unread_message_ids,
    );
    expect(unreadIds).not.toContain(a);
    expect(unreadIds).toContain(b);
    await emma.post('/mark_stream_as_read', { stream_id: flagland });
    const after = await unreadState('emma');
    expect(after.streams.some((s: { stream_id: number }) => s.stream_id === flagland)).toBe(false);
  });
});
