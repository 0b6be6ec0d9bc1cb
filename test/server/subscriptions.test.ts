// Channels and subscriptions: GET /streams, GET/POST/DELETE /users/me/subscriptions,
// POST /users/me/subscriptions/properties, their events, and channel privacy.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../support/server';
import { registerQueue } from '../support/events';

let server: TestServer;

beforeAll(async () => {
  server = await startTestServer();
});
afterAll(async () => {
  await server.close();
});

const names = (list: Array<{ name: string }>) => list.map((s) => s.name).sort();

async function channelId(name: string): Promise<number> {
  const res = await server.client('owner').get('/streams', { include_all: true });
  return res.body.streams.find((s: { name: string }) => s.name === name).stream_id;
}

describe('GET /streams', () => {
  it('lists public and subscribed channels with every field', async () => {
    const res = await server.client('dev').get('/streams');
    expect(res.status).toBe(200);
    expect(names(res.body.streams)).toEqual(['announcements', 'design', 'general', 'random']);
    const general = res.body.streams.find((s: { name: string }) => s.name === 'general');
    expect(general).toMatchObject({
      is_archived: false,
      description: 'Everything about **everything**.',
      rendered_description: '<p>Everything about <strong>everything</strong>.</p>',
      invite_only: false,
      is_web_public: false,
      history_public_to_subscribers: true,
      topics_policy: 'inherit',
      folder_id: null,
      message_retention_days: null,
      creator_id: server.users.owner.user_id,
    });
    for (const key of [
      'stream_id',
      'date_created',
      'is_recently_active',
      'stream_post_policy',
      'first_message_id',
      'is_announcement_only',
    ]) {
      expect(general).toHaveProperty(key);
    }
    for (const key of [
      'can_add_subscribers_group',
      'can_remove_subscribers_group',
      'can_administer_channel_group',
    ]) {
      expect(typeof general[key]).toBe('number');
    }
    const announcements = res.body.streams.find(
      (s: { name: string }) => s.name === 'announcements',
    );
    expect(announcements).toMatchObject({ stream_post_policy: 2, is_announcement_only: true });
  });

  it('hides private channels from members even with include_all, shows them to administrators', async () => {
    const member = await server.client('dev').get('/streams', { include_all: true });
    expect(names(member.body.streams)).not.toContain('leadership');
    const admin = await server.client('admin').get('/streams', { include_all: true });
    expect(names(admin.body.streams)).toContain('leadership');
  });

  it('shows a guest only their subscriptions', async () => {
    const res = await server
      .client('guest')
      .get('/streams', { include_public: true, include_all: true });
    expect(names(res.body.streams)).toEqual(['announcements', 'general']);
  });

  it('filters with include_public / include_subscribed / include_default', async () => {
    const subscribedOnly = await server
      .client('moderator')
      .get('/streams', { include_public: false });
    expect(names(subscribedOnly.body.streams)).toEqual([
      'announcements',
      'general',
      'leadership',
      'random',
    ]);
    const defaults = await server.client('dev').get('/streams', {
      include_public: false,
      include_subscribed: false,
      include_default: true,
    });
    expect(names(defaults.body.streams)).toEqual(['announcements', 'general']);
    expect(defaults.body.streams[0].is_default).toBe(true);
  });

  it("lists the owner's channels for a bot with include_owner_subscribed", async () => {
    const bot = await server.client('helperBot').get('/streams', {
      include_public: false,
      include_owner_subscribed: true,
    });
    // helperBot is subscribed to general itself; its owner dev adds design, random, announcements.
    expect(names(bot.body.streams)).toEqual(['announcements', 'design', 'general', 'random']);
    const human = await server.client('emma').get('/streams', {
      include_public: false,
      include_subscribed: false,
      include_owner_subscribed: true,
    });
    expect(human.body.streams).toEqual([]);
  });

  it('lists channels whose content the user can read with include_can_access_content', async () => {
    const res = await server.client('moderator').get('/streams', {
      include_public: false,
      include_subscribed: false,
      include_can_access_content: true,
    });
    // Every public channel plus the private one the moderator is subscribed to.
    expect(names(res.body.streams)).toEqual(
      expect.arrayContaining(['announcements', 'design', 'general', 'leadership', 'random']),
    );
    const guest = await server.client('guest').get('/streams', {
      include_public: false,
      include_subscribed: false,
      include_can_access_content: true,
    });
    expect(names(guest.body.streams)).toEqual(['announcements', 'general']);
  });

  it('refuses include_all_active for non-administrators', async () => {
    const res = await server.client('dev').get('/streams', { include_all_active: true });
    expect(res.status).toBe(400);
    expect(res.body.code).toBe('BAD_REQUEST');
  });
});

