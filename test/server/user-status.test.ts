// Statuses: POST /users/me/status (4.10), POST /users/{id}/status (4.9), user_status events.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../support/server';
import { registerQueue } from '../support/events';
import { PRESENCE_ENABLED_SQL } from '../../server/resources/users/user-status';

let server: TestServer;

beforeAll(async () => {
  server = await startTestServer();
});
afterAll(async () => {
  await server.close();
});

describe('POST /users/me/status', () => {
  it('sets text and emoji (code looked up from the emoji table) and tells every user', async () => {
    const q = await registerQueue(server.client('guest'), { event_types: ['user_status'] });
    const res = await server
      .client('dev')
      .post('/users/me/status', { status_text: 'On vacation', emoji_name: 'palm_tree' });
    expect(res.status).toBe(200);
    const [event] = await q.next();
    expect(event).toMatchObject({
      type: 'user_status',
      user_id: server.users.dev.user_id,
      status_text: 'On vacation',
      emoji_name: 'palm_tree',
      emoji_code: '1f334',
      reaction_type: 'unicode_emoji',
    });
    const state = await server
      .client('emma')
      .post('/register', { fetch_event_types: ['user_status'] });
    expect(state.body.user_status[String(server.users.dev.user_id)]).toEqual({
      status_text: 'On vacation',
      emoji_name: 'palm_tree',
      emoji_code: '1f334',
      reaction_type: 'unicode_emoji',
    });
  });

  it('changes only what is passed and clears with empty strings', async () => {
    const emma = server.client('emma');
    await emma.post('/users/me/status', {
      status_text: 'Busy',
      emoji_name: 'heart',
      emoji_code: '2764',
    });
    await emma.post('/users/me/status', { status_text: 'Very busy' });
    let state = (await emma.post('/register', { fetch_event_types: ['user_status'] })).body
      .user_status;
    expect(state[String(server.users.emma.user_id)]).toMatchObject({
      status_text: 'Very busy',
      emoji_name: 'heart',
      emoji_code: '2764',
    });
    await emma.post('/users/me/status', { status_text: '', emoji_name: '' });
    state = (await emma.post('/register', { fetch_event_types: ['user_status'] })).body.user_status;
    expect(state).not.toHaveProperty(String(server.users.emma.user_id));
  });

  it('accepts the svc_extra_emoji type, refuses a code with FE0F as the public server does', async () => {
    const extra = await server.client('farid').post('/users/me/status', {
      emoji_name: 'zulip',
      emoji_code: 'zulip',
      reaction_type: 'svc_extra_emoji',
    });
    expect(extra.status).toBe(200);
    // The public server's name for the type is accepted and is what the server answers.
    const byPublicName = await server.client('farid').post('/users/me/status', {
      emoji_name: 'zulip',
      emoji_code: 'zulip',
      reaction_type: 'zulip_extra_emoji',
    });
    expect(byPublicName.status, byPublicName.text).toBe(200);
    const state = await server
      .client('dev')
      .post('/register', { fetch_event_types: ['user_status'] });
    expect(state.body.user_status[String(server.users.farid.user_id)]).toMatchObject({
      emoji_name: 'zulip',
      reaction_type: 'zulip_extra_emoji',
    });
    const qualified = await server
      .client('farid')
      .post('/users/me/status', { emoji_name: 'heart', emoji_code: '2764-fe0f' });
    expect(qualified.body).toMatchObject({ code: 'BAD_REQUEST', msg: 'Invalid emoji code.' });
  });

  it("takes the public server's names, aliases included, and keeps the name given", async () => {
    const farid = server.client('farid');
    const q = await registerQueue(server.client('dev'), { event_types: ['user_status'] });
    const byAlias = await farid.post('/users/me/status', { emoji_name: 'thumbs_up' });
    expect(byAlias.status, byAlias.text).toBe(200);
    expect(await q.waitFor((e) => e.type === 'user_status')).toMatchObject({
      user_id: server.userIds.farid,
      emoji_name: 'thumbs_up',
      emoji_code: '1f44d',
      reaction_type: 'unicode_emoji',
    });
    const withCode = await farid.post('/users/me/status', {
      emoji_name: 'like',
      emoji_code: '1f44d',
    });
    expect(withCode.status, withCode.text).toBe(200);
    const state = (await farid.post('/register', { fetch_event_types: ['user_status'] })).body
      .user_status;
    expect(state[String(server.userIds.farid)]).toMatchObject({
      emoji_name: 'like',
      emoji_code: '1f44d',
    });
    // emoji-datasource's name for 1f44d is not one of the public server's.
    const foreign = await farid.post('/users/me/status', { emoji_name: 'thumbsup' });
    expect(foreign.body).toMatchObject({ msg: "Emoji 'thumbsup' does not exist" });
  });

  it('returns every error listed for 4.9/4.10 and stores nothing', async () => {
    const dev = server.client('dev');
    const cases: Array<[Record<string, unknown>, string]> = [
      [{}, 'Client did not pass any new values.'],
      [{ status_text: 'x'.repeat(61) }, 'status_text is too long (limit: 60 characters).'],
      [
        { emoji_code: '1f600' },
        'Client must pass emoji_name if they pass either emoji_code or reaction_type.',
      ],
      [
        { reaction_type: 'unicode_emoji' },
        'Client must pass emoji_name if they pass either emoji_code or reaction_type.',
      ],
      [{ emoji_name: 'not_an_emoji_at_all' }, "Emoji 'not_an_emoji_at_all' does not exist"],
      [{ emoji_name: 'smile', emoji_code: '2764' }, 'Invalid emoji name.'],
      [
        { emoji_name: 'party', emoji_code: '99999', reaction_type: 'realm_emoji' },
        'Invalid custom emoji.',
      ],
    ];
    for (const [params, msg] of cases) {
      const res = await dev.post('/users/me/status', { status_text: undefined, ...params });
      expect(res.status, msg).toBe(400);
      expect(res.body).toMatchObject({ code: 'BAD_REQUEST', msg });
    }
    // 60 code points (not UTF-16 units) is the limit.
    const emoji60 = '😀'.repeat(60);
    expect((await dev.post('/users/me/status', { status_text: emoji60 })).status).toBe(200);
    const state = (await dev.post('/register', { fetch_event_types: ['user_status'] })).body
      .user_status;
    expect(state[String(server.users.dev.user_id)].status_text).toBe(emoji60);
  });

  it('maps the legacy away flag to presence_enabled', async () => {
    const q = await registerQueue(server.client('moderator'), {
      event_types: ['user_settings', 'user_status'],
    });
    const res = await server.client('moderator').post('/users/me/status', { away: true });
    expect(res.status).toBe(200);
    const events = await q.next();
    expect(events.map((e) => e.type)).toEqual(['user_status', 'user_settings']);
    expect(events[0]).toMatchObject({ user_id: server.users.moderator.user_id, away: true });
    expect(events[0]).not.toHaveProperty('status_text');
    expect(events[1]).toMatchObject({ op: 'update', property: 'presence_enabled', value: false });
    const state = (
      await server.client('dev').post('/register', { fetch_event_types: ['user_status'] })
    ).body.user_status;
    expect(state[String(server.users.moderator.user_id)]).toMatchObject({ away: true });
  });

  it("register finds who turned presence off through the index, not by parsing everyone's settings", async () => {
    const db = server.server.db;
    const plan = db
      .prepare<[], { detail: string }>(
        `EXPLAIN QUERY PLAN SELECT user_id FROM user_settings WHERE ${PRESENCE_ENABLED_SQL} = 0`,
      )
      .all()
      .map((r) => r.detail)
      .join(' ');
    expect(plan).toMatch(/INDEX user_settings_presence_enabled\b/);
    const awayIn = async () =>
      (await server.client('dev').post('/register', { fetch_event_types: ['user_status'] })).body
        .user_status as Record<string, { away?: boolean }>;
    const farid = String(server.userIds.farid);
    await server.client('farid').patch('/settings', { presence_enabled: false });
    expect((await awayIn())[farid]).toMatchObject({ away: true });
    await server.client('farid').patch('/settings', { presence_enabled: true });
    expect((await awayIn())[farid]?.away).toBeUndefined();
    // A settings document that is not JSON counts as presence on rather than failing the register.
    const emma = server.userIds.emma;
    const kept = db
      .prepare<[number], { settings: string }>(
        'SELECT settings FROM user_settings WHERE user_id = ?',
      )
      .get(emma)!.settings;
    db.prepare("UPDATE user_settings SET settings = '{broken' WHERE user_id = ?").run(emma);
    try {
      const res = await server
        .client('dev')
        .post('/register', { fetch_event_types: ['user_status'] });
      expect(res.status).toBe(200);
      expect(res.body.user_status[String(emma)]?.away).toBeUndefined();
    } finally {
      db.prepare('UPDATE user_settings SET settings = ? WHERE user_id = ?').run(kept, emma);
    }
  });
});

