// Organization administration over HTTP: PATCH /realm for profile and settings (with the public
// server's update / update_dict events and owner-only rules), default settings for new users,
// PATCH /users/{id} (role, name, profile data), deactivation, POST /users and invitation links.
// Each endpoint is also checked refusing a member (and an administrator where owners are needed).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../support/server';
import { registerQueue, type TestQueue } from '../support/events';

let server: TestServer;
let emmaQueue: TestQueue;
const client = (who: string) => server.client(who);

async function userId(who: string): Promise<number> {
  return (await client(who).get('/users/me')).body.user_id as number;
}

beforeAll(async () => {
  server = await startTestServer({ seed: 'demo' });
  emmaQueue = await registerQueue(client('emma'), {
    event_types: JSON.stringify([
      'realm',
      'realm_user',
      'realm_user_settings_defaults',
      'user_group',
    ]),
  });
});
afterAll(() => server?.close());

describe('PATCH /realm: profile and settings', () => {
  it('changes the profile and every user hears it as the public server sends it', async () => {
    const res = await client('admin').patch('/realm', {
      name: 'Tributary Crew',
      description: 'We **row** together.',
      default_language: 'de',
    });
    expect(res.body).toMatchObject({ result: 'success', name: 'updated', description: 'updated' });
    const name = await emmaQueue.waitFor((e) => e.type === 'realm' && e.property === 'name');
    expect(name).toMatchObject({ op: 'update', value: 'Tributary Crew' });
    const description = await emmaQueue.waitFor(
      (e) => e.type === 'realm' && e.op === 'update_dict' && 'description' in e.data,
    );
    expect(description.data).toEqual({
      description: 'We **row** together.',
      rendered_description: '<p>We <strong>row</strong> together.</p>',
    });
    const language = await emmaQueue.waitFor(
      (e) => e.type === 'realm' && e.property === 'default_language',
    );
    expect(language.value).toBe('de');
    const state = await client('emma').post('/register', { fetch_event_types: '["realm"]' });
    expect(state.body).toMatchObject({
      realm_name: 'Tributary Crew',
      realm_description: 'We **row** together.',
      realm_default_language: 'de',
    });
  });

  it('sets time limits ("unlimited" is null), code block language and video provider', async () => {
    const res = await client('admin').patch('/realm', {
      allow_message_editing: false,
      message_content_edit_limit_seconds: 3600,
      // Json[int | str] on the public server: the word is JSON-encoded too.
      message_content_delete_limit_seconds: JSON.stringify('unlimited'),
      default_code_block_language: 'python',
      video_chat_provider: 0,
      message_edit_history_visibility_policy: 'moves',
    });
    expect(res.body.result).toBe('success');
    const editing = await emmaQueue.waitFor(
      (e) => e.type === 'realm' && e.op === 'update_dict' && 'allow_message_editing' in e.data,
    );
    expect(editing.data).toEqual({ allow_message_editing: false });
    const limit = await emmaQueue.waitFor(
      (e) =>
        e.type === 'realm' &&
        e.op === 'update_dict' &&
        'message_content_edit_limit_seconds' in e.data,
    );
    expect(limit.data).toEqual({ message_content_edit_limit_seconds: 3600 });
    const codeBlock = await emmaQueue.waitFor(
      (e) => e.type === 'realm' && e.property === 'default_code_block_language',
    );
    expect(codeBlock).toMatchObject({ op: 'update', value: 'python' });
    const video = await emmaQueue.waitFor(
      (e) => e.type === 'realm' && e.property === 'video_chat_provider',
    );
    expect(video.value).toBe(0);
    const state = await client('emma').post('/register', { fetch_event_types: '["realm"]' });
    expect(state.body).toMatchObject({
      realm_allow_message_editing: false,
      realm_message_content_edit_limit_seconds: 3600,
      realm_message_content_delete_limit_seconds: null,
      realm_default_code_block_language: 'python',
      realm_video_chat_provider: 0,
      realm_message_edit_history_visibility_policy: 'moves',
      realm_allow_edit_history: true,
      realm_available_video_chat_providers: {
        disabled: { name: 'None', id: 0 },
        jitsi_meet: { name: 'Jitsi Meet', id: 1 },
      },
    });
  });

  it('refuses members, owner-only settings for administrators, and bad values', async () => {
    const member = await client('dev').patch('/realm', { name: 'Mine now' });
    expect(member.status).toBe(400);
    expect(member.body).toMatchObject({
      code: 'BAD_REQUEST',
      msg: 'Must be an organization administrator',
    });
    const retention = await client('admin').patch('/realm', { message_retention_days: 30 });
    expect(retention.body.msg).toBe('Must be an organization owner');
    const invites = await client('admin').patch('/realm', { invite_required: false });
    expect(invites.body.msg).toBe('Must be an organization owner');
    const owner = await client('owner').patch('/realm', { message_retention_days: 30 });
    expect(owner.body.result).toBe('success');

    const refusals: Array<[Record<string, unknown>, string, string]> = [
      [{ name: '   ' }, 'BAD_REQUEST', "Organization name can't be empty."],
      [
        { name: 'x'.repeat(41) },
        'BAD_REQUEST',
        'Organization name is too long (at most 40 characters).',
      ],
      [{ default_language: 'xx' }, 'BAD_REQUEST', "Invalid language 'xx'"],
      [{ video_chat_provider: 7 }, 'BAD_REQUEST', 'Invalid video_chat_provider 7'],
      [
        { message_content_edit_limit_seconds: 0 },
        'REQUEST_VARIABLE_INVALID',
        "Bad value for 'message_content_edit_limit_seconds': 0",
      ],
      [
        { message_edit_history_visibility_policy: 'some' },
        'REQUEST_VARIABLE_INVALID',
        'Invalid message_edit_history_visibility_policy',
      ],
    ];
    for (const [params, code, msg] of refusals) {
      // A refused request changes nothing, even its valid parts.
      const res = await client('owner').patch('/realm', {
        ...params,
        default_code_block_language: 'rust',
      });
      expect(res.status).toBe(400);
      expect(res.body.code).toBe(code);
      expect(String(res.body.msg)).toContain(msg);
    }
    const state = await client('emma').post('/register', { fetch_event_types: '["realm"]' });
    expect(state.body.realm_default_code_block_language).toBe('python');
    expect(state.body.realm_message_retention_days).toBe(30);
  });

  it('changes a group setting with update_dict and keeps owner-only groups for owners', async () => {
    const groups = (
      await client('owner').post('/register', { fetch_event_types: '["realm_user_groups"]' })
    ).body.realm_user_groups as Array<{ id: number; name: string }>;
    const moderators = groups.find((g) => g.name === 'role:moderators')!.id;
    const admin = await client('admin').patch('/realm', {
      can_invite_users_group: JSON.stringify({ new: moderators }),
    });
    expect(admin.body.msg).toBe('Must be an organization owner');
    const res = await client('admin').patch('/realm', {
      can_add_custom_emoji_group: JSON.stringify({ new: moderators }),
    });
    expect(res.body.result).toBe('success');
    const event = await emmaQueue.waitFor(
      (e) => e.type === 'realm' && e.op === 'update_dict' && 'can_add_custom_emoji_group' in e.data,
    );
    expect(event).toMatchObject({
      property: 'default',
      data: { can_add_custom_emoji_group: moderators },
    });
  });
});

