// User group administration (issue #11 item 5): PATCH /user_groups/{id}, members, subgroups,
// deactivation and reactivation, each change seen by another user's event queue, and the public
// server's refusals for users without rights.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../support/server';
import { systemGroupIds } from './groups-support';
import { registerQueue, type TestQueue } from '../support/events';

let server: TestServer;
let systemGroups: Record<string, number>;
let ids: Record<string, number>;

beforeAll(async () => {
  server = await startTestServer();
  ids = server.userIds;
  systemGroups = await systemGroupIds(server);
});
afterAll(async () => {
  await server.close();
});

/** dev creates a group (dev alone may manage it, as the creator). */
async function createGroup(name: string, members: number[], subgroups: number[] = []) {
  const res = await server.client('dev').post('/user_groups/create', {
    name,
    description: `${name} group`,
    members,
    subgroups,
  });
  expect(res.status).toBe(200);
  return res.body.group_id as number;
}

function groupEvents(who: string, includeDeactivated = false): Promise<TestQueue> {
  return registerQueue(server.client(who), {
    event_types: ['user_group'],
    client_capabilities: { include_deactivated_groups: includeDeactivated },
  });
}

async function expectRefused(
  res: Promise<{ status: number; body: Record<string, unknown> }>,
  msg: string,
) {
  const answer = await res;
  expect(answer.status).toBe(400);
  expect(answer.body).toMatchObject({ result: 'error', code: 'BAD_REQUEST', msg });
}

describe('PATCH /user_groups/{id}', () => {
  it('renames, describes and changes settings, each announced to the realm', async () => {
    const groupId = await createGroup('writers', [ids.dev, ids.emma]);
    const q = await groupEvents('farid');
    const res = await server.client('dev').patch(`/user_groups/${groupId}`, {
      name: 'authors',
      description: 'People who write',
      can_mention_group: { new: systemGroups['role:moderators'] },
      can_join_group: { new: systemGroups['role:members'], old: systemGroups['role:nobody'] },
    });
    expect(res.status).toBe(200);
    const data = [];
    for (let i = 0; i < 4; i++) {
      const event = await q.waitFor((e) => e.type === 'user_group' && e.op === 'update');
      expect(event.group_id).toBe(groupId);
      data.push(event.data);
    }
    expect(data).toEqual(
      expect.arrayContaining([
        { name: 'authors' },
        { description: 'People who write' },
        { can_mention_group: systemGroups['role:moderators'] },
        { can_join_group: systemGroups['role:members'] },
      ]),
    );
    const group = (await server.client('farid').get('/user_groups')).body.user_groups.find(
      (g: { id: number }) => g.id === groupId,
    );
    expect(group).toMatchObject({
      name: 'authors',
      description: 'People who write',
      can_mention_group: systemGroups['role:moderators'],
    });
  });

  it('refuses members without rights, guests, bad names and a stale old value', async () => {
    const groupId = await createGroup('reviewers', [ids.dev, ids.farid]);
    const path = `/user_groups/${groupId}`;
    // farid is a member but not in can_manage_group; admins are not either (can_manage_all_groups
    // is owners-only by default).
    await expectRefused(
      server.client('farid').patch(path, { name: 'mine' }),
      'Insufficient permission',
    );
    await expectRefused(
      server.client('admin').patch(path, { name: 'mine' }),
      'Insufficient permission',
    );
    await expectRefused(
      server.client('guest').patch(path, { name: 'mine' }),
      'Not allowed for guest users',
    );
    await expectRefused(server.client('dev').patch(path, {}), 'No new data supplied');
    await expectRefused(
      server.client('dev').patch(path, { name: 'role:x' }),
      "User group name cannot start with 'role:'.",
    );
    await expectRefused(
      server.client('dev').patch(path, { name: '   ' }),
      "User group name can't be empty!",
    );
    await createGroup('taken', [ids.dev]);
    await expectRefused(
      server.client('dev').patch(path, { name: 'taken' }),
      "User group 'taken' already exists.",
    );
    await expectRefused(
      server.client('dev').patch(path, {
        can_mention_group: { new: systemGroups['role:members'], old: systemGroups['role:nobody'] },
      }),
      "'old' value does not match the expected value.",
    );
    await expectRefused(
      server.client('dev').patch(path, {
        can_manage_group: { new: systemGroups['role:everyone'] },
      }),
      "'can_manage_group' setting cannot be set to 'role:everyone' group.",
    );
    await expectRefused(
      server.client('owner').patch(`/user_groups/${systemGroups['role:members']}`, {
        description: 'x',
      }),
      'Insufficient permission',
    );
    await expectRefused(
      server.client('dev').patch('/user_groups/99999', { name: 'x' }),
      'Invalid user group',
    );
    // The owner may manage every group (can_manage_all_groups).
    expect((await server.client('owner').patch(path, { description: 'checked' })).status).toBe(200);
    const group = (await server.client('dev').get('/user_groups')).body.user_groups.find(
      (g: { id: number }) => g.id === groupId,
    );
    expect(group).toMatchObject({ name: 'reviewers', description: 'checked' });
  });

  it('a right given through membership of another group follows that membership at once', async () => {
    const leads = await createGroup('leads', [ids.dev]);
    const project = await createGroup('project', [ids.dev]);
    const dev = server.client('dev');
    await dev.patch(`/user_groups/${project}`, { can_manage_group: { new: leads } });
    const rename = (name: string) =>
      server.client('farid').patch(`/user_groups/${project}`, { name });
    await expectRefused(rename('farid-project'), 'Insufficient permission');
    await dev.post(`/user_groups/${leads}/members`, { add: [ids.farid] });
    expect((await rename('farid-project')).status).toBe(200);
    await dev.post(`/user_groups/${leads}/members`, { delete: [ids.farid] });
    await expectRefused(rename('again'), 'Insufficient permission');
  });

  it('a renamed group is mentioned by its new name', async () => {
    const groupId = await createGroup('oncall', [ids.dev]);
    await server.client('dev').patch(`/user_groups/${groupId}`, { name: 'pager' });
    const send = (content: string) =>
      server.client('emma').post('/messages', {
        type: 'stream',
        to: 'general',
        topic: 'group mentions',
        content,
      });
    const sent = await send('ping @*pager* and @*oncall*');
    expect(sent.status).toBe(200);
    const message = await server
      .client('emma')
      .get(`/messages/${sent.body.id}`, { apply_markdown: true });
    expect(message.body.message.content).toContain(
      `<span class="user-group-mention" data-user-group-id="${groupId}">@pager</span>`,
    );
    expect(message.body.message.content).not.toContain('>@oncall<');
  });
});

