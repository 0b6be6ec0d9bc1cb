// Users: GET /users, /users/me, /users/{id}, POST /users and the realm_user add event.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../support/server';
import { registerQueue } from '../support/events';
import {
  allUserRows,
  EMAIL_VISIBILITY_SQL,
  emailVisibilityByUser,
  getUserRow,
} from '../../server/resources/users/users-store';

let server: TestServer;

beforeAll(async () => {
  server = await startTestServer();
});
afterAll(async () => {
  await server.close();
});

/** The user as `viewer`'s register shows them in realm_users. */
async function userInRegister(
  viewer: Parameters<TestServer['client']>[0],
  userId: number,
): Promise<{ delivery_email: string | null }> {
  const res = await server.client(viewer).post('/register', { fetch_event_types: ['realm_user'] });
  return res.body.realm_users.find((u: { user_id: number }) => u.user_id === userId);
}

describe('reading users', () => {
  it('reads every user row with each column in its place', () => {
    const db = server.server.db;
    const rows = allUserRows(db);
    expect(rows.map((r) => r.id)).toEqual([...rows.map((r) => r.id)].sort((a, b) => a - b));
    expect(rows.length).toBe(
      db.prepare<[], { n: number }>('SELECT COUNT(*) AS n FROM users').get()!.n,
    );
    for (const row of rows) expect(row).toEqual(getUserRow(db, row.id));
  });

  it('GET /users lists every user with the 2.3 fields', async () => {
    const res = await server.client('dev').get('/users');
    expect(res.status).toBe(200);
    const ids = res.body.members.map((u: { user_id: number }) => u.user_id);
    expect(ids).toEqual(expect.arrayContaining(Object.values(server.users).map((u) => u.user_id)));
    // The Notification Bot is a cross-realm bot (register's cross_realm_bots), not a member.
    expect(res.body.members.map((u: { email: string }) => u.email)).not.toContain(
      'notification-bot@tributary.local',
    );
    const owner = res.body.members.find(
      (u: { user_id: number }) => u.user_id === server.users.owner.user_id,
    );
    expect(owner).toMatchObject({
      email: 'owner@tributary.local',
      delivery_email: 'owner@tributary.local',
      full_name: 'Olivia Owner',
      is_active: true,
      is_owner: true,
      is_admin: true,
      is_guest: false,
      is_bot: false,
      bot_type: null,
      bot_owner_id: null,
      role: 100,
      timezone: 'Europe/Berlin',
      avatar_url: null,
      avatar_version: 1,
    });
    expect(owner.date_joined).toMatch(/^\d{4}-\d\d-\d\dT/);
    expect(owner).not.toHaveProperty('profile_data');
    const webhook = res.body.members.find(
      (u: { user_id: number }) => u.user_id === server.users.webhookBot.user_id,
    );
    expect(webhook).toMatchObject({
      is_bot: true,
      bot_type: 3,
      bot_owner_id: server.users.emma.user_id,
    });
  });

  it('GET /users honours client_extavatar and include_custom_profile_fields', async () => {
    const res = await server.client('dev').get('/users', {
      client_extavatar: false,
      include_custom_profile_fields: true,
    });
    const dev = res.body.members.find(
      (u: { user_id: number }) => u.user_id === server.users.dev.user_id,
    );
    expect(dev.avatar_url).toMatch(/^https:\/\//);
    expect(Object.values(dev.profile_data)).toEqual(expect.arrayContaining([{ value: 'eng' }]));
    const bot = res.body.members.find(
      (u: { user_id: number }) => u.user_id === server.users.helperBot.user_id,
    );
    expect(bot).not.toHaveProperty('profile_data');
  });

  it("hides delivery_email according to the target's email_address_visibility", async () => {
    const res = await server.client('emma').patch('/settings', { email_address_visibility: 3 });
    expect(res.status).toBe(200);
    const emmaId = server.users.emma.user_id;
    const asMember = await server.client('dev').get(`/users/${emmaId}`);
    expect(asMember.body.user.delivery_email).toBeNull();
    // Without the real email, the client cannot compute the avatar itself.
    expect(asMember.body.user.avatar_url).toEqual(expect.stringContaining('https://'));
    const asAdmin = await server.client('admin').get(`/users/${emmaId}`);
    expect(asAdmin.body.user.delivery_email).toBe('emma@tributary.local');
    const herself = await server.client('emma').get('/users/me');
    expect(herself.body.delivery_email).toBe('emma@tributary.local');
    expect((await userInRegister('guest', emmaId)).delivery_email).toBeNull();
    await server.client('emma').patch('/settings', { email_address_visibility: 1 });
  });

  it("reads every user's email visibility from its index, and it follows a settings change", async () => {
    const db = server.server.db;
    // Every register reads this for all users: parsing 10,000 settings documents instead took a
    // large organization's first register about 50 ms more (docs/benchmarks.md, tenth pass).
    const plan = db
      .prepare<[], { detail: string }>(
        `EXPLAIN QUERY PLAN SELECT user_id, ${EMAIL_VISIBILITY_SQL} AS value FROM user_settings`,
      )
      .all()
      .map((r) => r.detail)
      .join(' ');
    expect(plan).toContain('COVERING INDEX user_settings_email_visibility');
    const emmaId = server.users.emma.user_id;
    await server.client('emma').patch('/settings', { email_address_visibility: 4 });
    expect(emailVisibilityByUser(db).get(emmaId)).toBe(4);
    expect((await userInRegister('dev', emmaId)).delivery_email).toBeNull();
    await server.client('emma').patch('/settings', { email_address_visibility: 1 });
    expect(emailVisibilityByUser(db).get(emmaId)).toBe(1);
  });

  it('GET /users/me returns the caller', async () => {
    const res = await server.client('guest').get('/users/me');
    expect(res.body).toMatchObject({
      user_id: server.users.guest.user_id,
      is_guest: true,
      role: 600,
    });
  });

  it('GET /users/{id} returns one user; unknown ids are a BAD_REQUEST', async () => {
    const res = await server.client('dev').get(`/users/${server.users.moderator.user_id}`);
    expect(res.body.user).toMatchObject({
      full_name: 'Maya Moderator',
      role: 300,
      is_admin: false,
    });
    const missing = await server.client('dev').get('/users/424242');
    expect(missing.status).toBe(400);
    expect(missing.body.code).toBe('BAD_REQUEST');
    // Not a number: looked up as an email, as the public server does.
    const bad = await server.client('dev').get('/users/abc');
    expect(bad.status).toBe(400);
    expect(bad.body).toMatchObject({ code: 'BAD_REQUEST', msg: 'No such user' });
  });
});

describe('POST /users', () => {
  it('lets an administrator with can_create_users create a user, announced by realm_user add', async () => {
    const q = await registerQueue(server.client('dev'), { event_types: ['realm_user'] });
    const res = await server.client('admin').post('/users', {
      email: 'new.person@tributary.local',
      password: 'a-good-password',
      full_name: 'New Person',
    });
    expect(res.status).toBe(200);
    expect(res.body.user_id).toEqual(expect.any(Number));
    const event = await q.waitFor((e) => e.type === 'realm_user');
    expect(event).toMatchObject({
      op: 'add',
      person: { user_id: res.body.user_id, full_name: 'New Person', role: 400, is_active: true },
    });
    // The new account works with its password.
    const key = await server.anonymous().post('/fetch_api_key', {
      username: 'new.person@tributary.local',
      password: 'a-good-password',
    });
    expect(key.body).toMatchObject({
      email: 'new.person@tributary.local',
      user_id: res.body.user_id,
    });
  });

  it('subscribes a new user to the default channels, telling the other subscribers', async () => {
    const q = await registerQueue(server.client('farid'), { event_types: ['subscription'] });
    const res = await server.client('owner').post('/users', {
      email: 'defaults.person@tributary.local',
      password: 'a-good-password',
      full_name: 'Default Person',
    });
    expect(res.status).toBe(200);
    const key = await server.anonymous().post('/fetch_api_key', {
      username: 'defaults.person@tributary.local',
      password: 'a-good-password',
    });
    const newcomer = server.anonymous();
    const me = await newcomer.raw('GET', '/users/me/subscriptions', {
      headers: {
        authorization: `Basic ${Buffer.from(`defaults.person@tributary.local:${key.body.api_key}`).toString('base64')}`,
      },
    });
    expect(me.body.subscriptions.map((s: { name: string }) => s.name).sort()).toEqual([
      'announcements',
      'general',
    ]);
    const peer = await q.waitFor((e) => e.op === 'peer_add');
    expect(peer.user_ids).toEqual([res.body.user_id]);
  });

  it('rejects a duplicate email, members, and bad input, storing nothing', async () => {
    const before = (await server.client('admin').get('/users')).body.members.length;
    const duplicate = await server.client('admin').post('/users', {
      email: 'DEV@tributary.local',
      password: 'whatever-pass',
      full_name: 'Dup',
    });
    expect(duplicate.status).toBe(400);
    expect(duplicate.body.code).toBe('BAD_REQUEST');
    const member = await server.client('dev').post('/users', {
      email: 'x@tributary.local',
      password: 'whatever-pass',
      full_name: 'X',
    });
    expect(member.status).toBe(400);
    const moderator = await server.client('moderator').post('/users', {
      email: 'y@tributary.local',
      password: 'whatever-pass',
      full_name: 'Y',
    });
    expect(moderator.status).toBe(400);
    const invalid = await server
      .client('admin')
      .post('/users', { email: 'not-an-email', password: 'whatever-pass', full_name: 'Z' });
    expect(invalid.status).toBe(400);
    const missing = await server
      .client('admin')
      .post('/users', { email: 'z@tributary.local', full_name: 'Z' });
    expect(missing.body).toMatchObject({ code: 'REQUEST_VARIABLE_MISSING', var_name: 'password' });
    const after = (await server.client('admin').get('/users')).body.members.length;
    expect(after).toBe(before);
  });
});