describe('POST /users/me/subscriptions', () => {
  it('creates a channel, subscribes, and sends stream create, subscription add and peer_add', async () => {
    const emmaQueue = await registerQueue(server.client('emma'), {
      event_types: ['stream', 'subscription'],
    });
    const faridQueue = await registerQueue(server.client('farid'), {
      event_types: ['stream', 'subscription'],
    });
    const guestQueue = await registerQueue(server.client('guest'), {
      event_types: ['stream', 'subscription'],
    });
    const res = await server.client('emma').post('/users/me/subscriptions', {
      subscriptions: [{ name: 'rust', description: 'All things *crab*' }],
      principals: [server.users.emma.user_id, server.users.dev.user_id],
    });
    expect(res.status).toBe(200);
    expect(res.body.subscribed).toEqual({
      [String(server.users.emma.user_id)]: ['rust'],
      [String(server.users.dev.user_id)]: ['rust'],
    });
    expect(res.body.already_subscribed).toEqual({});
    expect(res.body).not.toHaveProperty('unauthorized');

    const create = await emmaQueue.waitFor((e) => e.type === 'stream');
    expect(create).toMatchObject({
      op: 'create',
      streams: [{ name: 'rust', rendered_description: '<p>All things <em>crab</em></p>' }],
    });
    const add = await emmaQueue.waitFor((e) => e.type === 'subscription' && e.op === 'add');
    expect(add.subscriptions[0]).toMatchObject({
      name: 'rust',
      subscribers: expect.arrayContaining([server.users.dev.user_id]),
    });
    const peer = await faridQueue.waitFor((e) => e.type === 'subscription');
    // farid sees the creation first, then the peer_add for the two new subscribers.
    expect(peer).toMatchObject({ op: 'peer_add' });
    expect(peer.user_ids.sort()).toEqual(
      [server.users.dev.user_id, server.users.emma.user_id].sort(),
    );
    // A guest sees neither a public channel's creation nor its subscribers.
    expect(await guestQueue.poll()).toEqual([]);
  });

  it('reports already_subscribed and keeps the response keyed by user id', async () => {
    const res = await server
      .client('dev')
      .post('/users/me/subscriptions', { subscriptions: [{ name: 'general' }] });
    expect(res.body.subscribed).toEqual({});
    expect(res.body.already_subscribed).toEqual({
      [String(server.users.dev.user_id)]: ['general'],
    });
  });

  it('creates a private channel visible only to its subscribers and administrators', async () => {
    const devQueue = await registerQueue(server.client('dev'), { event_types: ['stream'] });
    const res = await server.client('emma').post('/users/me/subscriptions', {
      subscriptions: [{ name: 'secret-plans' }],
      invite_only: true,
    });
    expect(res.status).toBe(200);
    const devStreams = await server.client('dev').get('/streams', { include_all: true });
    expect(names(devStreams.body.streams)).not.toContain('secret-plans');
    const adminStreams = await server.client('admin').get('/streams', { include_all: true });
    const created = adminStreams.body.streams.find(
      (s: { name: string }) => s.name === 'secret-plans',
    );
    expect(created).toMatchObject({ invite_only: true, history_public_to_subscribers: false });
    expect(await devQueue.poll()).toEqual([]);
  });

  it('refuses to subscribe a member to a private channel (fatal and non-fatal)', async () => {
    const fatal = await server
      .client('dev')
      .post('/users/me/subscriptions', { subscriptions: [{ name: 'leadership' }] });
    expect(fatal.status).toBe(400);
    expect(fatal.body.code).toBe('BAD_REQUEST');
    const soft = await server.client('dev').post('/users/me/subscriptions', {
      subscriptions: [{ name: 'leadership' }, { name: 'random' }],
      authorization_errors_fatal: false,
    });
    expect(soft.status).toBe(200);
    expect(soft.body.unauthorized).toEqual(['leadership']);
    const leadership = await channelId('leadership');
    const members = await server.client('admin').get(`/streams/${leadership}/members`);
    expect(members.body.subscribers).not.toContain(server.users.dev.user_id);
  });

  it('does not let a guest create channels or join public ones', async () => {
    const res = await server.client('guest').post('/users/me/subscriptions', {
      subscriptions: [{ name: 'guest-made' }],
    });
    expect(res.status).toBe(400);
    const join = await server
      .client('guest')
      .post('/users/me/subscriptions', { subscriptions: [{ name: 'random' }] });
    expect(join.status).toBe(400);
    const all = await server.client('owner').get('/streams', { include_all: true });
    expect(names(all.body.streams)).not.toContain('guest-made');
  });

  it('rejects invalid principals and names with nothing stored', async () => {
    const badUser = await server.client('owner').post('/users/me/subscriptions', {
      subscriptions: [{ name: 'never-created' }],
      principals: [99999],
    });
    expect(badUser.status).toBe(400);
    expect(badUser.body.code).toBe('BAD_REQUEST');
    const tooLong = await server.client('owner').post('/users/me/subscriptions', {
      subscriptions: [{ name: 'x'.repeat(61) }],
    });
    expect(tooLong.status).toBe(400);
    const blank = await server
      .client('owner')
      .post('/users/me/subscriptions', { subscriptions: [{ name: '  ' }] });
    expect(blank.status).toBe(400);
    const missing = await server.client('owner').post('/users/me/subscriptions', {});
    expect(missing.body).toMatchObject({
      code: 'REQUEST_VARIABLE_MISSING',
      var_name: 'subscriptions',
    });
    const all = await server.client('owner').get('/streams', { include_all: true });
    expect(names(all.body.streams)).not.toContain('never-created');
  });

  it('applies creation parameters: topics_policy, retention (owners only), group settings', async () => {
    const denied = await server.client('dev').post('/users/me/subscriptions', {
      subscriptions: [{ name: 'short-lived' }],
      message_retention_days: 30,
    });
    expect(denied.status).toBe(400);
    const res = await server.client('owner').post('/users/me/subscriptions', {
      subscriptions: [{ name: 'short-lived' }],
      message_retention_days: 30,
      topics_policy: 'disable_empty_topic',
      can_administer_channel_group: {
        direct_members: [server.users.dev.user_id],
        direct_subgroups: [],
      },
    });
    expect(res.status).toBe(200);
    const stream = (await server.client('owner').get('/streams')).body.streams.find(
      (s: { name: string }) => s.name === 'short-lived',
    );
    expect(stream).toMatchObject({
      message_retention_days: 30,
      topics_policy: 'disable_empty_topic',
      can_administer_channel_group: {
        direct_members: [server.users.dev.user_id],
        direct_subgroups: [],
      },
    });
  });

  it('lets an administrator subscribe others, and a member add others to a public channel', async () => {
    const res = await server.client('dev').post('/users/me/subscriptions', {
      subscriptions: [{ name: 'design' }],
      principals: ['moderator@tributary.local'],
    });
    expect(res.status).toBe(200);
    expect(res.body.subscribed).toEqual({ [String(server.users.moderator.user_id)]: ['design'] });
  });
});