describe('POST /user_groups/{id}/members', () => {
  it('adds and removes members with events, notification DMs and rights checks', async () => {
    const groupId = await createGroup('support', [ids.dev]);
    const path = `/user_groups/${groupId}/members`;
    const q = await groupEvents('moderator');
    const emmaMessages = await registerQueue(server.client('emma'), { event_types: ['message'] });
    expect((await server.client('dev').post(path, { add: [ids.emma, ids.farid] })).status).toBe(
      200,
    );
    expect(await q.waitFor((e) => e.op === 'add_members' && e.group_id === groupId)).toMatchObject({
      user_ids: [ids.emma, ids.farid].sort((a, b) => a - b),
    });
    const dm = await emmaMessages.waitFor((e) => e.type === 'message');
    expect(dm.message.content).toContain('added you to the group');

    // Members without can_add_members_group / can_remove_members_group.
    await expectRefused(
      server.client('farid').post(path, { add: [ids.moderator] }),
      'Insufficient permission',
    );
    await expectRefused(
      server.client('farid').post(path, { delete: [ids.emma] }),
      'Insufficient permission',
    );
    await expectRefused(
      server.client('moderator').post(path, { add: [ids.moderator] }),
      'Insufficient permission',
    );
    await expectRefused(
      server.client('dev').post(path, { add: [ids.emma] }),
      `User ${ids.emma} is already a member of this group`,
    );
    await expectRefused(
      server.client('dev').post(path, { delete: [ids.moderator] }),
      `There is no member '${ids.moderator}' in this user group`,
    );
    await expectRefused(
      server.client('dev').post(path, {}),
      'Nothing to do. Specify at least one of "add", "delete", "add_subgroups" or "delete_subgroups".',
    );

    // Leaving is open to everyone by default; joining once can_join_group allows it.
    expect((await server.client('farid').post(path, { delete: [ids.farid] })).status).toBe(200);
    expect(
      await q.waitFor((e) => e.op === 'remove_members' && e.group_id === groupId),
    ).toMatchObject({ user_ids: [ids.farid] });
    await server
      .client('dev')
      .patch(`/user_groups/${groupId}`, { can_join_group: { new: systemGroups['role:members'] } });
    expect((await server.client('moderator').post(path, { add: [ids.moderator] })).status).toBe(
      200,
    );
    expect(await q.waitFor((e) => e.op === 'add_members' && e.group_id === groupId)).toMatchObject({
      user_ids: [ids.moderator],
    });

    const members = await server.client('farid').get(path, { direct_member_only: true });
    expect(members.body.members).toEqual([ids.dev, ids.emma, ids.moderator].sort((a, b) => a - b));
    const isMember = await server.client('farid').get(`${path}/${ids.emma}`);
    expect(isMember.body.is_user_group_member).toBe(true);
  });

  it('takes add_subgroups and delete_subgroups too', async () => {
    const parent = await createGroup('frontend', [ids.dev]);
    const child = await createGroup('css', [ids.emma]);
    const q = await groupEvents('farid');
    const path = `/user_groups/${parent}/members`;
    expect((await server.client('dev').post(path, { add_subgroups: [child] })).status).toBe(200);
    expect(await q.waitFor((e) => e.op === 'add_subgroups')).toMatchObject({
      group_id: parent,
      direct_subgroup_ids: [child],
    });
    const all = await server.client('farid').get(path);
    expect(all.body.members).toEqual([ids.dev, ids.emma].sort((a, b) => a - b));
    const direct = await server.client('farid').get(path, { direct_member_only: true });
    expect(direct.body.members).toEqual([ids.dev]);
    expect((await server.client('dev').post(path, { delete_subgroups: [child] })).status).toBe(200);
    expect(await q.waitFor((e) => e.op === 'remove_subgroups')).toMatchObject({
      group_id: parent,
      direct_subgroup_ids: [child],
    });
  });
});

