// Administration of channels, groups and bots (issue #11 items 4-6) against the real server:
// bot creation (three types, avatar), GET /bots keys for owners, PATCH and DELETE /bots with
// realm_bot events to owner and administrators, default channels, unarchiving, and the refusals
// a member's direct calls get.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import sharp from 'sharp';
import { startTestServer, type TestServer } from '../support/server';
import { registerQueue } from '../support/events';

let server: TestServer;
const png = () =>
  sharp({ create: { width: 40, height: 30, channels: 3, background: '#3366cc' } })
    .png()
    .toBuffer();

beforeAll(async () => {
  server = await startTestServer();
});
afterAll(async () => {
  await server.close();
});

describe('bots', () => {
  it('creates generic, incoming and outgoing webhook bots; owner and admins hear realm_bot add', async () => {
    const admin = await registerQueue(server.client('admin'), { event_types: ['realm_bot'] });
    const farid = await registerQueue(server.client('farid'), { event_types: ['realm_bot'] });
    const dev = server.client('dev');
    const generic = await dev.post('/bots', { full_name: 'Build Bot', short_name: 'build' });
    expect(generic.status).toBe(200);
    expect(generic.body).toMatchObject({
      user_id: expect.any(Number),
      api_key: expect.any(String),
    });
    const added = await admin.waitFor((e) => e.op === 'add');
    expect(added.bot).toMatchObject({
      user_id: generic.body.user_id,
      full_name: 'Build Bot',
      email: 'build-bot@tributary.local',
      bot_type: 1,
      owner_id: server.users.dev.user_id,
      is_active: true,
    });
    expect(added.bot.api_key).toBeUndefined();
    const incoming = await dev.post('/bots', {
      full_name: 'Alerts',
      short_name: 'alerts',
      bot_type: 2,
    });
    expect(incoming.status).toBe(200);
    const outgoing = await dev.post('/bots', {
      full_name: 'Echo Two',
      short_name: 'echo2',
      bot_type: 3,
      payload_url: JSON.stringify('https://example.com/hook'),
      interface_type: 1,
    });
    expect(outgoing.status, outgoing.text).toBe(200);
    const state = await server
      .client('dev')
      .post('/register', { fetch_event_types: ['realm_bot'] });
    const echo = state.body.realm_bots.find(
      (b: { user_id: number }) => b.user_id === outgoing.body.user_id,
    );
    expect(echo.services[0]).toMatchObject({ base_url: 'https://example.com/hook', interface: 1 });
    // A member who owns none of them hears nothing.
    expect((await farid.poll()).filter((e) => e.type === 'realm_bot')).toEqual([]);
    // The new bot's key works.
    const asBot = await fetch(server.client('dev').url('/users/me'), {
      headers: {
        authorization: `Basic ${Buffer.from(`build-bot@tributary.local:${generic.body.api_key}`).toString('base64')}`,
      },
    });
    expect(asBot.status).toBe(200);
  });

  it('takes an avatar as a multipart file and serves it', async () => {
    const form = new FormData();
    form.set('full_name', 'Pictured Bot');
    form.set('short_name', 'pictured');
    form.set('file', new Blob([await png()], { type: 'image/png' }), 'bot.png');
    const res = await server.client('dev').multipart('/bots', form);
    expect(res.status, res.text).toBe(200);
    expect(res.body.avatar_url).toMatch(/^\/user_avatars\/1\/[0-9a-f]{40}\.png\?version=\d+$/);
    const image = await fetch(server.client('dev').url(`/${res.body.avatar_url as string}`));
    expect(image.status).toBe(200);
    const meta = await sharp(Buffer.from(await image.arrayBuffer())).metadata();
    expect([meta.width, meta.height]).toEqual([100, 100]);
  });

  it('refuses a picture that is not an image before creating or changing anything', async () => {
    const dev = server.client('dev');
    const notImage = () => new Blob([Buffer.from('not a picture')], { type: 'image/png' });
    const create = new FormData();
    create.set('full_name', 'Broken Picture Bot');
    create.set('short_name', 'broken-picture');
    create.set('file', notImage(), 'bot.png');
    const refused = await dev.multipart('/bots', create);
    expect(refused.status).toBe(400);
    expect(refused.body.code).toBe('BAD_IMAGE');
    const bots = (await dev.get('/bots')).body.bots as Array<{ full_name: string }>;
    expect(bots.some((b) => b.full_name === 'Broken Picture Bot')).toBe(false);

    const pictured = bots.find((b) => b.full_name === 'Pictured Bot') as unknown as {
      user_id: number;
    };
    const edit = new FormData();
    edit.set('full_name', 'Renamed Picture Bot');
    edit.set('file', notImage(), 'bot.png');
    const editRefused = await dev.multipart(`/bots/${pictured.user_id}`, edit, 'PATCH');
    expect(editRefused.status).toBe(400);
    const after = (await dev.get(`/users/${pictured.user_id}`)).body.user as { full_name: string };
    expect(after.full_name).toBe('Pictured Bot');
  });

  it('refuses what the public server refuses', async () => {
    const dev = server.client('dev');
    const cases: Array<[string, Record<string, unknown>]> = [
      ['dev', { full_name: 'Build Bot', short_name: 'other' }], // name in use
      ['dev', { full_name: 'Another', short_name: 'build' }], // username in use
      ['dev', { full_name: 'Nameless', short_name: '' }],
      ['dev', { full_name: 'Hooky', short_name: 'hooky', bot_type: 3 }], // no payload_url
      ['dev', { full_name: 'Embedded', short_name: 'emb', bot_type: 4 }],
      ['guest', { full_name: 'Guest Bot', short_name: 'guestbot' }],
    ];
    for (const [who, params] of cases) {
      const res = await server.client(who).post('/bots', params);
      expect(res.status, JSON.stringify(params)).toBe(400);
      expect(res.body.code).toBe('BAD_REQUEST');
    }
    // A realm that lets only administrators create bots refuses a member.
    const admins = (await server.client('owner').get('/user_groups')).body.user_groups.find(
      (g: { name: string }) => g.name === 'role:administrators',
    ).id;
    await server.client('owner').patch('/realm', {
      can_create_bots_group: JSON.stringify({ new: admins }),
      can_create_write_only_bots_group: JSON.stringify({ new: admins }),
    });
    const refused = await dev.post('/bots', { full_name: 'Late Bot', short_name: 'late' });
    expect(refused.status).toBe(400);
    const everyone = (await server.client('owner').get('/user_groups')).body.user_groups.find(
      (g: { name: string }) => g.name === 'role:members',
    ).id;
    await server.client('owner').patch('/realm', {
      can_create_bots_group: JSON.stringify({ new: everyone }),
      can_create_write_only_bots_group: JSON.stringify({ new: everyone }),
    });
  });

  it('GET /bots gives an owner their own bots with keys, and no one else', async () => {
    const mine = (await server.client('dev').get('/bots')).body.bots as Array<
      Record<string, unknown>
    >;
    expect(mine.map((b) => b.full_name)).toEqual(
      expect.arrayContaining(['Helper Bot', 'Build Bot']),
    );
    expect(mine.every((b) => typeof b.api_key === 'string' && b.api_key !== '')).toBe(true);
    const adminBots = (await server.client('admin').get('/bots')).body.bots as unknown[];
    expect(adminBots).toEqual([]);
  });

  it('renames, changes owner and deactivates with events; a stranger is refused', async () => {
    const bot = server.userIds.helperBot;
    const devQueue = await registerQueue(server.client('dev'), {
      event_types: ['realm_bot', 'realm_user'],
    });
    const stranger = await server.client('farid').patch(`/bots/${bot}`, { full_name: 'Mine' });
    expect(stranger.status).toBe(400);
    expect(stranger.body.msg).toBe('Insufficient permission');
    const renamed = await server.client('dev').patch(`/bots/${bot}`, { full_name: 'Helpful Bot' });
    expect(renamed.status).toBe(200);
    expect(
      await devQueue.waitFor((e) => e.type === 'realm_bot' && e.op === 'update'),
    ).toMatchObject({ bot: { user_id: bot, full_name: 'Helpful Bot' } });
    const refusedDelete = await server.client('farid').delete(`/bots/${bot}`);
    expect(refusedDelete.status).toBe(400);
    const gone = await server.client('admin').delete(`/bots/${bot}`);
    expect(gone.status).toBe(200);
    expect(
      await devQueue.waitFor((e) => e.type === 'realm_bot' && e.bot.is_active === false),
    ).toMatchObject({ op: 'update', bot: { user_id: bot, is_active: false } });
    expect((await server.client('dev').delete(`/bots/${bot}`)).body.msg).toBe(
      'User is already deactivated',
    );
  });

  it('keeps bot storage a bot own: a person cannot read it', async () => {
    const res = await server.client('dev').get('/bot_storage');
    expect(res.body.code).toBe('PERMISSION_DENIED');
  });
});

