// Presence (api-notes §4.7): POST /users/me/presence, GET /realm/presence,
// GET /users/{user_id_or_email}/presence, register's presences and presence events, observed from
// a second client's event queue. Time passing is simulated by moving stored times back in the
// database (the only state the API cannot age).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../support/server';
import { registerQueue, type TestQueue } from '../support/events';

let server: TestServer;

beforeAll(async () => {
  server = await startTestServer();
});
afterAll(async () => {
  await server.close();
});

function report(who: string, params: Record<string, unknown>) {
  return server.client(who).post('/users/me/presence', params);
}

/** Moves a user's stored presence `seconds` into the past. */
function age(who: string, seconds: number): void {
  server.server.db
    .prepare(
      `UPDATE user_presence SET last_active_time = last_active_time - ?,
         last_connected_time = last_connected_time - ? WHERE user_id = ?`,
    )
    .run(seconds, seconds, server.userIds[who]);
}

async function presenceEvents(queue: TestQueue) {
  return (await queue.poll()).filter((e) => e.type === 'presence');
}

describe('POST /users/me/presence', () => {
  it('records a first report, announces it to the realm and answers in the modern shape', async () => {
    const slim = await registerQueue(server.client('dev'), {
      event_types: ['presence'],
      slim_presence: true,
    });
    const legacy = await registerQueue(server.client('owner'), { event_types: ['presence'] });
    const before = Math.floor(Date.now() / 1000);
    const res = await report('emma', { status: 'active', slim_presence: true });
    expect(res.status, res.text).toBe(200);
    const mine = res.body.presences[String(server.userIds.emma)];
    expect(mine.active_timestamp).toBeGreaterThanOrEqual(before);
    expect(mine.idle_timestamp).toBe(mine.active_timestamp);
    expect(res.body.presence_last_update_id).toBeGreaterThan(0);
    expect(typeof res.body.server_timestamp).toBe('number');

    const event = await slim.waitFor((e) => e.type === 'presence');
    expect(event).toEqual({
      id: event.id,
      type: 'presence',
      user_id: server.userIds.emma,
      server_timestamp: expect.any(Number),
      presence: {
        website: {
          client: 'website',
          status: 'active',
          timestamp: mine.active_timestamp,
          pushable: false,
        },
      },
    });
    const legacyEvent = await legacy.waitFor((e) => e.type === 'presence');
    expect(legacyEvent.email).toBe(server.users.emma.email);
  });

  it('stays quiet while nothing changes and announces a return after the offline threshold', async () => {
    const queue = await registerQueue(server.client('dev'), { event_types: ['presence'] });
    await report('farid', { status: 'active', ping_only: true });
    expect(await presenceEvents(queue)).toHaveLength(1);
    // Another window, a minute's ping, going idle: no news for others.
    await report('farid', { status: 'active', ping_only: true });
    age('farid', 60);
    await report('farid', { status: 'active', ping_only: true });
    await report('farid', { status: 'idle', ping_only: true });
    expect(await presenceEvents(queue)).toEqual([]);
    // Back after missing pings (past the public server's 200 s threshold less a ping).
    age('farid', 300);
    await report('farid', { status: 'idle', ping_only: true });
    expect(await presenceEvents(queue)).toEqual([]);
    await report('farid', { status: 'active', ping_only: true });
    const [back] = await presenceEvents(queue);
    expect(back).toMatchObject({
      user_id: server.userIds.farid,
      presence: { website: { status: 'active' } },
    });
  });

  it('stores only a write a minute: a second report within 55 s keeps the update id', async () => {
    const first = await report('admin', { status: 'active', last_update_id: -1 });
    const again = await report('admin', { status: 'active', last_update_id: -1 });
    const id = first.body.presence_last_update_id;
    expect(again.body.presence_last_update_id).toBe(id);
    age('admin', 60);
    const later = await report('admin', { status: 'idle', last_update_id: id });
    expect(later.body.presence_last_update_id).toBeGreaterThan(id);
    // Idle keeps the last active time and moves the last connected one.
    const entry = later.body.presences[String(server.userIds.admin)];
    expect(entry.idle_timestamp - entry.active_timestamp).toBeGreaterThanOrEqual(60);
  });

  it('with last_update_id returns only what changed since, in the modern shape', async () => {
    const first = await report('moderator', { status: 'active', last_update_id: -1 });
    expect(Object.keys(first.body.presences)).toContain(String(server.userIds.moderator));
    const since = first.body.presence_last_update_id;
    const nothing = await report('moderator', { status: 'active', last_update_id: since });
    expect(nothing.body.presences).toEqual({});
    expect(nothing.body.presence_last_update_id).toBe(since);
    await report('owner', { status: 'active', ping_only: true });
    const changed = await report('moderator', { status: 'active', last_update_id: since });
    expect(Object.keys(changed.body.presences)).toEqual([String(server.userIds.owner)]);
    expect(changed.body.presence_last_update_id).toBeGreaterThan(since);
  });

  it('answers in the legacy shape, keyed by email, without slim_presence', async () => {
    // Someone who joined long ago: a never-active user reads as active since joining.
    server.server.db
      .prepare('UPDATE users SET date_joined = ? WHERE id = ?')
      .run('2025-01-01T00:00:00.000Z', server.userIds.guest);
    const res = await report('guest', { status: 'idle' });
    expect(res.status, res.text).toBe(200);
    const entry = res.body.presences[server.users.guest.email];
    // A first report while idle: never active, so the last connection counts.
    expect(entry).toEqual({
      aggregated: { client: 'website', status: 'idle', timestamp: expect.any(Number) },
      website: {
        client: 'website',
        status: 'idle',
        timestamp: expect.any(Number),
        pushable: false,
      },
    });
    expect(entry.aggregated.timestamp).toBe(entry.website.timestamp);
    expect(res.body.presences[server.users.emma.email].website.status).toBe('active');
  });

  it('limits history: 0 days returns nothing, old users drop out after 14 days', async () => {
    const none = await report('dev', {
      status: 'active',
      history_limit_days: 0,
      slim_presence: true,
    });
    expect(none.body.presences).toEqual({});
    age('guest', 15 * 24 * 60 * 60);
    const recent = await report('dev', { status: 'active', slim_presence: true });
    expect(recent.body.presences).not.toHaveProperty(String(server.userIds.guest));
    const longer = await report('dev', {
      status: 'active',
      slim_presence: true,
      history_limit_days: 30,
    });
    expect(longer.body.presences).toHaveProperty(String(server.userIds.guest));
  });

  it('ping_only answers nothing but the envelope', async () => {
    const res = await report('dev', { status: 'active', ping_only: true });
    expect(res.body).toEqual({ result: 'success', msg: '' });
  });

  it('refuses unknown statuses and bots', async () => {
    const bad = await report('dev', { status: 'away' });
    expect(bad.status).toBe(400);
    expect(bad.body).toMatchObject({ code: 'BAD_REQUEST', msg: 'Invalid status: away' });
    const bot = await report('helperBot', { status: 'active' });
    expect(bot.status).toBe(400);
    expect(bot.body.msg).toBe('This endpoint does not accept bot requests.');
  });
});

