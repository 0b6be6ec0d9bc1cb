// Administration of channels, user groups and bots (issue #11 items 4-6) in real Chromium against
// the real local server, browser mode. The owner drives each screen in one window; a second window
// of the same app follows the change live, and a second client over HTTP (emma's event queue) sees
// the server's events. A member (dev) in a third window sees no edit controls, and the server
// refuses the member's direct API calls.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdirSync, readFileSync } from 'node:fs';
import sharp from 'sharp';
import type { Page } from 'playwright-core';
import { appSession, openApp, realmClient, startApp, type App } from './support/app';
import { registerQueue, type TestQueue } from '../support/events';
import { openSettings } from './support/ui';

const SHOTS = 'test-results/admin-people';
const session = appSession('owner');
const client = (who: string) => realmClient(session.realm, who);
let watcher: Page;
let emma: TestQueue;
let memberApp: App;
let member: Page;

beforeAll(async () => {
  mkdirSync(SHOTS, { recursive: true });
  session.page.on('dialog', (dialog) => void dialog.accept());
  watcher = await openApp(session.browser, session.app);
  emma = await registerQueue(client('emma'), {
    event_types: JSON.stringify(['stream', 'subscription', 'default_streams', 'user_group']),
    client_capabilities: JSON.stringify({
      archived_channels: true,
      include_deactivated_groups: true,
    }),
  });
  memberApp = await startApp(session.realm, 'dev');
  member = await openApp(session.browser, memberApp);
}, 120_000);
afterAll(async () => {
  await memberApp?.close();
});

// The search bar is a combobox too; the member's settings screens must hold none.
const settingsPane = (page: Page) => page.getByRole('region', { name: 'Settings', exact: true });
const channelRow = (page: Page, name: string) => page.getByTestId(`admin-channel-${name}`);
async function chooseChannel(page: Page, name: string): Promise<void> {
  await channelRow(page, name).getByRole('button').first().click();
  await page.getByRole('tab', { name: 'General' }).click();
}
const channelId = async (name: string) =>
  (await client('owner').get('/get_stream_id', { stream: name })).body.stream_id as number;

