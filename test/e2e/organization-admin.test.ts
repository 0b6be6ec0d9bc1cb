// Organization administration in real Chromium against the real local server (browser mode): the
// owner changes the organization profile, settings, permissions, defaults for new users and users
// from Settings, and a second client sees each change live (a member's app in a second window,
// and an event queue over HTTP). The member's window shows the same screens without controls,
// and the member's direct API calls are refused.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdirSync } from 'node:fs';
import type { Page } from 'playwright-core';
import { appSession, openApp, realmClient, startApp, type App } from './support/app';
import { registerQueue, type TestQueue } from '../support/events';

const SHOTS = 'test-results/organization-admin';
const session = appSession('owner');
const client = (who: string) => realmClient(session.realm, who);
let queue: TestQueue;
let memberApp: App;
let member: Page;

beforeAll(async () => {
  mkdirSync(SHOTS, { recursive: true });
  queue = await registerQueue(client('emma'), {
    event_types: JSON.stringify(['realm', 'realm_user', 'realm_user_settings_defaults']),
  });
  const status = await client('emma').post('/users/me/status', {
    status_text: 'On the water',
    emoji_name: 'sailboat',
  });
  expect(status.body.result).toBe('success');
  memberApp = await startApp(session.realm, 'dev');
  member = await openApp(session.browser, memberApp);
}, 120_000);
afterAll(async () => {
  await memberApp?.close();
});

async function openSection(page: Page, label: string): Promise<void> {
  if (!(await page.getByRole('navigation', { name: 'Settings sections' }).isVisible())) {
    await page.getByRole('button', { name: 'Settings', exact: true }).click();
  }
  await page
    .getByRole('navigation', { name: 'Settings sections' })
    .getByRole('button', { name: label, exact: true })
    .click();
  await page.getByRole('region', { name: label, exact: true }).waitFor();
}

const owner = () => session.page;