describe('presence_enabled off', () => {
  it('shows the user offline at once, then ignores their reports until it is on again', async () => {
    const emma = server.client('emma');
    const queue = await registerQueue(server.client('dev'), {
      event_types: ['presence'],
      slim_presence: true,
    });
    const before = Math.floor(Date.now() / 1000);
    const off = await emma.patch('/settings', { presence_enabled: false });
    expect(off.status, off.text).toBe(200);
    // One event, last seen past the offline threshold (200 s) before turning it off.
    const [gone] = await presenceEvents(queue);
    expect(gone).toMatchObject({ user_id: server.userIds.emma });
    expect(gone.presence.website.timestamp).toBeLessThanOrEqual(before - 200);

    const seen = await report('dev', { status: 'active', slim_presence: true });
    const entry = seen.body.presences[String(server.userIds.emma)];
    expect(entry.active_timestamp).toBe(gone.presence.website.timestamp);
    // Reports while it is off change nothing and tell nobody.
    await report('emma', { status: 'active', ping_only: true });
    expect(await presenceEvents(queue)).toEqual([]);
    const since = await report('dev', {
      status: 'active',
      last_update_id: seen.body.presence_last_update_id,
    });
    expect(since.body.presences).not.toHaveProperty(String(server.userIds.emma));
    const direct = await server.client('dev').get(`/users/${server.userIds.emma}/presence`);
    expect(direct.body.presence.aggregated.status).toBe('offline');

    await emma.patch('/settings', { presence_enabled: true });
    const [back] = await presenceEvents(queue);
    expect(back).toMatchObject({ type: 'presence', user_id: server.userIds.emma });
    expect(back.presence.website).toMatchObject({ status: 'active' });
    expect(back.presence.website.timestamp).toBeGreaterThanOrEqual(before);
  });

  it('follows the legacy away status, its inverse', async () => {
    const queue = await registerQueue(server.client('dev'), { event_types: ['presence'] });
    await server.client('farid').post('/users/me/status', { away: true });
    const [gone] = await presenceEvents(queue);
    expect(gone).toMatchObject({ user_id: server.userIds.farid, email: server.users.farid.email });
    await server.client('farid').post('/users/me/status', { away: true });
    expect(await presenceEvents(queue)).toEqual([]);
    await server.client('farid').post('/users/me/status', { away: false });
    expect(await presenceEvents(queue)).toHaveLength(1);
  });
});

