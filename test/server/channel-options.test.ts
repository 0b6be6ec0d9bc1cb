// Less travelled options of the channel endpoints: GET /streams include_web_public; POST
// /users/me/subscriptions announce, is_web_public and is_default_stream (with the default_streams
// event); and the include_deactivated_groups capability of POST /register.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../support/server';
import { registerQueue } from '../support/events';

let server: TestServer;

beforeAll(async () => {
  server = await startTestServer({ seed: 'demo' });
});
afterAll(async () => {
  await server.close();
});

const names = (streams: Array<{ name: string }>) => streams.map((s) => s.name).sort();

/** Whether the channel exists (the owner administers every channel, so sees them all). */
async function channelExists(name: string): Promise<boolean> {
  const res = await server.client('owner').get('/get_stream_id', { stream: name });
  return res.status === 200;
}

async function newestMessageId(): Promise<number> {
  const res = await server.client('owner').get('/messages', {
    anchor: 'newest',
    num_before: 1,
    num_after: 0,
  });
  return res.body.messages.at(-1).id as number;
}

describe('GET /streams include_web_public', () => {
  it('lists web-public channels only when asked', async () => {
    const dev = server.client('dev');
    const only = { include_public: false, include_subscribed: false };
    const none = await dev.get('/streams', { ...only, include_web_public: true });
    expect(none.status).toBe(200);
    expect(none.body.streams).toEqual([]);
    // Web-public channels cannot be made through the API here (refused below), so one is marked in
    // the database to check the filter itself.
    server.server.db.prepare("UPDATE channels SET is_web_public = 1 WHERE name = 'random'").run();
    try {
      const listed = await dev.get('/streams', { ...only, include_web_public: true });
      expect(names(listed.body.streams)).toEqual(['random']);
      expect(listed.body.streams[0].is_web_public).toBe(true);
      expect((await dev.get('/streams', only)).body.streams).toEqual([]);
    } finally {
      server.server.db.prepare("UPDATE channels SET is_web_public = 0 WHERE name = 'random'").run();
    }
  });
});

describe('POST /users/me/subscriptions options', () => {
  it('accepts announce without posting (new-channel announcements are disabled)', async () => {
    const before = await newestMessageId();
    const res = await server.client('emma').post('/users/me/subscriptions', {
      subscriptions: [{ name: 'announced-room' }],
      announce: true,
    });
    expect(res.status, res.text).toBe(200);
    expect(res.body).not.toHaveProperty('ignored_parameters_unsupported');
    expect(res.body.subscribed[String(server.users.emma.user_id)]).toEqual(['announced-room']);
    expect(await newestMessageId()).toBe(before);
  });

  it('refuses is_web_public and creates nothing', async () => {
    const res = await server.client('admin').post('/users/me/subscriptions', {
      subscriptions: [{ name: 'on-the-web' }],
      is_web_public: true,
    });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({
      code: 'BAD_REQUEST',
      msg: 'Web-public channels are not enabled.',
    });
    expect(await channelExists('on-the-web')).toBe(false);
  });

  it('creates a default channel for administrators only, announced by default_streams', async () => {
    const member = await server.client('dev').post('/users/me/subscriptions', {
      subscriptions: [{ name: 'members-default' }],
      is_default_stream: true,
    });
    expect(member.status).toBe(400);
    expect(member.body.msg).toBe('Must be an organization administrator');
    const privateDefault = await server.client('admin').post('/users/me/subscriptions', {
      subscriptions: [{ name: 'secret-default' }],
      is_default_stream: true,
      invite_only: true,
    });
    expect(privateDefault.status).toBe(400);
    expect(await channelExists('members-default')).toBe(false);
    expect(await channelExists('secret-default')).toBe(false);

    const q = await registerQueue(server.client('farid'), { event_types: ['default_streams'] });
    const before = q.state.realm_default_streams as number[];
    const res = await server.client('admin').post('/users/me/subscriptions', {
      subscriptions: [{ name: 'onboarding' }],
      is_default_stream: true,
    });
    expect(res.status, res.text).toBe(200);
    const id = (await server.client('admin').get('/get_stream_id', { stream: 'onboarding' })).body
      .stream_id as number;
    const event = await q.waitFor((e) => e.type === 'default_streams');
    expect([...event.default_streams].sort()).toEqual([...before, id].sort());
    const state = await server
      .client('dev')
      .post('/register', { fetch_event_types: ['default_streams'] });
    expect(state.body.realm_default_streams).toContain(id);
    const listed = await server.client('dev').get('/streams', { include_default: true });
    expect(
      listed.body.streams.find((s: { stream_id: number }) => s.stream_id === id),
    ).toMatchObject({
      is_default: true,
    });
  });
});

describe('include_deactivated_groups capability', () => {
  it('lists deactivated groups only to clients that declare it', async () => {
    const created = await server.client('dev').post('/user_groups/create', {
      name: 'retired-crew',
      description: 'gone',
      members: [server.users.dev.user_id],
    });
    expect(created.status, created.text).toBe(200);
    const groupId = created.body.group_id as number;
    // No endpoint deactivates groups at this feature level; the row is marked directly.
    server.server.db.prepare('UPDATE user_groups SET deactivated = 1 WHERE id = ?').run(groupId);

    const fetchGroups = (capable: boolean) =>
      server.client('emma').post('/register', {
        fetch_event_types: ['realm_user_groups'],
        ...(capable ? { client_capabilities: { include_deactivated_groups: true } } : {}),
      });
    const ids = (groups: Array<{ id: number }>) => groups.map((g) => g.id);
    const legacy = await fetchGroups(false);
    expect(ids(legacy.body.realm_user_groups)).not.toContain(groupId);
    const modern = await fetchGroups(true);
    expect(modern.body.realm_user_groups).toContainEqual(
      expect.objectContaining({ id: groupId, name: 'retired-crew', deactivated: true }),
    );
    expect(ids((await server.client('emma').get('/user_groups')).body.user_groups)).not.toContain(
      groupId,
    );
    expect(
      ids(
        (await server.client('emma').get('/user_groups', { include_deactivated_groups: true })).body
          .user_groups,
      ),
    ).toContain(groupId);
  });
});