describe('PATCH /realm/user_settings_defaults', () => {
  it('changes a default for new users and announces it', async () => {
    const res = await client('admin').patch('/realm/user_settings_defaults', {
      web_home_view: 'recent',
      web_font_size_px: 14,
    });
    expect(res.body.result).toBe('success');
    const event = await emmaQueue.waitFor(
      (e) => e.type === 'realm_user_settings_defaults' && e.property === 'web_home_view',
    );
    expect(event).toMatchObject({ op: 'update', value: 'recent' });
    // A user created now starts from the new defaults.
    const created = await client('owner').post('/users', {
      email: 'newbie@tributary.local',
      password: 'newbie-password',
      full_name: 'New Bie',
    });
    expect(created.body.result).toBe('success');
  });

  it('leaves out what the public server does not take as a default (login emails)', async () => {
    const res = await client('admin').patch('/realm/user_settings_defaults', {
      enable_login_emails: false,
    });
    expect(res.body.result).toBe('success');
    expect(res.body.ignored_parameters_unsupported).toEqual(['enable_login_emails']);
    const state = await client('admin').post('/register', {
      fetch_event_types: '["realm_user_settings_defaults"]',
    });
    expect(state.body.realm_user_settings_defaults.enable_login_emails).toBe(true);
  });

  it('refuses values out of range and members', async () => {
    const big = await client('admin').patch('/realm/user_settings_defaults', {
      web_font_size_px: 40,
    });
    expect(big.status).toBe(400);
    expect(big.body.code).toBe('REQUEST_VARIABLE_INVALID');
    const view = await client('admin').patch('/realm/user_settings_defaults', { color_scheme: 9 });
    expect(view.status).toBe(400);
    const member = await client('dev').patch('/realm/user_settings_defaults', { emojiset: 'text' });
    expect(member.body).toMatchObject({
      code: 'BAD_REQUEST',
      msg: 'Must be an organization administrator',
    });
  });
});