describe('Organization › Channels', () => {
  it('renames and describes a channel; the other window and emma follow', async () => {
    await openSettings(session.page, 'Channels');
    await openSettings(watcher, 'Channels');
    await chooseChannel(session.page, 'design');
    await chooseChannel(watcher, 'design');
    const form = session.page.getByRole('form', { name: 'Channel details' });
    await form.getByLabel('Channel name').fill('');
    await form.getByRole('button', { name: 'Save changes' }).click();
    await session.page.getByRole('alert').filter({ hasText: 'Channel name is required' }).waitFor();
    await form.getByLabel('Channel name').fill('general');
    await form.getByRole('button', { name: 'Save changes' }).click();
    await session.page.getByRole('alert').filter({ hasText: 'already exists' }).waitFor();
    await form.getByLabel('Channel name').fill('design-team');
    await form.getByLabel('Description').fill('Mockups and *reviews*.');
    await form.getByRole('button', { name: 'Save changes' }).click();
    await channelRow(watcher, 'design-team').waitFor();
    await watcher.getByRole('article', { name: 'Settings for #design-team' }).waitFor();
    const renamed = await emma.waitFor((e) => e.type === 'stream' && e.property === 'name');
    expect(renamed).toMatchObject({ op: 'update', value: 'design-team' });
    await session.page.screenshot({ path: `${SHOTS}/channels-general.png` });
  });

  it('changes privacy and a permission group', async () => {
    const page = session.page;
    await page.getByLabel('Who can access the channel').selectOption('private-history');
    await page.getByRole('status').filter({ hasText: 'Privacy saved' }).waitFor();
    await channelRow(watcher, 'design-team')
      .getByRole('img', { name: /Private/ })
      .waitFor();
    await page.getByLabel('Who can post to this channel').selectOption({ label: 'Administrators' });
    await page.getByRole('status').filter({ hasText: 'Permission saved' }).waitFor();
    await expect
      .poll(() => watcher.getByLabel('Who can post to this channel').inputValue())
      .toBe(await page.getByLabel('Who can post to this channel').inputValue());
    const event = await emma.waitFor(
      (e) => e.type === 'stream' && e.property === 'can_send_message_group',
    );
    expect(typeof event.value).toBe('number');
    // Back to public, so the rest of the file uses it as a public channel.
    await page.getByLabel('Who can access the channel').selectOption('public');
    await channelRow(watcher, 'design-team')
      .getByRole('img', { name: /Public/ })
      .waitFor();
  });

  it('makes a channel default for new users and back', async () => {
    const box = (page: Page) => page.getByLabel('Default channel: random');
    await box(session.page).click();
    await expect.poll(() => box(watcher).isChecked()).toBe(true);
    const id = await channelId('random');
    expect((await emma.waitFor((e) => e.type === 'default_streams')).default_streams).toContain(id);
    await box(session.page).click();
    await expect.poll(() => box(watcher).isChecked()).toBe(false);
    // A private channel cannot be offered as a default at all.
    await expect(session.page.getByLabel('Default channel: leadership').isDisabled()).resolves.toBe(
      true,
    );
  });

  it('subscribes and unsubscribes someone else', async () => {
    const page = session.page;
    await chooseChannel(page, 'random');
    await page.getByRole('tab', { name: 'Subscribers' }).click();
    await page.getByLabel('Add subscribers').fill('Guest');
    await page.getByRole('option', { name: /Guest/ }).first().click();
    await page.getByRole('button', { name: 'Add', exact: true }).click();
    await page.getByRole('list', { name: 'Subscribers' }).getByText(/Guest/).first().waitFor();
    await page.getByRole('button', { name: /^Unsubscribe Gus/ }).click();
    await page.getByRole('status').filter({ hasText: 'Unsubscribed' }).waitFor();
    const guestId = session.realm.user('guest').user_id;
    await expect
      .poll(
        async () =>
          (
            await client('owner').get(
              `/users/${guestId}/subscriptions/${await channelId('random')}`,
            )
          ).body.is_subscribed,
      )
      .toBe(false);
  });

  it('creates a private channel for others without joining it', async () => {
    const page = session.page;
    await page.getByRole('button', { name: 'Create channel' }).click();
    const form = page.getByRole('form', { name: 'Create channel' });
    await form.getByLabel('Channel name').fill('hiring');
    await form.getByLabel('Channel description').fill('Candidates');
    await form.getByLabel(/^Private/).check();
    await form.getByLabel('Initial subscribers').fill('Emma');
    await page.getByRole('option', { name: /Emma/ }).first().click();
    await form.getByLabel('Subscribe me too').uncheck();
    await form.getByLabel('Who can administer this channel').selectOption({ label: 'Moderators' });
    await page.screenshot({ path: `${SHOTS}/channels-create.png` });
    await form.getByRole('button', { name: 'Create' }).click();
    const added = await emma.waitFor((e) => e.type === 'subscription' && e.op === 'add');
    expect(added.subscriptions[0]).toMatchObject({ name: 'hiring', invite_only: true });
    await channelRow(watcher, 'hiring').waitFor();
    const state = await client('owner').get('/users/me/subscriptions');
    expect(state.body.subscriptions.map((s: { name: string }) => s.name)).not.toContain('hiring');
  });

  it('archives and unarchives; archived channels show on request', async () => {
    const page = session.page;
    await chooseChannel(page, 'design-team');
    await page.getByRole('button', { name: 'Archive channel' }).click();
    await channelRow(watcher, 'design-team').waitFor({ state: 'detached' });
    const archived = await emma.waitFor((e) => e.type === 'stream' && e.property === 'is_archived');
    expect(archived.value).toBe(true);
    await watcher.getByLabel('Show archived channels').check();
    await channelRow(watcher, 'design-team').getByText('Archived').waitFor();
    await page.getByLabel('Show archived channels').check();
    await page.screenshot({ path: `${SHOTS}/channels-archived.png` });
    await page.getByRole('button', { name: 'Unarchive channel' }).click();
    await channelRow(watcher, 'design-team').getByText('Archived').waitFor({ state: 'detached' });
  });
});