describe('GET and DELETE /users/me/subscriptions', () => {
  it('lists subscriptions, with subscribers on request', async () => {
    const res = await server
      .client('farid')
      .get('/users/me/subscriptions', { include_subscribers: true });
    expect(res.status).toBe(200);
    const general = res.body.subscriptions.find((s: { name: string }) => s.name === 'general');
    expect(general.subscribers).toContain(server.users.guest.user_id);
    const plain = await server.client('farid').get('/users/me/subscriptions');
    expect(plain.body.subscriptions[0]).not.toHaveProperty('subscribers');
  });

  it('unsubscribes with removed / not_removed and remove + peer_remove events', async () => {
    await server
      .client('farid')
      .post('/users/me/subscriptions', { subscriptions: [{ name: 'leave-me' }] });
    const faridQueue = await registerQueue(server.client('farid'), {
      event_types: ['subscription'],
    });
    const devQueue = await registerQueue(server.client('dev'), { event_types: ['subscription'] });
    const res = await server.client('farid').delete('/users/me/subscriptions', {
      subscriptions: ['leave-me', 'design'],
    });
    expect(res.status).toBe(200);
    expect(res.body.removed.sort()).toEqual(['design', 'leave-me']);
    expect(res.body.not_removed).toEqual([]);
    const removed = await faridQueue.next();
    expect(
      removed
        .filter((e) => e.op === 'remove')
        .flatMap((e) => e.subscriptions.map((sub: { name: string }) => sub.name))
        .sort(),
    ).toEqual(['design', 'leave-me']);
    // One event for both channels, as the public server sends a user's removals.
    expect(removed.filter((e) => e.op === 'remove')).toHaveLength(1);
    const peer = await devQueue.waitFor((e) => e.op === 'peer_remove');
    expect(peer.user_ids).toEqual([server.users.farid.user_id]);

    const again = await server
      .client('farid')
      .delete('/users/me/subscriptions', { subscriptions: ['leave-me'] });
    expect(again.body).toMatchObject({ removed: [], not_removed: ['leave-me'] });
    const register = await server
      .client('farid')
      .post('/register', { fetch_event_types: ['subscription'] });
    expect(names(register.body.unsubscribed)).toEqual(['design', 'leave-me']);
  });

  it('refuses to remove others without permission and rejects unknown channels', async () => {
    const other = await server.client('dev').delete('/users/me/subscriptions', {
      subscriptions: ['general'],
      principals: [server.users.emma.user_id],
    });
    expect(other.status).toBe(400);
    const unknown = await server
      .client('dev')
      .delete('/users/me/subscriptions', { subscriptions: ['no-such'] });
    expect(unknown.status).toBe(400);
    expect(unknown.body).toMatchObject({ code: 'STREAM_DOES_NOT_EXIST', stream: 'no-such' });
    const hidden = await server
      .client('dev')
      .delete('/users/me/subscriptions', { subscriptions: ['leadership'] });
    expect(hidden.body.code).toBe('STREAM_DOES_NOT_EXIST');
    const admin = await server.client('admin').delete('/users/me/subscriptions', {
      subscriptions: ['random'],
      principals: [server.users.emma.user_id],
    });
    expect(admin.body.removed).toEqual(['random']);
  });
});