describe('POST /users/{user_id}/status', () => {
  it('lets an administrator change another user status', async () => {
    const q = await registerQueue(server.client('farid'), { event_types: ['user_status'] });
    const res = await server.client('admin').post(`/users/${server.users.farid.user_id}/status`, {
      status_text: 'Set by admin',
    });
    expect(res.status).toBe(200);
    const [event] = await q.next();
    expect(event).toMatchObject({
      user_id: server.users.farid.user_id,
      status_text: 'Set by admin',
    });
  });

  it('refuses non-administrators and unknown users, and validates like 4.10', async () => {
    const member = await server
      .client('dev')
      .post(`/users/${server.users.farid.user_id}/status`, { status_text: 'hacked' });
    expect(member.status).toBe(400);
    expect(member.body.code).toBe('BAD_REQUEST');
    const moderator = await server
      .client('moderator')
      .post(`/users/${server.users.farid.user_id}/status`, { status_text: 'hacked' });
    expect(moderator.status).toBe(400);
    const unknown = await server.client('admin').post('/users/99999/status', { status_text: 'x' });
    expect(unknown.status).toBe(400);
    const empty = await server
      .client('admin')
      .post(`/users/${server.users.farid.user_id}/status`, {});
    expect(empty.body.msg).toBe('Client did not pass any new values.');
    const state = (
      await server.client('dev').post('/register', { fetch_event_types: ['user_status'] })
    ).body.user_status;
    expect(state[String(server.users.farid.user_id)].status_text).toBe('Set by admin');
  });
});