const groupRow = (page: Page, name: string) => page.getByTestId(`admin-group-${name}`);

describe('Organization › User groups', () => {
  it('creates, renames, adds members and subgroups, sets a permission and deactivates', async () => {
    const page = session.page;
    await openSettings(page, 'User groups');
    await openSettings(watcher, 'User groups');
    await page.getByRole('button', { name: 'Create user group' }).click();
    const form = page.getByRole('form', { name: 'Create user group' });
    await form.getByLabel('Name').fill('role:nope');
    await form.getByRole('button', { name: 'Create' }).click();
    await page.getByRole('alert').filter({ hasText: 'cannot start with' }).waitFor();
    await form.getByLabel('Name').fill('release-team');
    await form.getByLabel('Description').fill('Ships releases');
    await form.getByRole('button', { name: 'Create' }).click();
    await groupRow(watcher, 'release-team').waitFor();
    expect((await emma.waitFor((e) => e.type === 'user_group' && e.op === 'add')).group.name).toBe(
      'release-team',
    );

    await groupRow(watcher, 'release-team').getByRole('button').click();
    const detail = page.getByRole('article', { name: 'Group release-team' });
    await detail.getByLabel('Name').fill('releasers');
    await detail.getByRole('button', { name: 'Save changes' }).click();
    await groupRow(watcher, 'releasers').waitFor();
    const article = page.getByRole('article', { name: 'Group releasers' });
    await article.getByLabel('Add members', { exact: true }).fill('Farid');
    await page.getByRole('option', { name: /Farid/ }).first().click();
    await article.getByRole('button', { name: 'Add', exact: true }).first().click();
    await watcher.getByRole('list', { name: 'Members' }).getByText(/Farid/).waitFor();
    expect(
      (await emma.waitFor((e) => e.type === 'user_group' && e.op === 'add_members')).user_ids,
    ).toEqual([session.realm.user('farid').user_id]);
    await article.getByLabel('Add a subgroup').selectOption({ label: 'Moderators' });
    await article.getByRole('button', { name: 'Add', exact: true }).nth(1).click();
    await watcher.getByRole('list', { name: 'Subgroups' }).getByText('Moderators').waitFor();
    await article
      .getByLabel('Who can mention this group')
      .selectOption({ label: 'Everyone except guests' });
    await article.getByRole('status').filter({ hasText: 'Permission saved' }).waitFor();
    await emma.waitFor(
      (e) =>
        e.type === 'user_group' && e.op === 'update' && e.data?.can_mention_group !== undefined,
    );
    await page.screenshot({ path: `${SHOTS}/user-groups.png` });

    await article.getByRole('button', { name: 'Deactivate group' }).click();
    await groupRow(watcher, 'releasers').waitFor({ state: 'detached' });
    await emma.waitFor(
      (e) => e.type === 'user_group' && e.op === 'update' && e.data?.deactivated === true,
    );
    await page.getByLabel('Show deactivated groups').check();
    await groupRow(page, 'releasers').getByText('Deactivated').waitFor();
  });

  it('shows a refusal from the server: a group in use cannot be deactivated', async () => {
    const page = session.page;
    const owner = client('owner');
    const made = await owner.post('/user_groups/create', {
      name: 'reviewers',
      description: 'Review things',
      members: JSON.stringify([session.realm.user('owner').user_id]),
    });
    await owner.patch(`/streams/${await channelId('random')}`, {
      can_remove_subscribers_group: JSON.stringify({ new: made.body.group_id }),
    });
    await groupRow(page, 'reviewers').getByRole('button').click();
    await page
      .getByRole('article', { name: 'Group reviewers' })
      .getByRole('button', { name: 'Deactivate group' })
      .click();
    await page.getByRole('alert').filter({ hasText: 'CANNOT_DEACTIVATE_GROUP_IN_USE' }).waitFor();
  });
});