describe('GET /realm/presence and GET /users/{user_id_or_email}/presence', () => {
  it('lists the realm in the legacy shape without an update id', async () => {
    await report('dev', { status: 'active', ping_only: true });
    const res = await server.client('farid').get('/realm/presence');
    expect(res.status, res.text).toBe(200);
    expect(res.body.presences[server.users.dev.email].aggregated.status).toBe('active');
    expect(res.body).not.toHaveProperty('presence_last_update_id');
    expect(typeof res.body.server_timestamp).toBe('number');
  });

  it('gives one user by id or email, offline past the threshold', async () => {
    const farid = server.client('farid');
    await report('owner', { status: 'active', ping_only: true });
    const byEmail = await farid.get(`/users/${server.users.owner.email}/presence`);
    expect(byEmail.status, byEmail.text).toBe(200);
    expect(byEmail.body.presence).toEqual({
      aggregated: { status: 'active', timestamp: expect.any(Number) },
      website: { status: 'active', timestamp: expect.any(Number) },
    });
    const slim = await farid.get(`/users/${server.userIds.owner}/presence`, {
      slim_presence: true,
    });
    expect(slim.body.presence).toEqual({
      active_timestamp: byEmail.body.presence.website.timestamp,
      idle_timestamp: expect.any(Number),
    });
    age('owner', 600);
    const later = await farid.get(`/users/${server.userIds.owner}/presence`);
    expect(later.body.presence.aggregated.status).toBe('offline');
    expect(later.body.presence.website.status).toBe('active');
  });

  it('answers the public errors for bots, unknown users and users without data', async () => {
    const dev = server.client('dev');
    const bot = await dev.get(`/users/${server.userIds.helperBot}/presence`);
    expect(bot.body).toMatchObject({
      code: 'BAD_REQUEST',
      msg: 'Presence is not supported for bot users.',
    });
    const unknown = await dev.get('/users/nobody@tributary.local/presence');
    expect(unknown.body).toMatchObject({ code: 'BAD_REQUEST', msg: 'No such user' });
    const created = await server.client('owner').post('/users', {
      email: 'newcomer@tributary.local',
      password: 'newcomer-password',
      full_name: 'New Comer',
    });
    expect(created.status, created.text).toBe(200);
    const none = await dev.get('/users/newcomer@tributary.local/presence');
    expect(none.body).toMatchObject({
      code: 'BAD_REQUEST',
      msg: 'No presence data for newcomer@tributary.local',
    });
  });
});

describe('POST /register presence state', () => {
  it('sends presences in the shape slim_presence asks for, with the update id', async () => {
    await report('dev', { status: 'active', ping_only: true });
    const dev = server.client('dev');
    const slim = (
      await dev.post('/register', { fetch_event_types: ['presence'], slim_presence: true })
    ).body;
    expect(slim.presences[String(server.userIds.dev)]).toEqual({
      active_timestamp: expect.any(Number),
      idle_timestamp: expect.any(Number),
    });
    expect(slim.presence_last_update_id).toBeGreaterThan(0);
    expect(typeof slim.server_timestamp).toBe('number');
    const legacy = (await dev.post('/register', { fetch_event_types: ['presence'] })).body;
    expect(legacy.presences[server.users.dev.email].website.status).toBe('active');
    const none = (
      await dev.post('/register', {
        fetch_event_types: ['presence'],
        presence_history_limit_days: 0,
      })
    ).body;
    expect(none.presences).toEqual({});
    expect(none.presence_last_update_id).toBe(-1);
  });

  it('keeps presence across a restart', async () => {
    await report('dev', { status: 'active', ping_only: true });
    await server.restart();
    const state = (
      await server
        .client('dev')
        .post('/register', { fetch_event_types: ['presence'], slim_presence: true })
    ).body;
    expect(state.presences).toHaveProperty(String(server.userIds.dev));
  });
});
