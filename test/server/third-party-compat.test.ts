// What third-party clients (terminal clients, zulip-js) rely on and the local server used to get
// wrong (issue #13): deprecated register keys, use_first_unread_anchor, your own avatar_url, and
// user lookups by email, statuses and subscription checks of other users.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../support/server';
import { registerQueue } from '../support/events';
import { sendToChannel, topicNarrow } from './messages-support';

let server: TestServer;
let channelIds: Record<string, number>;

beforeAll(async () => {
  server = await startTestServer();
  channelIds = Object.fromEntries(
    server.server.db
      .prepare<[], { id: number; name: string }>('SELECT id, name FROM channels')
      .all()
      .map((row) => [row.name, row.id]),
  );
});
afterAll(async () => {
  await server.close();
});

describe('POST /register: deprecated keys', () => {
  it('sends muted_topics as [[channel, topic, timestamp]] unless user_topic is asked for too', async () => {
    const dev = server.client('dev');
    const mute = await dev.post('/user_topics', {
      stream_id: channelIds.general,
      topic: 'noisy builds',
      visibility_policy: 1,
    });
    expect(mute.status, mute.text).toBe(200);
    // Followed topics are not muted topics.
    await dev.post('/user_topics', {
      stream_id: channelIds.design,
      topic: 'followed one',
      visibility_policy: 3,
    });

    const everything = (await dev.post('/register', {})).body;
    const userTopics = everything.user_topics as {
      stream_id: number;
      topic_name: string;
      last_updated: number;
      visibility_policy: number;
    }[];
    const names = new Map(Object.entries(channelIds).map(([name, id]) => [id, name]));
    const expected = userTopics
      .filter((t) => t.visibility_policy === 1)
      .map((t) => [names.get(t.stream_id), t.topic_name, t.last_updated]);
    expect(expected).toContainEqual(['general', 'noisy builds', expect.any(Number)]);
    expect(expected).not.toContainEqual(['design', 'followed one', expect.any(Number)]);
    expect(everything.muted_topics).toEqual(expected);

    const legacy = (await dev.post('/register', { fetch_event_types: ['muted_topics'] })).body;
    expect(legacy.muted_topics).toEqual(everything.muted_topics);
    expect(legacy).not.toHaveProperty('user_topics');

    const modern = (
      await dev.post('/register', { fetch_event_types: ['muted_topics', 'user_topic'] })
    ).body;
    expect(modern).not.toHaveProperty('muted_topics');
    expect(modern.user_topics).toEqual(userTopics);

    const other = (await dev.post('/register', { fetch_event_types: ['realm'] })).body;
    expect(other).not.toHaveProperty('muted_topics');
  });

  it('sends muted_topics events to queues that did not ask for user_topic by name', async () => {
    const emma = server.client('emma');
    const legacyQueue = await registerQueue(emma, {});
    const modernQueue = await registerQueue(emma, { event_types: ['user_topic', 'muted_topics'] });
    await emma.post('/user_topics', {
      stream_id: channelIds.random,
      topic: 'lunch orders',
      visibility_policy: 1,
    });
    const legacy = await legacyQueue.waitFor((e) => e.type === 'muted_topics');
    expect(legacy.muted_topics).toEqual([['random', 'lunch orders', expect.any(Number)]]);
    const modern = await modernQueue.next();
    expect(modern.map((e) => e.type)).toEqual(['user_topic']);
    expect(await modernQueue.poll()).toEqual([]);
  });

  it('sends realm_allow_edit_history, derived from the edit history policy', async () => {
    const state = (await server.client('dev').post('/register', { fetch_event_types: ['realm'] }))
      .body;
    expect(state.realm_message_edit_history_visibility_policy).toBe('all');
    expect(state.realm_allow_edit_history).toBe(true);
  });
});

describe('GET /messages: use_first_unread_anchor', () => {
  it('wins over an anchor sent with it', async () => {
    const emma = server.client('emma');
    const dev = server.client('dev');
    const ids = [];
    for (const content of ['one', 'two', 'three']) {
      ids.push(await sendToChannel(emma, 'general', 'first unread anchor', content));
    }
    const read = await dev.post('/messages/flags', {
      messages: [ids[0]],
      op: 'add',
      flag: 'read',
    });
    expect(read.status, read.text).toBe(200);
    const res = await dev.get('/messages', {
      anchor: 'newest',
      use_first_unread_anchor: true,
      num_before: 0,
      num_after: 10,
      narrow: topicNarrow('general', 'first unread anchor'),
    });
    expect(res.status, res.text).toBe(200);
    expect(res.body.anchor).toBe(ids[1]);
    expect((res.body.messages as { id: number }[]).map((m) => m.id)).toEqual([ids[1], ids[2]]);
  });
});

