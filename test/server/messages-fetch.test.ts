// GET /messages and GET /messages/{id}: anchors, ranges, found_* flags, message_ids, limits,
// rendering options, flags (historical), edit history visibility, and privacy of private channels
// (shared and protected history) and guests.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../support/server';
import {
  createChannel,
  fetchMessages,
  ids,
  sendToChannel,
  setRealmSettings,
} from './messages-support';

let server: TestServer;
let uid: Record<string, number>;
let channelId: number;
const range: number[] = [];

beforeAll(async () => {
  server = await startTestServer({ seed: 'demo' });
  uid = server.userIds;
  channelId = await createChannel(server, server.client('owner'), 'fetchland', [
    uid.owner,
    uid.dev,
    uid.emma,
  ]);
  for (let i = 0; i < 10; i++) {
    range.push(await sendToChannel(server.client('dev'), 'fetchland', 'range', `message ${i}`));
  }
});
afterAll(async () => {
  await server.close();
});

const inRange = [{ operator: 'channel', operand: 'fetchland' }];

describe('anchors and ranges', () => {
  it('returns num_before, the anchor and num_after around an integer anchor', async () => {
    const res = await server.client('emma').get('/messages', {
      anchor: String(range[5]),
      num_before: 2,
      num_after: 2,
      narrow: inRange,
    });
    expect(res.status).toBe(200);
    expect(ids(res)).toEqual(range.slice(3, 8));
    expect(res.body).toMatchObject({
      anchor: range[5],
      found_anchor: true,
      found_oldest: false,
      found_newest: false,
      history_limited: false,
    });
  });

  it('reports found_oldest and found_newest at the ends', async () => {
    const emma = server.client('emma');
    const oldest = await emma.get('/messages', {
      anchor: 'oldest',
      num_before: 0,
      num_after: 3,
      narrow: inRange,
    });
    expect(ids(oldest)).toEqual(range.slice(0, 3));
    expect(oldest.body).toMatchObject({ anchor: 0, found_oldest: true, found_newest: false });
    const newest = await emma.get('/messages', {
      anchor: 'newest',
      num_before: 3,
      num_after: 0,
      narrow: inRange,
    });
    expect(ids(newest)).toEqual(range.slice(7));
    expect(newest.body).toMatchObject({
      anchor: 10000000000000000,
      found_anchor: false,
      found_newest: true,
      found_oldest: false,
    });
    const all = await emma.get('/messages', {
      anchor: 'newest',
      num_before: 50,
      num_after: 0,
      narrow: inRange,
    });
    expect(all.body).toMatchObject({ found_oldest: true, found_newest: true });
    expect(ids(all)).toEqual(range);
  });

  it('excludes the anchor at an end of the range only', async () => {
    const emma = server.client('emma');
    const res = await emma.get('/messages', {
      anchor: String(range[5]),
      include_anchor: false,
      num_before: 2,
      num_after: 0,
      narrow: inRange,
    });
    expect(ids(res)).toEqual([range[3], range[4]]);
    expect(res.body.found_anchor).toBe(false);
    const both = await emma.get('/messages', {
      anchor: String(range[5]),
      include_anchor: false,
      num_before: 2,
      num_after: 2,
    });
    expect(both.status).toBe(400);
    expect(both.body.msg).toBe('The anchor can only be excluded at an end of the range');
  });

  it('resolves first_unread to the oldest unread match, else newest', async () => {
    const emma = server.client('emma');
    await emma.post('/messages/flags', { messages: range.slice(0, 4), op: 'add', flag: 'read' });
    const res = await emma.get('/messages', {
      anchor: 'first_unread',
      num_before: 1,
      num_after: 1,
      narrow: inRange,
    });
    expect(res.body.anchor).toBe(range[4]);
    expect(ids(res)).toEqual([range[3], range[4], range[5]]);
    // The sender's own messages (sent by a script client) are unread for nobody but emma here.
    const owner = server.client('owner');
    await owner.post('/messages/flags', { messages: range, op: 'add', flag: 'read' });
    const none = await owner.get('/messages', {
      anchor: 'first_unread',
      num_before: 0,
      num_after: 0,
      narrow: inRange,
    });
    expect(none.body.anchor).toBe(10000000000000000);
  });

  it('limits a fetch to 5000 messages', async () => {
    const res = await server
      .client('emma')
      .get('/messages', { anchor: 'newest', num_before: 4000, num_after: 1001 });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({
      code: 'BAD_REQUEST',
      msg: 'Too many messages requested (maximum 5000).',
    });
    const ok = await server
      .client('emma')
      .get('/messages', { anchor: 'newest', num_before: 5000, num_after: 0 });
    expect(ok.status).toBe(200);
  });

  it('needs an anchor and rejects a malformed one', async () => {
    const missing = await server.client('emma').get('/messages', { num_before: 1 });
    expect(missing.body).toMatchObject({ code: 'REQUEST_VARIABLE_MISSING', var_name: 'anchor' });
    const bad = await server.client('emma').get('/messages', { anchor: 'yesterday' });
    expect(bad.body).toMatchObject({ code: 'REQUEST_VARIABLE_INVALID', var_name: 'anchor' });
  });
});

