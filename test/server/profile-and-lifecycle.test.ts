// PATCH /users/me/profile_data (4.14) and user deactivation / reactivation.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../support/server';
import { registerQueue } from '../support/events';

let server: TestServer;
let fields: Record<string, number>;

beforeAll(async () => {
  server = await startTestServer();
  const state = await server
    .client('dev')
    .post('/register', { fetch_event_types: ['custom_profile_fields'] });
  fields = Object.fromEntries(
    (state.body.custom_profile_fields as Array<{ id: number; name: string }>).map((f) => [
      f.name,
      f.id,
    ]),
  );
});
afterAll(async () => {
  await server.close();
});

const profileOf = async (userId: number) =>
  (await server.client('owner').get(`/users/${userId}`, { include_custom_profile_fields: true }))
    .body.user.profile_data as Record<string, { value: string; rendered_value?: string }>;

describe('PATCH /users/me/profile_data', () => {
  it('sets values of every type, with realm_user update events and rendered markdown', async () => {
    const q = await registerQueue(server.client('guest'), { event_types: ['realm_user'] });
    const res = await server.client('farid').patch('/users/me/profile_data', {
      data: [
        { id: fields['About me'], value: 'Loves *maps*' },
        { id: fields.Team, value: 'design' },
        { id: fields.Mentor, value: [server.users.emma.user_id] },
        { id: fields.Pronouns, value: 'he/him' },
        { id: fields.GitHub, value: null },
      ],
    });
    expect(res.status).toBe(200);
    const profile = await profileOf(server.users.farid.user_id);
    expect(profile[String(fields['About me'])]).toEqual({
      value: 'Loves *maps*',
      rendered_value: '<p>Loves <em>maps</em></p>',
    });
    expect(profile[String(fields.Team)]).toEqual({ value: 'design' });
    expect(JSON.parse(profile[String(fields.Mentor)].value)).toEqual([server.users.emma.user_id]);
    expect(profile).not.toHaveProperty(String(fields.GitHub));
    const events = await q.next();
    expect(events.map((e) => e.person.custom_profile_field.id)).toEqual([
      fields['About me'],
      fields.Team,
      fields.Mentor,
      fields.Pronouns,
      fields.GitHub,
    ]);
    expect(events[0].person).toMatchObject({
      user_id: server.users.farid.user_id,
      custom_profile_field: { value: 'Loves *maps*', rendered_value: '<p>Loves <em>maps</em></p>' },
    });
    expect(events[4].person.custom_profile_field.value).toBeNull();
  });

  it('refuses unknown fields, admin-only fields and bad values, changing nothing', async () => {
    const before = await profileOf(server.users.dev.user_id);
    const cases: Array<[unknown[], string]> = [
      [[{ id: 9999, value: 'x' }], 'Field id 9999 not found.'],
      [[{ id: fields.Title, value: 'Boss' }], 'You are not allowed to change this field'],
      [[{ id: fields.Team, value: 'marketing' }], 'is not one of the options'],
      [[{ id: fields.Mentor, value: [424242] }], 'invalid user ID'],
      [[{ id: fields.Pronouns, value: 'x'.repeat(51) }], 'too long'],
      [
        [
          { id: fields.Team, value: 'design' },
          { id: fields.Title, value: 'Boss' },
        ],
        'not allowed',
      ],
    ];
    for (const [data, msg] of cases) {
      const res = await server.client('dev').patch('/users/me/profile_data', { data });
      expect(res.status, msg).toBe(400);
      expect(res.body.code).toBe('BAD_REQUEST');
      expect(res.body.msg).toContain(msg);
    }
    expect(await profileOf(server.users.dev.user_id)).toEqual(before);
    // Administrators may set admin-only fields on themselves.
    const admin = await server
      .client('admin')
      .patch('/users/me/profile_data', { data: [{ id: fields.Title, value: 'Admin' }] });
    expect(admin.status).toBe(200);
  });
});