describe('organization administration as the owner, followed live by a member', () => {
  it('changes the profile: validation first, then name, description and language', async () => {
    await openSection(owner(), 'Organization profile');
    await openSection(member, 'Organization profile');
    const profile = owner().getByRole('region', { name: 'Organization profile' });
    const name = profile.getByRole('textbox', { name: 'Organization name' });

    await name.fill('  ');
    await profile.getByText("Organization name can't be empty.").waitFor();

    await name.fill('Tributary Rowing Club');
    await profile
      .getByRole('textbox', { name: 'Organization description' })
      .fill('We **row** at dawn.');
    await profile.getByRole('button', { name: 'Preview' }).click();
    const preview = profile.getByRole('region', { name: 'Description preview' });
    await expect(preview.locator('strong').textContent()).resolves.toBe('row');
    await profile
      .getByRole('combobox', { name: 'Language for automated messages and invitation emails' })
      .selectOption('de');
    await owner().screenshot({ path: `${SHOTS}/profile.png` });
    // Each field saved as it was left (the description when Preview was chosen), at once for the
    // language: no Save button.
    await profile.getByText('Saved').first().waitFor();

    const event = await queue.waitFor((e) => e.type === 'realm' && e.property === 'name');
    expect(event.value).toBe('Tributary Rowing Club');
    const description = await queue.waitFor(
      (e) => e.type === 'realm' && e.op === 'update_dict' && 'description' in e.data,
    );
    expect(description.data.rendered_description).toBe('<p>We <strong>row</strong> at dawn.</p>');
    // The member's window follows without a reload, and offers no way to change it.
    const memberName = member
      .getByRole('region', { name: 'Organization profile' })
      .getByRole('textbox', { name: 'Organization name' });
    await expect.poll(() => memberName.inputValue()).toBe('Tributary Rowing Club');
    await expect(memberName.isDisabled()).resolves.toBe(true);
    // The member reads the description rendered, as the public app shows it.
    await member
      .getByRole('region', { name: 'Description preview' })
      .locator('strong', { hasText: 'row' })
      .waitFor();
    await expect(member.getByRole('button', { name: /^Save / }).count()).resolves.toBe(0);
    await member.screenshot({ path: `${SHOTS}/profile-member.png` });
  });

  it('changes message editing limits and other settings', async () => {
    await openSection(owner(), 'Organization settings');
    const editing = owner().getByRole('group', { name: 'Message editing' });
    await editing
      .getByRole('combobox', { name: 'Time limit for editing messages' })
      .selectOption({ label: '1 hour' });
    await editing
      .getByRole('combobox', { name: 'Time limit for deleting messages' })
      .selectOption({ label: 'Custom' });
    const custom = editing.getByRole('textbox', { name: 'Custom time limit (minutes)' });
    await custom.fill('zero');
    await editing
      .getByText('Time limit for deleting messages: enter a positive whole number of minutes.')
      .waitFor();
    await custom.fill('45');
    await custom.press('Enter');
    const limit = await queue.waitFor(
      (e) =>
        e.type === 'realm' &&
        e.op === 'update_dict' &&
        'message_content_edit_limit_seconds' in e.data,
    );
    expect(limit.data.message_content_edit_limit_seconds).toBe(3600);
    const deletion = await queue.waitFor(
      (e) => e.type === 'realm' && e.property === 'message_content_delete_limit_seconds',
    );
    expect(deletion.value).toBe(2700);

    // Retention (owners): a number of days, then forever again. Checking "Retain forever" sent
    // the days shown before the click, so the public server kept deleting after them.
    const retention = owner().getByRole('group', { name: 'Message retention' });
    const forever = retention.getByRole('checkbox', { name: 'Retain forever' });
    const retentionEvent = () =>
      queue.waitFor((e) => e.type === 'realm' && e.property === 'message_retention_days');
    await forever.uncheck();
    const days = retention.getByRole('textbox', { name: 'Delete messages after (days)' });
    await days.fill('3650');
    await days.press('Enter');
    expect((await retentionEvent()).value).toBe(3650);
    await forever.check();
    expect((await retentionEvent()).value).toBe(-1);

    const other = owner().getByRole('group', { name: 'Other settings' });
    await other.getByRole('textbox', { name: 'Default language for code blocks' }).fill('python');
    await other.getByRole('textbox', { name: 'Default language for code blocks' }).press('Tab');
    await other.getByRole('combobox', { name: 'Call provider' }).selectOption({ label: 'None' });
    const video = await queue.waitFor(
      (e) => e.type === 'realm' && e.property === 'video_chat_provider',
    );
    expect(video.value).toBe(0);
    await owner().screenshot({ path: `${SHOTS}/settings.png`, fullPage: true });

    await openSection(member, 'Organization settings');
    const memberCodeBlock = member.getByRole('textbox', {
      name: 'Default language for code blocks',
    });
    await expect.poll(() => memberCodeBlock.inputValue()).toBe('python');
    await expect(memberCodeBlock.isDisabled()).resolves.toBe(true);
  });

  it('changes a permission (a group setting)', async () => {
    await openSection(owner(), 'Organization permissions');
    const other = owner().getByRole('group', { name: 'Other permissions' });
    await other
      .getByRole('combobox', { name: 'Who can add custom emoji' })
      .selectOption({ label: 'Admins' });
    const event = await queue.waitFor(
      (e) => e.type === 'realm' && e.op === 'update_dict' && 'can_add_custom_emoji_group' in e.data,
    );
    expect(typeof event.data.can_add_custom_emoji_group).toBe('number');
    await owner().screenshot({ path: `${SHOTS}/permissions.png` });
    await openSection(member, 'Organization permissions');
    const memberSelect = member.getByRole('combobox', { name: 'Who can add custom emoji' });
    await expect
      .poll(async () => (await memberSelect.locator('option:checked').textContent()) ?? '')
      .toBe('Admins');
    await expect(memberSelect.isDisabled()).resolves.toBe(true);
  });

  it('changes who may join, which only owners may: invitations, addresses, the waiting period', async () => {
    await openSection(owner(), 'Organization permissions');
    const joining = owner().getByRole('group', { name: 'Joining the organization' });
    const changed = (property: string) =>
      queue.waitFor((e) => e.type === 'realm' && e.op === 'update' && e.property === property);
    await joining
      .getByRole('checkbox', { name: 'Invitations are required for joining the organization' })
      .uncheck();
    expect((await changed('invite_required')).value).toBe(false);
    await joining
      .getByRole('combobox', { name: 'Restrict email domains of new users' })
      .selectOption({ label: 'Restrict to a list of domains (Allowed domains)' });
    expect((await changed('emails_restricted_to_domains')).value).toBe(true);
    expect((await changed('disallow_disposable_email_addresses')).value).toBe(false);
    const waiting = joining.getByRole('textbox', { name: /^Waiting period before new members/ });
    await waiting.fill('three');
    await waiting.press('Enter');
    await joining.getByText('Waiting period: enter a whole number of days').waitFor();
    await waiting.fill('3');
    await waiting.press('Enter');
    expect((await changed('waiting_period_threshold')).value).toBe(3);
    await owner().screenshot({ path: `${SHOTS}/joining.png` });
    // The member sees them, unchangeable.
    await openSection(member, 'Organization permissions');
    const seen = member.getByRole('group', { name: 'Joining the organization' });
    const memberWaiting = seen.getByRole('textbox', { name: /^Waiting period before new members/ });
    await expect.poll(() => memberWaiting.inputValue()).toBe('3');
    await expect(memberWaiting.isDisabled()).resolves.toBe(true);
    await expect(
      seen.getByRole('checkbox', { name: /^Invitations are required/ }).isChecked(),
    ).resolves.toBe(false);
  });

  it('changes the defaults for new users; refuses an out-of-range value before sending', async () => {
    await openSection(owner(), 'Default user settings');
    const display = owner().getByRole('group', { name: 'Display settings' });
    const fontSize = display.getByRole('textbox', { name: 'Message-area font size (px)' });
    await fontSize.fill('30');
    await fontSize.press('Enter');
    await display.getByText('Message-area font size (px): between 12 and 24').waitFor();
    await fontSize.fill('15');
    await fontSize.press('Enter');
    await display.getByRole('combobox', { name: 'Emoji theme' }).selectOption('text');
    const event = await queue.waitFor(
      (e) => e.type === 'realm_user_settings_defaults' && e.property === 'web_font_size_px',
    );
    expect(event.value).toBe(15);
    const notifications = owner().getByRole('group', { name: 'Notifications' });
    await notifications
      .getByRole('table', { name: 'Notification triggers' })
      .getByRole('checkbox', { name: 'Channel messages: desktop notifications' })
      .check();
    const desktop = await queue.waitFor(
      (e) =>
        e.type === 'realm_user_settings_defaults' &&
        e.property === 'enable_stream_desktop_notifications',
    );
    expect(desktop.value).toBe(true);
    await owner().screenshot({ path: `${SHOTS}/defaults.png`, fullPage: true });
    await openSection(member, 'Default user settings');
    const memberEmoji = member.getByRole('combobox', { name: 'Emoji theme' });
    await expect.poll(() => memberEmoji.inputValue()).toBe('text');
    await expect(memberEmoji.isDisabled()).resolves.toBe(true);
  });

  it('manages users: search, role, refusals shown, deactivate and reactivate, create', async () => {
    await openSection(owner(), 'Users');
    await openSection(member, 'Users');
    const users = owner().getByRole('region', { name: 'Users', exact: true });
    await users.getByRole('searchbox', { name: 'Filter users' }).fill('emma');
    const table = users.getByRole('table', { name: 'Users' });
    await table.getByRole('row').filter({ hasText: 'Emma Member' }).waitFor();
    await expect(
      table.getByRole('row').filter({ hasText: 'Emma Member' }).textContent(),
    ).resolves.toContain('On the water');
    // The filter leaves the others out (Farid's row is there without it: deactivated below).
    await expect(table.getByRole('row').filter({ hasText: 'Farid Member' }).count()).resolves.toBe(
      0,
    );

    await users.getByRole('button', { name: 'Edit Emma Member' }).click();
    const editor = owner().getByRole('dialog', { name: 'Edit Emma Member' });
    await editor.getByRole('combobox', { name: 'User role' }).selectOption({ label: 'Moderator' });
    await editor.getByRole('textbox', { name: 'Title' }).fill('Coxswain');
    await owner().screenshot({ path: `${SHOTS}/user-editor.png` });
    await editor.getByRole('button', { name: 'Save changes' }).click();
    await editor.waitFor({ state: 'detached' });
    const role = await queue.waitFor(
      (e) => e.type === 'realm_user' && e.op === 'update' && 'role' in e.person,
    );
    expect(role.person.role).toBe(300);
    await queue.waitFor((e) => e.type === 'realm_user' && 'custom_profile_field' in e.person);
    const memberRow = member.getByRole('row').filter({ hasText: 'Emma Member' });
    await memberRow.getByRole('cell', { name: 'Moderator' }).waitFor();
    // The member sees the list without any action.
    await expect(member.getByRole('button', { name: /^(Edit|Deactivate) / }).count()).resolves.toBe(
      0,
    );
    await member.screenshot({ path: `${SHOTS}/users-member.png` });

    // The server's refusal shows where the change was asked for.
    await users.getByRole('searchbox', { name: 'Filter users' }).fill('olivia');
    await users.getByRole('button', { name: 'Edit Olivia Owner' }).click();
    const self = owner().getByRole('dialog', { name: 'Edit Olivia Owner' });
    await self
      .getByRole('combobox', { name: 'User role' })
      .selectOption({ label: 'Administrator' });
    await self.getByRole('button', { name: 'Save changes' }).click();
    await self
      .getByRole('alert')
      .filter({
        hasText: 'The owner permission cannot be removed from the only organization owner.',
      })
      .waitFor();
    await self.getByRole('button', { name: 'Cancel' }).click();

    await users.getByRole('searchbox', { name: 'Filter users' }).fill('farid');
    await users.getByRole('button', { name: 'Deactivate Farid Member' }).click();
    const confirm = owner().getByRole('dialog', { name: 'Deactivate Farid Member?' });
    await confirm.getByText('will be logged out at once').waitFor();
    await owner().screenshot({ path: `${SHOTS}/deactivate.png` });
    await confirm.getByRole('button', { name: 'Deactivate' }).click();
    const off = await queue.waitFor(
      (e) => e.type === 'realm_user' && e.op === 'update' && e.person.is_active === false,
    );
    expect(off.person.is_active).toBe(false);
    await users.getByRole('tab', { name: 'Deactivated users' }).click();
    await users.getByRole('button', { name: 'Reactivate Farid Member' }).click();
    await owner()
      .getByRole('dialog', { name: 'Reactivate Farid Member?' })
      .getByRole('button', { name: 'Reactivate' })
      .click();
    await queue.waitFor(
      (e) => e.type === 'realm_user' && e.op === 'update' && e.person.is_active === true,
    );
    await users.getByRole('tab', { name: 'Users', exact: true }).click();

    await users.getByRole('button', { name: 'Add a new user' }).click();
    const create = owner().getByRole('form', { name: 'Add a new user' });
    await create.getByRole('textbox', { name: 'Email' }).fill('rowan@tributary.local');
    await create.getByRole('textbox', { name: 'Name' }).fill('Rowan Oar');
    await create.getByLabel('Password').fill('rowan-password');
    await create.getByRole('button', { name: 'Create user' }).click();
    const added = await queue.waitFor((e) => e.type === 'realm_user' && e.op === 'add');
    expect(added.person.full_name).toBe('Rowan Oar');
    await member.getByRole('row').filter({ hasText: 'Rowan Oar' }).waitFor();
    await create.getByRole('textbox', { name: 'Email' }).fill('rowan@tributary.local');
    await create.getByRole('textbox', { name: 'Name' }).fill('Rowan Again');
    await create.getByLabel('Password').fill('rowan-password');
    await create.getByRole('button', { name: 'Create user' }).click();
    await create.getByRole('alert').filter({ hasText: 'already in use' }).waitFor();
    await create.getByRole('button', { name: 'Close' }).click();
    await users.getByRole('searchbox', { name: 'Filter users' }).fill('');
    await owner().screenshot({ path: `${SHOTS}/users.png` });
  });

  it('offers e-mail invitations and shows this server refusing them', async () => {
    const users = owner().getByRole('region', { name: 'Users', exact: true });
    await users.getByRole('tab', { name: 'Invitations' }).click();
    await users.getByText('This server cannot send invitation emails').waitFor();
    const byEmail = users.getByRole('form', { name: 'Invite users by email' });
    // The owner may invite as any role; the public server's form offers them all to owners.
    await expect(
      byEmail.getByRole('combobox', { name: 'Users join as' }).locator('option').allTextContents(),
    ).resolves.toEqual(['Owner', 'Administrator', 'Moderator', 'Member', 'Guest']);
    await byEmail
      .getByRole('textbox', { name: /^Emails/ })
      .fill('Ann <ann@example.com>,\nbob@example.com');
    await byEmail.getByRole('button', { name: 'Send invitations' }).click();
    await byEmail
      .getByRole('alert')
      .getByText('This server cannot send e-mail invitations. Create an invitation link instead.')
      .waitFor();
    await owner().screenshot({ path: `${SHOTS}/invitations-email.png` });
    expect((await client('owner').get('/invites')).body.invites).toEqual([]);

    // The member may invite by e-mail (can_invite_users_group is members) but not create links
    // (create_multiuse_invite_group is administrators), and may not invite moderators or more.
    const memberUsers = member.getByRole('region', { name: 'Users', exact: true });
    await memberUsers.getByRole('tab', { name: 'Invitations' }).click();
    const memberForm = memberUsers.getByRole('form', { name: 'Invite users by email' });
    await expect(
      memberForm
        .getByRole('combobox', { name: 'Users join as' })
        .locator('option')
        .allTextContents(),
    ).resolves.toEqual(['Member', 'Guest']);
    await expect(
      memberUsers.getByRole('form', { name: 'Create an invitation link' }).count(),
    ).resolves.toBe(0);
    await memberUsers.getByText('No invitations.').waitFor();
    await member.screenshot({ path: `${SHOTS}/invitations-member.png` });
    await memberUsers.getByRole('tab', { name: 'Users', exact: true }).click();
  });

  it('creates and revokes an invitation link', async () => {
    const users = owner().getByRole('region', { name: 'Users', exact: true });
    await users.getByRole('tab', { name: 'Invitations' }).click();
    const form = owner().getByRole('form', { name: 'Create an invitation link' });
    await form.getByRole('button', { name: 'Create invitation link' }).click();
    const link = await form.getByLabel('Invitation link', { exact: true }).textContent();
    expect(link).toMatch(/\/join\/[0-9a-f]{24}\/$/);
    const list = users.getByRole('table', { name: 'Invitations' });
    await list.getByRole('cell', { name: 'Olivia Owner' }).waitFor();
    await owner().screenshot({ path: `${SHOTS}/invitations.png` });
    // Another administrator's link shows up live (invites_changed).
    const byAdmin = await client('admin').post('/invites/multiuse', { invite_as: 400 });
    expect(byAdmin.body.result).toBe('success');
    await list.getByRole('cell', { name: 'Adam Admin' }).waitFor();
    await list.getByRole('button', { name: 'Revoke' }).first().click();
    await expect.poll(() => list.getByRole('button', { name: 'Revoke' }).count()).toBe(1);
    await list.getByRole('button', { name: 'Revoke' }).click();
    await list.getByText('No invitations.').waitFor();
    expect((await client('owner').get('/invites')).body.invites).toEqual([]);
  });

  it("refuses the member's direct API calls", async () => {
    const dev = client('dev');
    const realm = await dev.patch('/realm', { name: 'Taken over' });
    expect(realm.status).toBe(400);
    expect(realm.body).toMatchObject({
      code: 'BAD_REQUEST',
      msg: 'Must be an organization administrator',
    });
    const defaults = await dev.patch('/realm/user_settings_defaults', { emojiset: 'google' });
    expect(defaults.body.msg).toBe('Must be an organization administrator');
    const emma = session.realm.user('emma').user_id;
    const role = await dev.patch(`/users/${emma}`, { role: 400 });
    expect(role.body.msg).toBe('Must be an organization administrator');
    const deactivate = await dev.delete(`/users/${emma}`);
    expect(deactivate.status).toBe(400);
  });
});