describe('message_ids', () => {
  it('returns exactly the visible requested messages with found_* false and no anchor', async () => {
    const res = await server
      .client('emma')
      .get('/messages', { message_ids: [range[1], range[8], 999999] });
    expect(ids(res)).toEqual([range[1], range[8]]);
    expect(res.body).not.toHaveProperty('anchor');
    expect(res.body).toMatchObject({
      found_anchor: false,
      found_oldest: false,
      found_newest: false,
    });
  });

  it('cannot be combined with anchor or num_*', async () => {
    const res = await server
      .client('emma')
      .get('/messages', { message_ids: [range[1]], anchor: 'newest' });
    expect(res.status).toBe(400);
    expect(res.body.msg).toMatch(/Unsupported parameter combination: anchor, message_ids/);
  });
});

describe('message objects', () => {
  it('arrive as UTF-8 JSON in the envelope, several chunks of them, with ignored parameters', async () => {
    // More than one chunk of 250 messages, written as bytes chunk by chunk (JsonBytes).
    const texts = ['naïve café ✔', '日本語のテキスト', 'emoji 🦊 and "quotes" \\ back'];
    const sent: number[] = [];
    for (const text of texts)
      sent.push(await sendToChannel(server.client('dev'), 'fetchland', 'utf', text));
    const res = await server
      .client('emma')
      .raw(
        'GET',
        `/messages?${new URLSearchParams({ anchor: 'newest', num_before: '600', num_after: '0', apply_markdown: 'false', no_such_parameter: '1' })}`,
      );
    expect(res.status, res.text).toBe(200);
    expect(res.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(res.body).toMatchObject({
      result: 'success',
      msg: '',
      found_newest: true,
      ignored_parameters_unsupported: ['no_such_parameter'],
    });
    const messages = res.body.messages as Array<{ id: number; content: string }>;
    expect(messages.length).toBeGreaterThan(250);
    expect(messages.map((m) => m.id)).toEqual([...messages.map((m) => m.id)].sort((a, b) => a - b));
    expect(messages.slice(-3).map((m) => [m.id, m.content])).toEqual(
      sent.map((id, i) => [id, texts[i]]),
    );
  });

  it('carries the spec fields, flags and the raw markup when apply_markdown is false', async () => {
    const id = await sendToChannel(server.client('dev'), 'fetchland', 'fields', 'hello *world*');
    const res = await server
      .client('emma')
      .get('/messages', { message_ids: [id], apply_markdown: false, client_gravatar: false });
    const message = res.body.messages[0];
    expect(message).toMatchObject({
      id,
      type: 'stream',
      sender_id: uid.dev,
      sender_email: 'dev@tributary.local',
      sender_full_name: 'Dev Member',
      content: 'hello *world*',
      content_type: 'text/x-markdown',
      display_recipient: 'fetchland',
      stream_id: channelId,
      subject: 'fields',
      topic_links: [],
      is_me_message: false,
      reactions: [],
      submessages: [],
      flags: [],
    });
    expect(message.avatar_url).toMatch(/^https:/);
    expect(message).not.toHaveProperty('edit_history');
    expect(message).not.toHaveProperty('last_edit_timestamp');
  });

  it('marks public history the user never received as read and historical', async () => {
    // The admin is not subscribed to #fetchland but may read public history.
    const res = await server
      .client('admin')
      .get('/messages', { anchor: 'newest', num_before: 3, num_after: 0, narrow: inRange });
    expect(res.body.messages.length).toBe(3);
    for (const m of res.body.messages) expect(m.flags).toEqual(['read', 'historical']);
  });

  it('shows edit history according to message_edit_history_visibility_policy', async () => {
    const dev = server.client('dev');
    const id = await sendToChannel(dev, 'fetchland', 'history', 'first version');
    expect((await dev.patch(`/messages/${id}`, { content: 'second version' })).status).toBe(200);
    const all = (await dev.get(`/messages/${id}`)).body.message;
    expect(all.edit_history[0]).toMatchObject({ user_id: uid.dev, prev_content: 'first version' });
    expect(all.last_edit_timestamp).toEqual(expect.any(Number));
    setRealmSettings(server, { message_edit_history_visibility_policy: 'none' });
    expect((await dev.get(`/messages/${id}`)).body.message).not.toHaveProperty('edit_history');
    setRealmSettings(server, { message_edit_history_visibility_policy: 'all' });
  });
});

describe('privacy', () => {
  let secretChannel: number;
  let secretMessage: number;

  beforeAll(async () => {
    secretChannel = await createChannel(
      server,
      server.client('owner'),
      'secret-plans',
      [uid.owner, uid.emma],
      { invite_only: true, history_public_to_subscribers: true },
    );
    secretMessage = await sendToChannel(
      server.client('owner'),
      secretChannel,
      'plan',
      'the secret',
    );
  });

  it('gives non-subscribers nothing from a private channel through any read path', async () => {
    const dev = server.client('dev');
    const all = await dev.get('/messages', { anchor: 'newest', num_before: 1000, num_after: 0 });
    expect(ids(all)).not.toContain(secretMessage);
    const byId = await dev.get(`/messages/${secretMessage}`);
    expect(byId.status).toBe(400);
    expect(byId.body.msg).toBe('Invalid message(s)');
    const byIds = await dev.get('/messages', { message_ids: [secretMessage] });
    expect(ids(byIds)).toEqual([]);
    const narrowed = await dev.get('/messages', {
      anchor: 'newest',
      num_before: 10,
      num_after: 0,
      narrow: [{ operator: 'channel', operand: secretChannel }],
    });
    expect(narrowed.status).toBe(400);
    expect(narrowed.body.code).toBe('BAD_NARROW');
    const search = await dev.get('/messages', {
      anchor: 'newest',
      num_before: 10,
      num_after: 0,
      narrow: [{ operator: 'search', operand: 'secret' }],
    });
    expect(ids(search)).not.toContain(secretMessage);
    const matches = await dev.get('/messages/matches_narrow', {
      msg_ids: [secretMessage],
      narrow: [],
    });
    expect(matches.body.messages).toEqual({});
    // Even an administrator who is not subscribed cannot read the content.
    expect((await server.client('admin').get(`/messages/${secretMessage}`)).status).toBe(400);
    expect((await server.client('emma').get(`/messages/${secretMessage}`)).status).toBe(200);
  });

  it('shows a new subscriber earlier history only when history is public to subscribers', async () => {
    const owner = server.client('owner');
    const protectedId = await createChannel(server, owner, 'protected-history', [uid.owner], {
      invite_only: true,
      history_public_to_subscribers: false,
    });
    const before = await sendToChannel(owner, protectedId, 't', 'before farid joined');
    await owner.post('/users/me/subscriptions', {
      subscriptions: [{ name: 'protected-history' }, { name: 'secret-plans' }],
      principals: [uid.farid],
    });
    const after = await sendToChannel(owner, protectedId, 't', 'after farid joined');
    const farid = server.client('farid');
    const res = await farid.get('/messages', {
      anchor: 'newest',
      num_before: 10,
      num_after: 0,
      narrow: [{ operator: 'channel', operand: protectedId }],
    });
    expect(ids(res)).toEqual([after]);
    expect(ids(await farid.get('/messages', { message_ids: [before] }))).toEqual([]);
    // Shared history: the earlier secret message is readable now, as historical.
    const shared = await farid.get('/messages', { message_ids: [secretMessage] });
    expect(shared.body.messages[0].flags).toEqual(['read', 'historical']);
  });

  it('does not show guests public channels they are not subscribed to', async () => {
    const guest = server.client('guest');
    const res = await guest.get('/messages', { message_ids: range });
    expect(ids(res)).toEqual([]);
    const narrowed = await guest.get('/messages', {
      anchor: 'newest',
      num_before: 5,
      num_after: 0,
      narrow: inRange,
    });
    expect(narrowed.body.code).toBe('BAD_NARROW');
  });
});

describe('demo history', () => {
  it('seeds channel history, unread messages for the owner and a resolved topic', async () => {
    const owner = server.client('owner');
    const state = await owner.post('/register', {
      fetch_event_types: ['message', 'update_message_flags'],
    });
    expect(state.body.unread_msgs.count).toBeGreaterThan(0);
    const resolved = await fetchMessages(owner, {
      narrow: [{ operator: 'is', operand: 'resolved' }],
    });
    expect(resolved.body.messages.length).toBeGreaterThan(0);
    const general = await fetchMessages(owner, {
      num_before: 1000,
      narrow: [{ operator: 'channel', operand: 'general' }],
    });
    expect(general.body.messages.length).toBeGreaterThan(50);
    expect(general.body.messages.some((m: { edit_history?: unknown }) => m.edit_history)).toBe(
      true,
    );
  });
});