describe('clear-after: scheduled_end_time on POST /users/me/status', () => {
  const inSeconds = (s: number) => Math.floor(Date.now() / 1000) + s;

  it('is stored, shown only to its owner, and dropped by a change that does not pass it', async () => {
    const moderator = server.client('moderator');
    const id = String(server.userIds.moderator);
    const own = await registerQueue(moderator, { event_types: ['user_status'] });
    const other = await registerQueue(server.client('admin'), { event_types: ['user_status'] });
    const at = inSeconds(3600);
    const res = await moderator.post('/users/me/status', {
      status_text: 'In a meeting',
      emoji_name: 'calendar',
      scheduled_end_time: at,
    });
    expect(res.status, res.text).toBe(200);
    expect(await own.waitFor((e) => e.type === 'user_status')).toMatchObject({
      status_text: 'In a meeting',
      emoji_name: 'calendar',
      scheduled_end_time: at,
    });
    const seen = await other.waitFor((e) => e.type === 'user_status');
    expect(seen).toMatchObject({ status_text: 'In a meeting' });
    expect(seen).not.toHaveProperty('scheduled_end_time');

    const mine = await moderator.post('/register', { fetch_event_types: ['user_status'] });
    expect(mine.body.user_status[id]).toMatchObject({ scheduled_end_time: at });
    const theirs = await server.client('admin').post('/register', {
      fetch_event_types: ['user_status'],
    });
    expect(theirs.body.user_status[id]).not.toHaveProperty('scheduled_end_time');
    expect((await moderator.get(`/users/${id}/status`)).body.status).toMatchObject({
      scheduled_end_time: at,
    });

    // Only the end time changes: the others are told nothing.
    await moderator.post('/users/me/status', { scheduled_end_time: at + 60 });
    expect(await own.waitFor((e) => e.type === 'user_status')).toMatchObject({
      scheduled_end_time: at + 60,
    });
    await moderator.post('/users/me/status', { status_text: 'Still in a meeting' });
    expect(await other.waitFor((e) => e.type === 'user_status')).toMatchObject({
      status_text: 'Still in a meeting',
    });
    const after = await moderator.post('/register', { fetch_event_types: ['user_status'] });
    expect(after.body.user_status[id]).not.toHaveProperty('scheduled_end_time');
    await moderator.post('/users/me/status', { status_text: '', emoji_name: '' });
  });

  it('tells the others of an away change that keeps the end time, and the owner of a dropped one', async () => {
    const farid = server.client('farid');
    const own = await registerQueue(farid, { event_types: ['user_status'] });
    const other = await registerQueue(server.client('dev'), { event_types: ['user_status'] });
    const at = inSeconds(3600);
    await farid.post('/users/me/status', { status_text: 'Lunch', scheduled_end_time: at });
    await own.waitFor((e) => e.type === 'user_status');
    await other.waitFor((e) => e.type === 'user_status');

    const res = await farid.post('/users/me/status', { away: true, scheduled_end_time: at });
    expect(res.status, res.text).toBe(200);
    const seen = await other.waitFor((e) => e.type === 'user_status');
    expect(seen).toMatchObject({ user_id: server.userIds.farid, away: true });
    expect(seen).not.toHaveProperty('scheduled_end_time');
    expect(await own.waitFor((e) => e.type === 'user_status')).toMatchObject({
      away: true,
      scheduled_end_time: at,
    });

    // A change without the end time drops it: the owner's event says so.
    await farid.post('/users/me/status', { away: false });
    expect(await own.waitFor((e) => e.type === 'user_status')).toMatchObject({
      away: false,
      scheduled_end_time: null,
    });
    await farid.post('/users/me/status', { status_text: '' });
  });

  it('refuses an end time without a status, and stores nothing', async () => {
    const res = await server
      .client('owner')
      .post('/users/me/status', { scheduled_end_time: inSeconds(600) });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({
      code: 'BAD_REQUEST',
      msg: 'Client does not have any status set.',
    });
    const state = await server.client('owner').post('/register', {
      fetch_event_types: ['user_status'],
    });
    expect(state.body.user_status).not.toHaveProperty(String(server.userIds.owner));
  });

  it('is cleared by the server at that time, with an event to everyone', async () => {
    const admin = server.client('admin');
    const watcher = await registerQueue(server.client('emma'), { event_types: ['user_status'] });
    const res = await admin.post('/users/me/status', {
      status_text: 'Commuting',
      emoji_name: 'bus',
      scheduled_end_time: inSeconds(1),
    });
    expect(res.status, res.text).toBe(200);
    const cleared = await watcher.waitFor(
      (e) => e.type === 'user_status' && e.user_id === server.userIds.admin && e.status_text === '',
      20,
    );
    expect(cleared).toMatchObject({ status_text: '', emoji_name: '' });
    const state = await admin.post('/register', { fetch_event_types: ['user_status'] });
    expect(state.body.user_status).not.toHaveProperty(String(server.userIds.admin));
  });
});