describe('POST /user_groups/{id}/subgroups', () => {
  it('adds and removes subgroups with events and refuses cycles', async () => {
    const top = await createGroup('engineering', [ids.dev]);
    const middle = await createGroup('platform', [ids.dev]);
    const bottom = await createGroup('databases', [ids.emma]);
    const q = await groupEvents('emma');
    const dev = server.client('dev');
    expect((await dev.post(`/user_groups/${top}/subgroups`, { add: [middle] })).status).toBe(200);
    expect((await dev.post(`/user_groups/${middle}/subgroups`, { add: [bottom] })).status).toBe(
      200,
    );
    expect(await q.waitFor((e) => e.op === 'add_subgroups' && e.group_id === middle)).toMatchObject(
      { direct_subgroup_ids: [bottom] },
    );
    await expectRefused(
      dev.post(`/user_groups/${bottom}/subgroups`, { add: [top] }),
      `User group ${bottom} is already a subgroup of one of the passed subgroups.`,
    );
    await expectRefused(
      dev.post(`/user_groups/${top}/subgroups`, { add: [top] }),
      `User group ${top} is already a subgroup of one of the passed subgroups.`,
    );
    await expectRefused(
      dev.post(`/user_groups/${top}/subgroups`, { add: [middle] }),
      `User group ${middle} is already a subgroup of this group.`,
    );
    await expectRefused(
      dev.post(`/user_groups/${top}/subgroups`, { delete: [bottom] }),
      `User group ${bottom} is not a subgroup of this group.`,
    );
    await expectRefused(
      server.client('emma').post(`/user_groups/${top}/subgroups`, { delete: [middle] }),
      'Insufficient permission',
    );
    const recursive = await server.client('emma').get(`/user_groups/${top}/subgroups`);
    expect(recursive.body.subgroups).toEqual([middle, bottom].sort((a, b) => a - b));
    const direct = await server
      .client('emma')
      .get(`/user_groups/${top}/subgroups`, { direct_subgroup_only: true });
    expect(direct.body.subgroups).toEqual([middle]);
    const everyone = await server.client('emma').get(`/user_groups/${top}/members`);
    expect(everyone.body.members).toEqual([ids.dev, ids.emma].sort((a, b) => a - b));

    expect((await dev.post(`/user_groups/${middle}/subgroups`, { delete: [bottom] })).status).toBe(
      200,
    );
    expect(
      await q.waitFor((e) => e.op === 'remove_subgroups' && e.group_id === middle),
    ).toMatchObject({ direct_subgroup_ids: [bottom] });
    // The membership caches follow: emma is no longer in engineering through databases.
    const after = await server.client('emma').get(`/user_groups/${top}/members`);
    expect(after.body.members).toEqual([ids.dev]);
  });
});

