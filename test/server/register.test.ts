// POST /register: the initial state, fetch_event_types filtering, capabilities and limits.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../support/server';

let server: TestServer;

beforeAll(async () => {
  server = await startTestServer({ maxFileUploadSizeMib: 7 });
});
afterAll(async () => {
  await server.close();
});

describe('POST /register', () => {
  it('returns the queue, versioning keys, limits and realm settings', async () => {
    const res = await server.client('dev').post('/register');
    expect(res.status).toBe(200);
    const state = res.body;
    expect(state.queue_id).toEqual(expect.any(String));
    expect(state.last_event_id).toBe(-1);
    expect(state.zulip_feature_level).toBeGreaterThanOrEqual(400);
    expect(state.zulip_version).toEqual(expect.any(String));
    expect(state.zulip_merge_base).toBe('');
    expect(state).toMatchObject({
      max_message_length: 10000,
      max_topic_length: 60,
      max_stream_name_length: 60,
      max_stream_description_length: 1024,
      max_file_upload_size_mib: 7,
      event_queue_longpoll_timeout_seconds: 90,
      server_typing_started_expiry_period_milliseconds: 45000,
      server_typing_stopped_wait_period_milliseconds: 12000,
      server_typing_started_wait_period_milliseconds: 30000,
      realm_name: 'Tributary demo',
      realm_url: server.url,
      realm_allow_message_editing: true,
      realm_message_content_edit_limit_seconds: 600,
      realm_empty_topic_display_name: 'general chat',
      realm_emoji: {},
    });
    expect(state.max_message_id).toEqual(expect.any(Number));
    for (const key of [
      'realm_move_messages_within_stream_limit_seconds',
      'realm_move_messages_between_streams_limit_seconds',
      'realm_message_content_delete_limit_seconds',
      'realm_can_resolve_topics_group',
      'realm_can_move_messages_between_channels_group',
      'realm_can_move_messages_between_topics_group',
      'realm_can_mention_many_users_group',
    ]) {
      expect(state).toHaveProperty(key);
    }
  });

  it('returns the current user and the realm users', async () => {
    const { body } = await server.client('moderator').post('/register');
    expect(body).toMatchObject({
      user_id: server.users.moderator.user_id,
      email: 'moderator@tributary.local',
      full_name: 'Maya Moderator',
      is_admin: false,
      is_moderator: true,
      is_owner: false,
      is_guest: false,
      role: 300,
    });
    const ids = body.realm_users.map((u: { user_id: number }) => u.user_id);
    // The seeded people and bots.
    expect(ids).toEqual(expect.arrayContaining(Object.values(server.users).map((u) => u.user_id)));
    expect(body.realm_non_active_users).toEqual([]);
    // The only cross-realm bot is the Notification Bot (a system bot, not a realm member).
    expect(
      body.cross_realm_bots.map((u: { email: string; is_system_bot: boolean }) => [
        u.email,
        u.is_system_bot,
      ]),
    ).toEqual([['notification-bot@tributary.local', true]]);
    const bot = body.realm_users.find(
      (u: { user_id: number }) => u.user_id === server.users.helperBot.user_id,
    );
    expect(bot).toMatchObject({
      is_bot: true,
      bot_type: 1,
      bot_owner_id: server.users.dev.user_id,
    });
  });

  it('returns subscriptions, unsubscribed, never_subscribed and streams per privacy', async () => {
    const member = (await server.client('dev').post('/register')).body;
    const subscribed = member.subscriptions.map((s: { name: string }) => s.name).sort();
    expect(subscribed).toEqual(['announcements', 'design', 'general', 'random']);
    expect(member.never_subscribed.map((s: { name: string }) => s.name)).toEqual([]);
    // The private staff channel is invisible to a member everywhere.
    expect(member.streams.map((s: { name: string }) => s.name)).not.toContain('leadership');

    const moderator = (await server.client('moderator').post('/register')).body;
    expect(moderator.never_subscribed.map((s: { name: string }) => s.name)).toEqual(['design']);

    const guest = (await server.client('guest').post('/register')).body;
    expect(guest.streams.map((s: { name: string }) => s.name).sort()).toEqual([
      'announcements',
      'general',
    ]);
    expect(guest.never_subscribed).toEqual([]);

    const admin = (await server.client('admin').post('/register')).body;
    expect(admin.subscriptions.map((s: { name: string }) => s.name)).toContain('leadership');
    const sub = admin.subscriptions.find((s: { name: string }) => s.name === 'leadership');
    expect(sub).toMatchObject({
      invite_only: true,
      is_muted: false,
      in_home_view: true,
      pin_to_top: false,
    });
    expect(sub.color).toMatch(/^#[0-9a-f]{6}$/);
  });

  it('honours fetch_event_types', async () => {
    const { body } = await server.client('dev').post('/register', {
      event_types: ['message', 'subscription'],
      fetch_event_types: ['drafts', 'user_status'],
    });
    expect(body.drafts).toEqual([]);
    expect(body.user_status).toEqual({});
    expect(body).not.toHaveProperty('subscriptions');
    expect(body).not.toHaveProperty('realm_users');
    expect(body).not.toHaveProperty('max_message_length');
    expect(body).not.toHaveProperty('unread_msgs');
  });

  it('returns unread_msgs only when message and update_message_flags are both fetched', async () => {
    const both = await server.client('dev').post('/register', {
      fetch_event_types: ['message', 'update_message_flags'],
    });
    const unread = both.body.unread_msgs;
    expect(Object.keys(unread).sort()).toEqual([
      'count',
      'huddles',
      'mentions',
      'old_unreads_missing',
      'pms',
      'streams',
    ]);
    expect(unread.old_unreads_missing).toBe(false);
    const one = await server.client('dev').post('/register', { fetch_event_types: ['message'] });
    expect(one.body).not.toHaveProperty('unread_msgs');
    expect(one.body.max_message_id).toEqual(expect.any(Number));
  });

  it("builds unread_msgs from the caller's unread messages, sorted, with muting applied to count", async () => {
    const dev = server.client('dev');
    const before = (
      await dev.post('/register', { fetch_event_types: ['message', 'update_message_flags'] })
    ).body.unread_msgs;
    const emma = server.client('emma');
    const dm = await emma.post('/messages', {
      type: 'direct',
      to: [server.users.dev.user_id],
      content: 'psst',
    });
    const group = await emma.post('/messages', {
      type: 'direct',
      to: [server.users.dev.user_id, server.users.farid.user_id],
      content: 'all three of us',
    });
    const random = (await dev.get('/get_stream_id', { stream: 'random' })).body.stream_id;
    const mention = await emma.post('/messages', {
      type: 'stream',
      to: 'random',
      topic: 'unread test',
      content: '@**Dev Member** look',
    });
    for (const res of [dm, group, mention]) expect(res.status).toBe(200);
    const after = (
      await dev.post('/register', { fetch_event_types: ['message', 'update_message_flags'] })
    ).body.unread_msgs;
    const pm = after.pms.find(
      (p: { other_user_id: number }) => p.other_user_id === server.users.emma.user_id,
    );
    expect(pm.unread_message_ids).toContain(dm.body.id);
    expect(pm.sender_id).toBe(server.users.emma.user_id);
    const key = [server.users.dev.user_id, server.users.emma.user_id, server.users.farid.user_id]
      .sort((a, b) => a - b)
      .join(',');
    const huddle = after.huddles.find(
      (h: { user_ids_string: string }) => h.user_ids_string === key,
    );
    expect(huddle.unread_message_ids).toContain(group.body.id);
    const topic = after.streams.find(
      (s: { stream_id: number; topic: string }) =>
        s.stream_id === random && s.topic === 'unread test',
    );
    expect(topic.unread_message_ids).toEqual([mention.body.id]);
    expect(after.mentions).toContain(mention.body.id);
    expect(after.count).toBe(before.count + 3);
    for (const list of [
      after.mentions,
      ...after.streams.map((s: { unread_message_ids: number[] }) => s.unread_message_ids),
    ]) {
      expect([...list].sort((a: number, b: number) => a - b)).toEqual(list);
    }
    // The mention made dev follow the topic (automatically_follow_topics_where_mentioned).
    const topics = (await dev.post('/register', { fetch_event_types: ['user_topic'] })).body
      .user_topics;
    expect(topics).toContainEqual(
      expect.objectContaining({
        stream_id: random,
        topic_name: 'unread test',
        visibility_policy: 3,
      }),
    );
    // Muting the channel keeps its topics listed but drops them from count, except the followed one.
    await dev.post('/users/me/subscriptions/properties', {
      subscription_data: [{ stream_id: random, property: 'is_muted', value: true }],
    });
    const muted = (
      await dev.post('/register', { fetch_event_types: ['message', 'update_message_flags'] })
    ).body.unread_msgs;
    const randomUnreads = muted.streams
      .filter((s: { stream_id: number; topic: string }) => s.stream_id === random)
      .filter((s: { topic: string }) => s.topic !== 'unread test')
      .reduce(
        (n: number, s: { unread_message_ids: number[] }) => n + s.unread_message_ids.length,
        0,
      );
    expect(randomUnreads).toBeGreaterThan(0);
    expect(muted.count).toBe(after.count - randomUnreads);
    await dev.post('/users/me/subscriptions/properties', {
      subscription_data: [{ stream_id: random, property: 'is_muted', value: false }],
    });
    const recent = (
      await dev.post('/register', { fetch_event_types: ['recent_private_conversations'] })
    ).body.recent_private_conversations;
    expect(recent).toEqual(
      expect.arrayContaining([
        { max_message_id: dm.body.id, user_ids: [server.users.emma.user_id] },
        {
          max_message_id: group.body.id,
          user_ids: [server.users.emma.user_id, server.users.farid.user_id].sort((a, b) => a - b),
        },
      ]),
    );
    // Newest conversation first; a conversation the caller has no message in is not theirs.
    const newest = recent.map((r: { max_message_id: number }) => r.max_message_id);
    expect(newest).toEqual([...newest].sort((a, b) => b - a));
    expect(recent[0].max_message_id).toBe(group.body.id);
    const others = (
      await server.client('moderator').post('/register', {
        fetch_event_types: ['recent_private_conversations'],
      })
    ).body.recent_private_conversations;
    expect(others.map((r: { max_message_id: number }) => r.max_message_id)).not.toContain(
      group.body.id,
    );
  });

  it('returns user settings, defaults, groups, topics and the rest of the client state', async () => {
    const { body } = await server.client('dev').post('/register', {
      client_capabilities: { user_settings_object: true },
    });
    expect(body.user_settings).toMatchObject({
      enable_drafts_synchronization: true,
      web_home_view: 'inbox',
    });
    // With user_settings_object the legacy top-level copies are left out.
    expect(body).not.toHaveProperty('web_home_view');
    expect(body.realm_user_settings_defaults).toMatchObject({ web_font_size_px: 16 });
    const groups = body.realm_user_groups.map((g: { name: string }) => g.name);
    expect(groups).toEqual(
      expect.arrayContaining([
        'role:owners',
        'role:administrators',
        'role:moderators',
        'role:members',
        'role:fullmembers',
        'role:everyone',
        'role:internet',
        'role:nobody',
      ]),
    );
    const owners = body.realm_user_groups.find((g: { name: string }) => g.name === 'role:owners');
    expect(owners.members).toEqual([server.users.owner.user_id]);
    expect(body.user_topics).toEqual(expect.any(Array));
    expect(body.recent_private_conversations).toEqual(expect.any(Array));
    expect(body.starred_messages).toEqual(expect.any(Array));
    expect(body.custom_profile_fields.map((f: { name: string }) => f.name)).toEqual([
      'Pronouns',
      'Title',
      'About me',
      'Team',
      'Mentor',
      'GitHub',
    ]);
    expect(body.custom_profile_field_types).toHaveProperty('SHORT_TEXT');
  });

  it('gives null avatar_url only when client_extavatar is on', async () => {
    const on = (await server.client('dev').post('/register', { fetch_event_types: ['realm_user'] }))
      .body;
    expect(on.realm_users[0].avatar_url).toBeNull();
    const off = (
      await server
        .client('dev')
        .post('/register', { fetch_event_types: ['realm_user'], client_extavatar: false })
    ).body;
    expect(off.realm_users[0].avatar_url).toEqual(expect.stringContaining('https://'));
  });

  it('substitutes inherited notification settings unless notification_settings_null', async () => {
    const legacy = (
      await server.client('dev').post('/register', { fetch_event_types: ['subscription'] })
    ).body;
    expect(legacy.subscriptions[0].desktop_notifications).toBe(false);
    expect(legacy.subscriptions[0].wildcard_mentions_notify).toBe(true);
    const modern = (
      await server.client('dev').post('/register', {
        fetch_event_types: ['subscription'],
        client_capabilities: { notification_settings_null: true },
      })
    ).body;
    expect(modern.subscriptions[0].desktop_notifications).toBeNull();
  });

  it('returns the empty forms of features the local realm does not have', async () => {
    const { body } = await server.client('dev').post('/register');
    expect(body).toMatchObject({
      presences: {},
      alert_words: [],
      muted_users: [],
      realm_linkifiers: [],
      realm_playgrounds: [],
      realm_domains: [],
      scheduled_messages: [],
      realm_default_stream_groups: [],
    });
    // Each under the event type the public server files it under (zerver/lib/events.py).
    const asked = await server
      .client('dev')
      .post('/register', { fetch_event_types: ['default_stream_groups'] });
    expect(asked.body.realm_default_stream_groups).toEqual([]);
  });

  it('rejects a narrow with an unsupported operator', async () => {
    const res = await server.client('dev').post('/register', { narrow: [['search', 'x']] });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ code: 'BAD_REQUEST', msg: 'Operator search not supported.' });
  });
});