describe('Your bots and Organization › Bots', () => {
  let botId = 0;
  it('creates a bot with an avatar; a second window lists it', async () => {
    const page = session.page;
    await openSettings(page, 'Your bots');
    await openSettings(watcher, 'Bots');
    const form = page.getByRole('form', { name: 'Add a new bot' });
    await form.getByLabel('Bot type').selectOption({ label: 'Outgoing webhook' });
    await form.getByLabel('Name').fill('Deploy Bot');
    await form.getByLabel('Bot email').fill('deploy');
    await form.getByLabel('Endpoint URL').fill('not a url');
    await form.getByRole('button', { name: 'Create bot' }).click();
    await page.getByRole('alert').filter({ hasText: 'payload_url is not a URL' }).waitFor();
    await form.getByLabel('Endpoint URL').fill('https://ci.example.com/hook');
    const png = await sharp({
      create: { width: 64, height: 64, channels: 3, background: '#e4523d' },
    })
      .png()
      .toBuffer();
    await form
      .getByLabel('Avatar')
      .setInputFiles({ name: 'deploy.png', mimeType: 'image/png', buffer: png });
    await form.getByRole('button', { name: 'Create bot' }).click();
    const card = page.getByRole('listitem', { name: 'Deploy Bot' });
    await card.waitFor();
    await card.locator('img.bot-avatar').waitFor();
    await watcher.getByRole('table', { name: 'All bots' }).getByText('Deploy Bot').waitFor();
    const bots = (await client('owner').get('/bots')).body.bots as Array<{
      user_id: number;
      full_name: string;
    }>;
    botId = bots.find((b) => b.full_name === 'Deploy Bot')!.user_id;
    await page.screenshot({ path: `${SHOTS}/your-bots.png` });
  });

  it('shows the key once, regenerates it and downloads a zuliprc', async () => {
    const page = session.page;
    const card = page.getByRole('listitem', { name: 'Deploy Bot' });
    await card.getByRole('button', { name: 'Show API key' }).click();
    const key = (await card.getByTestId('bot-api-key').textContent()) ?? '';
    const asBot = (apiKey: string) =>
      fetch(`${session.realm.url}/api/v1/users/me`, {
        headers: {
          authorization: `Basic ${Buffer.from(`deploy-bot@tributary.local:${apiKey}`).toString('base64')}`,
        },
      });
    expect((await asBot(key)).status).toBe(200);
    await card.getByRole('button', { name: 'Done' }).click();
    await expect(card.getByTestId('bot-api-key').count()).resolves.toBe(0);
    // The key is in no store the page keeps.
    const stored = await page.evaluate(
      () => JSON.stringify(localStorage) + JSON.stringify(sessionStorage),
    );
    expect(stored).not.toContain(key);

    await card.getByRole('button', { name: 'Regenerate API key' }).click();
    const fresh = (await card.getByTestId('bot-api-key').textContent()) ?? '';
    expect(fresh).not.toBe(key);
    expect((await asBot(key)).status).toBe(401);
    expect((await asBot(fresh)).status).toBe(200);
    await card.getByRole('button', { name: 'Done' }).click();

    const download = page.waitForEvent('download');
    await card.getByRole('button', { name: 'Download zuliprc' }).click();
    const file = await (await download).path();
    const text = readFileSync(file, 'utf8');
    expect(text).toContain('email=deploy-bot@tributary.local');
    expect(text).toContain(`key=${fresh}`);
    expect(text).toContain(`site=${session.realm.url}`);
  });

  it('renames and deactivates; the organization list follows', async () => {
    const page = session.page;
    const card = page.getByRole('listitem', { name: 'Deploy Bot' });
    await card.getByRole('button', { name: 'Edit' }).click();
    const edit = card.getByRole('form', { name: 'Edit Deploy Bot' });
    await edit.getByLabel('Name').fill('Deployer');
    await edit.getByLabel('Endpoint URL').fill('https://ci.example.com/v2');
    await edit.getByRole('button', { name: 'Save changes' }).click();
    await page
      .getByRole('listitem', { name: 'Deployer' })
      .getByText(/ci\.example\.com\/v2/)
      .waitFor();
    await watcher.getByRole('table', { name: 'All bots' }).getByText('Deployer').waitFor();
    await page
      .getByRole('listitem', { name: 'Deployer' })
      .getByRole('button', { name: 'Deactivate' })
      .click();
    await watcher.getByRole('button', { name: 'Reactivate Deployer' }).waitFor();
    await watcher.screenshot({ path: `${SHOTS}/bots-admin.png` });
    await watcher.getByRole('button', { name: 'Reactivate Deployer' }).click();
    await page
      .getByRole('listitem', { name: 'Deployer' })
      .getByRole('button', { name: 'Show API key' })
      .waitFor();
    expect(botId).toBeGreaterThan(0);
  });
});

