// POST /user_groups/create (4.11), GET /user_groups, bot API key regeneration (4.23) and
// bot storage (4.22).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../support/server';
import { systemGroupIds } from './groups-support';
import { registerQueue } from '../support/events';

let server: TestServer;
let systemGroups: Record<string, number>;

beforeAll(async () => {
  server = await startTestServer();
  systemGroups = await systemGroupIds(server);
});
afterAll(async () => {
  await server.close();
});

describe('user groups', () => {
  it('creates a group with members and subgroups, announced by user_group add', async () => {
    const q = await registerQueue(server.client('guest'), { event_types: ['user_group'] });
    const res = await server.client('dev').post('/user_groups/create', {
      name: 'designers',
      description: 'People who draw',
      members: [server.users.dev.user_id, server.users.emma.user_id],
      subgroups: [systemGroups['role:moderators']],
      can_mention_group: systemGroups['role:members'],
    });
    expect(res.status).toBe(200);
    expect(res.body.group_id).toEqual(expect.any(Number));
    const [event] = await q.next();
    expect(event).toMatchObject({
      type: 'user_group',
      op: 'add',
      group: {
        id: res.body.group_id,
        name: 'designers',
        description: 'People who draw',
        members: [server.users.dev.user_id, server.users.emma.user_id].sort((a, b) => a - b),
        direct_subgroup_ids: [systemGroups['role:moderators']],
        is_system_group: false,
        creator_id: server.users.dev.user_id,
        can_mention_group: systemGroups['role:members'],
        can_manage_group: { direct_members: [server.users.dev.user_id], direct_subgroups: [] },
      },
    });
    const state = await server
      .client('farid')
      .post('/register', { fetch_event_types: ['realm_user_groups'] });
    expect(state.body.realm_user_groups.map((g: { name: string }) => g.name)).toContain(
      'designers',
    );
  });

  it('returns the 4.11 errors and stores nothing', async () => {
    const before = (await server.client('dev').get('/user_groups')).body.user_groups.length;
    const dev = server.client('dev');
    const base = { description: 'd', members: [server.users.dev.user_id] };
    const cases: Array<Record<string, unknown>> = [
      { ...base, name: 'ghosts', members: [987654] },
      { ...base, name: 'designers' },
      { ...base, name: 'role:fake' },
      { ...base, name: 'bad-sub', subgroups: [987654] },
      { ...base, name: 'bad-manage', can_manage_group: systemGroups['role:everyone'] },
      { ...base, name: 'bad-mention', can_mention_group: systemGroups['role:owners'] },
      { ...base, name: 'bad-internet', can_manage_group: systemGroups['role:internet'] },
    ];
    for (const params of cases) {
      const res = await dev.post('/user_groups/create', params);
      expect(res.status, JSON.stringify(params)).toBe(400);
      expect(res.body.code).toBe('BAD_REQUEST');
    }
    const missing = await dev.post('/user_groups/create', { name: 'x', description: 'd' });
    expect(missing.body).toMatchObject({ code: 'REQUEST_VARIABLE_MISSING', var_name: 'members' });
    const guest = await server
      .client('guest')
      .post('/user_groups/create', { ...base, name: 'guests-group' });
    expect(guest.status).toBe(400);
    const bot = await server
      .client('helperBot')
      .post('/user_groups/create', { ...base, name: 'bots-group' });
    expect(bot.status).toBe(400);
    expect((await server.client('dev').get('/user_groups')).body.user_groups).toHaveLength(before);
  });
});

describe('bots', () => {
  it('lets the owner regenerate a bot API key; the old key stops working', async () => {
    const oldKey = server.users.helperBot.api_key;
    const res = await server
      .client('dev')
      .post(`/bots/${server.users.helperBot.user_id}/api_key/regenerate`);
    expect(res.status).toBe(200);
    expect(res.body.api_key).toMatch(/^[A-Za-z0-9]{32}$/);
    expect(res.body.api_key).not.toBe(oldKey);
    const old = await server.client('helperBot').get('/users/me');
    expect(old.status).toBe(401);
    server.users.helperBot.api_key = res.body.api_key;
    expect((await server.client('helperBot').get('/users/me')).status).toBe(200);
  });

  it('lets administrators regenerate any bot key, and refuses others and non-bots', async () => {
    const admin = await server
      .client('admin')
      .post(`/bots/${server.users.webhookBot.user_id}/api_key/regenerate`);
    expect(admin.status).toBe(200);
    server.users.webhookBot.api_key = admin.body.api_key;
    const stranger = await server
      .client('farid')
      .post(`/bots/${server.users.webhookBot.user_id}/api_key/regenerate`);
    expect(stranger.status).toBe(400);
    const human = await server
      .client('admin')
      .post(`/bots/${server.users.dev.user_id}/api_key/regenerate`);
    expect(human.status).toBe(400);
    expect(human.body.code).toBe('BAD_REQUEST');
    expect((await server.client('webhookBot').get('/users/me')).status).toBe(200);
  });

  it('stores, reads and deletes bot storage; humans are refused', async () => {
    const bot = server.client('helperBot');
    expect((await bot.put('/bot_storage', { storage: { color: 'blue', size: '3' } })).status).toBe(
      200,
    );
    expect((await bot.put('/bot_storage', { storage: { color: 'red' } })).status).toBe(200);
    expect((await bot.get('/bot_storage')).body.storage).toEqual({ color: 'red', size: '3' });
    expect((await bot.get('/bot_storage', { keys: ['size'] })).body.storage).toEqual({ size: '3' });
    expect((await bot.get('/bot_storage', { keys: ['nope'] })).status).toBe(400);
    expect((await bot.delete('/bot_storage', { keys: ['color'] })).status).toBe(200);
    expect((await bot.get('/bot_storage')).body.storage).toEqual({ size: '3' });
    const bad = await bot.put('/bot_storage', { storage: { n: 5 } });
    expect(bad.body.code).toBe('REQUEST_VARIABLE_INVALID');
    const human = await server.client('dev').put('/bot_storage', { storage: { a: 'b' } });
    expect(human.status).toBe(403);
    expect(human.body.code).toBe('PERMISSION_DENIED');
    // Another bot has its own storage.
    expect((await server.client('webhookBot').get('/bot_storage')).body.storage).toEqual({});
  });

  it('refuses a write beyond the storage limit, keeping what was stored', async () => {
    const bot = server.client('webhookBot');
    await bot.put('/bot_storage', { storage: { keep: 'me' } });
    // The request body limit (4 MiB) is below the 10,000,000-character quota, so fill it in steps.
    const chunk = 'x'.repeat(3_000_000);
    for (const key of ['a', 'b', 'c'])
      expect((await bot.put('/bot_storage', { storage: { [key]: chunk } })).status).toBe(200);
    const over = await bot.put('/bot_storage', { storage: { d: chunk } });
    expect(over.status).toBe(400);
    expect(over.body.msg).toContain('exceeds storage limit');
    const stored = (await bot.get('/bot_storage')).body.storage;
    expect(Object.keys(stored).sort()).toEqual(['a', 'b', 'c', 'keep']);
  });
});