describe('POST /users/me/subscriptions/properties', () => {
  it('updates properties and sends two events for is_muted', async () => {
    const general = await channelId('general');
    const q = await registerQueue(server.client('dev'), { event_types: ['subscription'] });
    const res = await server.client('dev').post('/users/me/subscriptions/properties', {
      subscription_data: [
        { stream_id: general, property: 'is_muted', value: true },
        { stream_id: general, property: 'color', value: '#AABBCC' },
        { stream_id: general, property: 'desktop_notifications', value: true },
      ],
    });
    expect(res.status).toBe(200);
    const events = await q.next();
    expect(events.map((e) => [e.op, e.property, e.value])).toEqual([
      ['update', 'in_home_view', false],
      ['update', 'is_muted', true],
      ['update', 'color', '#aabbcc'],
      ['update', 'desktop_notifications', true],
    ]);
    const subs = await server.client('dev').get('/users/me/subscriptions');
    const sub = subs.body.subscriptions.find((s: { stream_id: number }) => s.stream_id === general);
    expect(sub).toMatchObject({
      is_muted: true,
      in_home_view: false,
      color: '#aabbcc',
      desktop_notifications: true,
    });

    await server.client('dev').post('/users/me/subscriptions/properties', {
      subscription_data: [{ stream_id: general, property: 'in_home_view', value: true }],
    });
    const after = await q.next();
    expect(after.map((e) => [e.property, e.value])).toEqual([
      ['in_home_view', true],
      ['is_muted', false],
    ]);
  });

  it('rejects bad properties, values and channels without changing anything', async () => {
    const general = await channelId('general');
    const leadership = await channelId('leadership');
    const cases = [
      [{ stream_id: general, property: 'volume', value: true }],
      [{ stream_id: general, property: 'color', value: 'red' }],
      [{ stream_id: general, property: 'pin_to_top', value: 'yes' }],
      [{ stream_id: leadership, property: 'pin_to_top', value: true }],
      // One bad item spoils the whole batch.
      [
        { stream_id: general, property: 'pin_to_top', value: true },
        { stream_id: general, property: 'bogus', value: true },
      ],
    ];
    for (const data of cases) {
      const res = await server
        .client('emma')
        .post('/users/me/subscriptions/properties', { subscription_data: data });
      expect(res.status).toBe(400);
      expect(res.body.code).toBe('BAD_REQUEST');
    }
    const subs = await server.client('emma').get('/users/me/subscriptions');
    const sub = subs.body.subscriptions.find((s: { stream_id: number }) => s.stream_id === general);
    expect(sub.pin_to_top).toBe(false);
  });
});