describe('a member', () => {
  it('sees no edit controls on the three screens', async () => {
    await openSettings(member, 'Channels');
    await chooseChannel(member, 'general');
    await member.getByText('Who can post to this channel').waitFor();
    expect(await member.getByRole('form', { name: 'Channel details' }).count()).toBe(0);
    expect(await member.getByRole('button', { name: 'Archive channel' }).count()).toBe(0);
    expect(await member.getByLabel(/^Default channel:/).count()).toBe(0);
    expect(await settingsPane(member).getByRole('combobox').count()).toBe(0);
    await member.screenshot({ path: `${SHOTS}/member-channels.png` });

    await openSettings(member, 'User groups');
    await groupRow(member, 'reviewers').getByRole('button').click();
    await member.getByRole('article', { name: 'Group reviewers' }).waitFor();
    expect(await member.getByRole('button', { name: 'Save changes' }).count()).toBe(0);
    expect(await member.getByRole('button', { name: 'Deactivate group' }).count()).toBe(0);
    expect(await member.getByRole('button', { name: /^Remove/ }).count()).toBe(0);
    expect(await settingsPane(member).getByRole('combobox').count()).toBe(0);

    await openSettings(member, 'Bots');
    await member.getByRole('table', { name: 'All bots' }).getByText('Deployer').waitFor();
    expect(await member.getByRole('button', { name: /^(Deactivate|Reactivate) / }).count()).toBe(0);
    await member.screenshot({ path: `${SHOTS}/member-bots.png` });
  });

  it('is refused by the server when calling the API directly', async () => {
    const dev = client('dev');
    const general = await channelId('general');
    const group = (await dev.get('/user_groups')).body.user_groups.find(
      (g: { name: string }) => g.name === 'reviewers',
    ).id as number;
    const bot = ((await client('owner').get('/bots')).body.bots as Array<{ user_id: number }>)[0]
      .user_id;
    const refusals = [
      await dev.patch(`/streams/${general}`, { new_name: 'mine' }),
      await dev.delete(`/streams/${general}`),
      await dev.post('/default_streams', { stream_id: general }),
      await dev.patch(`/user_groups/${group}`, { name: 'mine' }),
      await dev.post(`/user_groups/${group}/deactivate`),
      await dev.delete(`/bots/${bot}`),
      await dev.post(`/bots/${bot}/api_key/regenerate`),
    ];
    for (const res of refusals) {
      expect(res.status, res.text).toBe(400);
      expect(res.body.code).toBe('BAD_REQUEST');
    }
  });
});