describe('deactivation', () => {
  it('refuses while the group is in use, then deactivates and reactivates with events', async () => {
    const used = await createGroup('mentors', [ids.dev]);
    const parent = await createGroup('staff', [ids.dev], [used]);
    const other = await createGroup('juniors', [ids.emma]);
    const dev = server.client('dev');
    await dev.patch(`/user_groups/${other}`, { can_mention_group: { new: used } });
    const refused = await dev.post(`/user_groups/${used}/deactivate`);
    expect(refused.status).toBe(400);
    expect(refused.body).toMatchObject({
      code: 'CANNOT_DEACTIVATE_GROUP_IN_USE',
      msg: 'Cannot deactivate user group in use.',
      objections: [
        { type: 'subgroup', supergroup_ids: [parent] },
        { type: 'user_group', group_id: other, settings: ['can_mention_group'] },
      ],
    });
    await dev.patch(`/user_groups/${other}`, {
      can_mention_group: { new: systemGroups['role:everyone'] },
    });
    await dev.post(`/user_groups/${parent}/subgroups`, { delete: [used] });

    await expectRefused(
      server.client('farid').post(`/user_groups/${used}/deactivate`),
      'Insufficient permission',
    );
    const modern = await groupEvents('emma', true);
    const legacy = await groupEvents('farid', false);
    expect((await dev.post(`/user_groups/${used}/deactivate`)).status).toBe(200);
    expect(await modern.waitFor((e) => e.group_id === used)).toMatchObject({
      op: 'update',
      data: { deactivated: true },
    });
    expect(await legacy.waitFor((e) => e.group_id === used)).toMatchObject({ op: 'remove' });
    await expectRefused(dev.post(`/user_groups/${used}/deactivate`), 'User group is deactivated.');
    const listed = await server.client('emma').get('/user_groups');
    expect(listed.body.user_groups.map((g: { id: number }) => g.id)).not.toContain(used);

    expect((await dev.patch(`/user_groups/${used}`, { deactivated: false })).status).toBe(200);
    expect(await modern.waitFor((e) => e.group_id === used)).toMatchObject({
      op: 'update',
      data: { deactivated: false },
    });
    expect(await legacy.waitFor((e) => e.group?.id === used)).toMatchObject({
      op: 'add',
      group: { id: used, name: 'mentors', deactivated: false },
    });
  });

  it('names the realm and channel settings that use the group', async () => {
    const groupId = await createGroup('creators', [ids.dev]);
    const realm = await server
      .client('owner')
      .patch('/realm', { can_create_groups: { new: groupId } });
    expect(realm.status).toBe(200);
    const channel = (await server.client('owner').get('/streams')).body.streams[0] as {
      stream_id: number;
    };
    const patched = await server
      .client('owner')
      .patch(`/streams/${channel.stream_id}`, { can_send_message_group: { new: groupId } });
    expect(patched.status).toBe(200);
    const refused = await server.client('owner').post(`/user_groups/${groupId}/deactivate`);
    expect(refused.body).toMatchObject({
      code: 'CANNOT_DEACTIVATE_GROUP_IN_USE',
      objections: [
        { type: 'channel', channel_id: channel.stream_id, settings: ['can_send_message_group'] },
        { type: 'realm', settings: ['can_create_groups'] },
      ],
    });
  });
});