describe('users: roles, names, profile data, deactivation, creation', () => {
  it('changes a role: realm_user update and the system groups follow', async () => {
    const farid = await userId('farid');
    const res = await client('admin').patch(`/users/${farid}`, { role: 300 });
    expect(res.body.result).toBe('success');
    const update = await emmaQueue.waitFor(
      (e) =>
        e.type === 'realm_user' &&
        e.op === 'update' &&
        e.person.user_id === farid &&
        'role' in e.person,
    );
    expect(update.person).toEqual({ user_id: farid, role: 300 });
    const added = await emmaQueue.waitFor((e) => e.type === 'user_group' && e.op === 'add_members');
    expect(added.user_ids).toEqual([farid]);
    const farids = await client('farid').post('/register', { fetch_event_types: '["realm_user"]' });
    expect(farids.body.is_moderator).toBe(true);
  });

  it('keeps owners for owners and the last owner an owner', async () => {
    const farid = await userId('farid');
    const owner = await userId('owner');
    const promote = await client('admin').patch(`/users/${farid}`, { role: 100 });
    expect(promote.body.msg).toBe('Must be an organization owner');
    const last = await client('owner').patch(`/users/${owner}`, { role: 200 });
    expect(last.body.msg).toBe(
      'The owner permission cannot be removed from the only organization owner.',
    );
    const invalid = await client('owner').patch(`/users/${farid}`, { role: 250 });
    expect(invalid.body.msg).toBe('Invalid role');
    const member = await client('dev').patch(`/users/${farid}`, { role: 400 });
    expect(member.body).toMatchObject({
      code: 'BAD_REQUEST',
      msg: 'Must be an organization administrator',
    });
  });

  it("changes someone's name and custom profile field", async () => {
    const emma = await userId('emma');
    const fields = (
      await client('owner').post('/register', { fetch_event_types: '["custom_profile_fields"]' })
    ).body.custom_profile_fields as Array<{ id: number; name: string }>;
    const title = fields.find((f) => f.name === 'Title')!.id;
    const res = await client('owner').patch(`/users/${emma}`, {
      full_name: 'Emma Rower',
      profile_data: JSON.stringify([{ id: title, value: 'Coxswain' }]),
    });
    expect(res.body.result).toBe('success');
    const name = await emmaQueue.waitFor(
      (e) => e.type === 'realm_user' && e.person.user_id === emma && 'full_name' in e.person,
    );
    expect(name.person.full_name).toBe('Emma Rower');
    const field = await emmaQueue.waitFor(
      (e) =>
        e.type === 'realm_user' && e.person.user_id === emma && 'custom_profile_field' in e.person,
    );
    expect(field.person.custom_profile_field).toMatchObject({ id: title, value: 'Coxswain' });
    const blank = await client('owner').patch(`/users/${emma}`, { full_name: '  ' });
    expect(blank.body.msg).toBe('Invalid full name');
  });

  it('deactivates and reactivates with realm_user events; members may not', async () => {
    const farid = await userId('farid');
    const member = await client('dev').delete(`/users/${farid}`);
    expect(member.body.msg).toBe('Must be an organization administrator');
    expect((await client('admin').delete(`/users/${farid}`)).body.result).toBe('success');
    const off = await emmaQueue.waitFor(
      (e) => e.type === 'realm_user' && e.op === 'update' && e.person.is_active === false,
    );
    expect(off.person).toEqual({ user_id: farid, is_active: false });
    expect((await client('admin').post(`/users/${farid}/reactivate`)).body.result).toBe('success');
    const on = await emmaQueue.waitFor(
      (e) => e.type === 'realm_user' && e.op === 'update' && e.person.is_active === true,
    );
    expect(on.person.user_id).toBe(farid);
  });

  it('creates a user (can_create_users) and refuses members and duplicates', async () => {
    const res = await client('owner').post('/users', {
      email: 'rowan@tributary.local',
      password: 'rowan-password',
      full_name: 'Rowan Oar',
    });
    expect(res.body.result).toBe('success');
    const added = await emmaQueue.waitFor(
      (e) => e.type === 'realm_user' && e.op === 'add' && e.person.user_id === res.body.user_id,
    );
    expect(added.person.full_name).toBe('Rowan Oar');
    const again = await client('owner').post('/users', {
      email: 'rowan@tributary.local',
      password: 'rowan-password',
      full_name: 'Rowan Again',
    });
    expect(again.body.msg).toBe("Email 'rowan@tributary.local' already in use");
    const member = await client('dev').post('/users', {
      email: 'x@tributary.local',
      password: 'xx-password',
      full_name: 'X',
    });
    expect(member.body).toMatchObject({
      code: 'BAD_REQUEST',
      msg: 'Must be an organization administrator',
    });
  });
});