describe('default channels and archiving', () => {
  it('adds and removes a default channel with default_streams events; members are refused', async () => {
    const id = (await server.client('owner').get('/get_stream_id', { stream: 'design' })).body
      .stream_id as number;
    const q = await registerQueue(server.client('emma'), { event_types: ['default_streams'] });
    const member = await server.client('dev').post('/default_streams', { stream_id: id });
    expect(member.body).toMatchObject({
      code: 'BAD_REQUEST',
      msg: 'Must be an organization administrator',
    });
    expect((await server.client('admin').post('/default_streams', { stream_id: id })).status).toBe(
      200,
    );
    expect((await q.next())[0].default_streams).toContain(id);
    expect((await server.client('admin').post('/default_streams', { stream_id: id })).status).toBe(
      400,
    );
    expect(
      (await server.client('admin').delete('/default_streams', { stream_id: id })).status,
    ).toBe(200);
    expect((await q.next())[0].default_streams).not.toContain(id);
  });

  it('refuses a private channel as a default', async () => {
    const made = await server.client('owner').post('/users/me/subscriptions', {
      subscriptions: JSON.stringify([{ name: 'secret-plans' }]),
      invite_only: 'true',
    });
    expect(made.status).toBe(200);
    const id = (await server.client('owner').get('/get_stream_id', { stream: 'secret-plans' })).body
      .stream_id as number;
    const res = await server.client('owner').post('/default_streams', { stream_id: id });
    expect(res.body.msg).toBe('Private channels cannot be made default.');
  });

  it('unarchives with PATCH is_archived=false; a member is refused', async () => {
    await server.client('owner').post('/users/me/subscriptions', {
      subscriptions: JSON.stringify([{ name: 'old-news' }]),
    });
    const id = (await server.client('owner').get('/get_stream_id', { stream: 'old-news' })).body
      .stream_id as number;
    expect((await server.client('owner').delete(`/streams/${id}`)).status).toBe(200);
    const q = await registerQueue(server.client('emma'), {
      event_types: ['stream'],
      client_capabilities: JSON.stringify({ archived_channels: true }),
    });
    const member = await server.client('dev').patch(`/streams/${id}`, { is_archived: false });
    expect(member.status).toBe(400);
    // A refused change in the same request leaves it archived.
    const refused = await server
      .client('owner')
      .patch(`/streams/${id}`, { is_archived: false, new_name: '   ' });
    expect(refused.status).toBe(400);
    const still = await server.client('owner').get(`/streams/${id}`);
    expect(still.body.stream.is_archived).toBe(true);
    const res = await server.client('owner').patch(`/streams/${id}`, { is_archived: false });
    expect(res.status, res.text).toBe(200);
    expect(await q.waitFor((e) => e.type === 'stream')).toMatchObject({
      op: 'update',
      stream_id: id,
      property: 'is_archived',
      value: false,
    });
    expect(
      (await server.client('owner').patch(`/streams/${id}`, { is_archived: false })).body.msg,
    ).toBe('Channel is not archived');
  });
});

describe('user groups, refused for a member', () => {
  it('refuses a member who may not manage the group on every admin endpoint', async () => {
    const created = await server.client('owner').post('/user_groups/create', {
      name: 'reviewers',
      description: 'Review things',
      members: JSON.stringify([server.users.owner.user_id]),
    });
    const id = created.body.group_id as number;
    const dev = server.client('dev');
    const calls = [
      dev.patch(`/user_groups/${id}`, { name: 'mine' }),
      dev.post(`/user_groups/${id}/members`, { add: JSON.stringify([server.users.emma.user_id]) }),
      dev.post(`/user_groups/${id}/deactivate`),
    ];
    for (const res of await Promise.all(calls)) {
      expect(res.status).toBe(400);
      expect(res.body).toMatchObject({ code: 'BAD_REQUEST', msg: 'Insufficient permission' });
    }
  });
});