describe('deactivation', () => {
  it('deactivates a user: peer_remove, realm_user update, dead API key, owned bots too; then reactivates', async () => {
    const q = await registerQueue(server.client('farid'), {
      event_types: ['realm_user', 'subscription'],
    });
    const devQueue = await registerQueue(server.client('dev'));
    type Group = { name: string; members: number[] };
    const groupsWithDev = (groups: Group[]) =>
      groups.filter((g) => g.members.includes(server.users.dev.user_id)).map((g) => g.name);
    const groupsBefore = groupsWithDev(
      (
        await server.client('farid').post('/register', {
          fetch_event_types: ['realm_user_groups'],
        })
      ).body.realm_user_groups as Group[],
    );
    expect(groupsBefore.length).toBeGreaterThan(0);
    const res = await server.client('admin').delete(`/users/${server.users.dev.user_id}`);
    expect(res.status).toBe(200);
    const events = await q.next();
    const firstDeactivation = events.findIndex((e) => e.type === 'realm_user');
    const peerRemoves = events.filter(
      (e) => e.op === 'peer_remove' && e.user_ids[0] === server.users.dev.user_id,
    );
    expect(peerRemoves.length).toBeGreaterThan(0);
    expect(events.indexOf(peerRemoves[0])).toBeLessThan(firstDeactivation);
    const deactivated = events.filter((e) => e.type === 'realm_user').map((e) => e.person);
    expect(deactivated).toEqual(
      expect.arrayContaining([
        { user_id: server.users.dev.user_id, is_active: false },
        { user_id: server.users.helperBot.user_id, is_active: false },
      ]),
    );
    expect((await server.client('dev').get('/users/me')).body.code).toBe('USER_DEACTIVATED');
    expect((await server.client('helperBot').get('/users/me')).status).toBe(401);
    const state = await server
      .client('farid')
      .post('/register', { fetch_event_types: ['realm_user', 'realm_user_groups'] });
    expect(state.body.realm_non_active_users.map((u: { user_id: number }) => u.user_id)).toContain(
      server.users.dev.user_id,
    );
    // No group lists a deactivated user (FL 303); reactivation gives the memberships back.
    expect(groupsWithDev(state.body.realm_user_groups as Group[])).toEqual([]);

    const back = await server.client('admin').post(`/users/${server.users.dev.user_id}/reactivate`);
    expect(back.status).toBe(200);
    const reactivated = await q.waitFor(
      (e) => e.type === 'realm_user' && e.person.is_active === true,
    );
    expect(reactivated.person.user_id).toBe(server.users.dev.user_id);
    expect((await server.client('dev').get('/users/me')).status).toBe(200);
    const after = await server
      .client('farid')
      .post('/register', { fetch_event_types: ['realm_user_groups'] });
    expect(groupsWithDev(after.body.realm_user_groups as Group[])).toEqual(groupsBefore);
    // The queues of the deactivated user were dropped.
    const oldQueue = await server.client('dev').get('/events', {
      queue_id: devQueue.queueId,
      last_event_id: -1,
      dont_block: true,
    });
    expect(oldQueue.body.code).toBe('BAD_EVENT_QUEUE_ID');
  });

  it('protects the last owner and refuses non-administrators', async () => {
    const member = await server.client('emma').delete(`/users/${server.users.farid.user_id}`);
    expect(member.status).toBe(400);
    const adminOnOwner = await server
      .client('admin')
      .delete(`/users/${server.users.owner.user_id}`);
    expect(adminOnOwner.status).toBe(400);
    const lastOwner = await server.client('owner').delete('/users/me');
    expect(lastOwner.status).toBe(400);
    expect(lastOwner.body).toMatchObject({
      code: 'CANNOT_DEACTIVATE_LAST_USER',
      is_last_owner: true,
      entity: 'organization owner',
    });
    expect((await server.client('owner').get('/users/me')).status).toBe(200);
    expect((await server.client('farid').get('/users/me')).status).toBe(200);
  });

  it('lets a user deactivate themselves', async () => {
    const res = await server.client('guest').delete('/users/me');
    expect(res.status).toBe(200);
    expect((await server.client('guest').get('/users/me')).body.code).toBe('USER_DEACTIVATED');
  });
});