describe('invitations', () => {
  it('creates, lists and revokes an invitation link', async () => {
    const ownerQueue = await registerQueue(client('owner'), { event_types: '["invites_changed"]' });
    // Administrators other than the inviter are told too.
    const adminQueue = await registerQueue(client('admin'), { event_types: '["invites_changed"]' });
    const res = await client('owner').post('/invites/multiuse', {
      invite_as: 400,
      invite_expires_in_minutes: 60,
    });
    expect(res.body.invite_link).toMatch(/\/join\/[0-9a-f]{24}\/$/);
    await ownerQueue.waitFor((e) => e.type === 'invites_changed');
    await adminQueue.waitFor((e) => e.type === 'invites_changed');
    const listed = await client('owner').get('/invites');
    expect(listed.body.invites).toEqual([
      expect.objectContaining({
        is_multiuse: true,
        invited_as: 400,
        link_url: res.body.invite_link,
      }),
    ]);
    const id = listed.body.invites[0].id as number;
    expect((await client('dev').get('/invites')).body.invites).toEqual([]);
    expect((await client('dev').delete(`/invites/multiuse/${id}`)).body.msg).toBe(
      'Must be an organization administrator',
    );
    expect((await client('owner').delete(`/invites/multiuse/${id}`)).body.result).toBe('success');
    await ownerQueue.waitFor((e) => e.type === 'invites_changed');
    await adminQueue.waitFor((e) => e.type === 'invites_changed');
    expect((await client('owner').get('/invites')).body.invites).toEqual([]);
  });

  it('refuses members (create_multiuse_invite_group), admins inviting owners, and e-mail', async () => {
    const member = await client('dev').post('/invites/multiuse', {});
    expect(member.body).toMatchObject({ code: 'BAD_REQUEST', msg: 'Insufficient permission' });
    const admin = await client('admin').post('/invites/multiuse', { invite_as: 100 });
    expect(admin.body.msg).toBe('Must be an organization owner');
    const email = await client('owner').post('/invites', {
      invitee_emails: 'a@example.com',
      stream_ids: '[]',
    });
    expect(email.status).toBe(400);
    expect(email.body.msg).toContain('cannot send e-mail invitations');
  });
});