describe('your own avatar_url', () => {
  it('is a URL in register and GET /users/me even with client_gravatar (the default)', async () => {
    const dev = server.client('dev');
    const state = (await dev.post('/register', { fetch_event_types: ['realm_user'] })).body;
    expect(state.avatar_source).toBe('G');
    expect(state.avatar_url).toMatch(/^https:\/\/secure\.gravatar\.com\/avatar\/[0-9a-f]{32}\?/);
    const me = await dev.get('/users/me', { client_gravatar: true });
    expect(me.body.avatar_url).toBe(state.avatar_url);
    // Others' external avatars stay null for the client to compute, as the public server does.
    const others = state.realm_users as { user_id: number; avatar_url: string | null }[];
    expect(others.find((u) => u.user_id === server.userIds.emma)!.avatar_url).toBeNull();
  });
});

describe('GET /users/{email}', () => {
  it('finds a user by email, ignoring case', async () => {
    const res = await server.client('dev').get('/users/Emma@Tributary.Local');
    expect(res.status, res.text).toBe(200);
    expect(res.body.user).toMatchObject({ user_id: server.userIds.emma, full_name: 'Emma Member' });
  });

  it('answers "No such user" for an unknown email', async () => {
    const res = await server.client('dev').get('/users/nobody@tributary.local');
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ result: 'error', code: 'BAD_REQUEST', msg: 'No such user' });
  });
});

describe('GET /users/{user_id}/status', () => {
  it("returns another user's status in the register shape", async () => {
    await server
      .client('farid')
      .post('/users/me/status', { status_text: 'At the dentist', emoji_name: 'tooth' });
    const res = await server.client('dev').get(`/users/${server.userIds.farid}/status`);
    expect(res.status, res.text).toBe(200);
    expect(res.body.status).toEqual({
      status_text: 'At the dentist',
      emoji_name: 'tooth',
      emoji_code: expect.any(String),
      reaction_type: 'unicode_emoji',
    });
    const empty = await server.client('dev').get(`/users/${server.userIds.moderator}/status`);
    expect(empty.body.status).toEqual({});
  });

  it('refuses unknown users and bots with "No such user"', async () => {
    for (const id of [424242, server.userIds.helperBot]) {
      const res = await server.client('dev').get(`/users/${id}/status`);
      expect(res.status).toBe(400);
      expect(res.body).toMatchObject({ code: 'BAD_REQUEST', msg: 'No such user' });
    }
  });
});

describe('GET /users/{user_id}/subscriptions/{stream_id}', () => {
  it('tells whether another user is subscribed', async () => {
    const dev = server.client('dev');
    const yes = await dev.get(`/users/${server.userIds.emma}/subscriptions/${channelIds.design}`);
    expect(yes.status, yes.text).toBe(200);
    expect(yes.body.is_subscribed).toBe(true);
    const no = await dev.get(`/users/${server.userIds.guest}/subscriptions/${channelIds.design}`);
    expect(no.body.is_subscribed).toBe(false);
  });

  it('hides private channels from non-members but not from administrators', async () => {
    const path = `/users/${server.userIds.moderator}/subscriptions/${channelIds.leadership}`;
    const member = await server.client('dev').get(path);
    expect(member.status).toBe(400);
    expect(member.body).toMatchObject({ code: 'BAD_REQUEST', msg: 'Invalid channel ID' });
    const admin = await server.client('admin').get(path);
    expect(admin.body.is_subscribed).toBe(true);
  });

  it('answers the public errors for unknown users and channels', async () => {
    const dev = server.client('dev');
    const user = await dev.get(`/users/424242/subscriptions/${channelIds.general}`);
    expect(user.body).toMatchObject({ code: 'BAD_REQUEST', msg: 'No such user' });
    const channel = await dev.get(`/users/${server.userIds.emma}/subscriptions/424242`);
    expect(channel.body).toMatchObject({ code: 'BAD_REQUEST', msg: 'Invalid channel ID' });
  });
});
