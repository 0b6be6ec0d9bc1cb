// The administration methods through main's handlers against the real local realm server: a bot
// created with an avatar from a chosen file, its key shown only to its owner, the zuliprc saved
// through the desktop save dialog (mode 0600) or handed to the page in browser mode, and the
// server's refusals reaching the caller with their codes.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import sharp from 'sharp';
import { startTestServer, type TestServer } from '../support/server';
import { startMain, type MainHarness } from './support/harness';

let realm: TestServer;
let desktop: MainHarness;
let browser: MainHarness;
const folder = mkdtempSync(join(tmpdir(), 'tributary-admin-people-'));
const savedTo = join(folder, 'zuliprc');

beforeAll(async () => {
  realm = await startTestServer({ heartbeatMs: 500 });
  desktop = await startMain({
    site: realm.url,
    user: realm.users.dev,
    chooseSavePath: async () => savedTo,
  });
  browser = await startMain({ site: realm.url, user: realm.users.emma });
  await Promise.all([desktop.live(), browser.live()]);
});
afterAll(async () => {
  await desktop?.close();
  await browser?.close();
  await realm?.close();
  rmSync(folder, { recursive: true, force: true });
});

describe('bot methods', () => {
  let botId = 0;

  it('creates a bot with an avatar from a chosen file; the key stays in main', async () => {
    const picture = join(folder, 'avatar.png');
    writeFileSync(
      picture,
      await sharp({ create: { width: 20, height: 20, channels: 3, background: '#123456' } })
        .png()
        .toBuffer(),
    );
    const { token } = desktop.services.intake.register(picture);
    const created = await desktop.services.handlers.createBot({
      accountId: desktop.accountId,
      fullName: 'Main Bot',
      shortName: 'main',
      botType: 1,
      avatarToken: token,
    });
    expect(Object.keys(created)).toEqual(['userId']);
    botId = created.userId;
    const user = await realm.client('dev').get(`/users/${botId}`);
    expect(user.body.user.avatar_url).toMatch(/^\/user_avatars\/1\/[0-9a-f]{40}\.png\?version=/);
    // The chosen file's token is spent with the request.
    expect(desktop.services.intake.get(token)).toBeUndefined();
  });

  it('refuses a bot avatar over 5 MiB by its recorded size, before reading it', async () => {
    const picture = join(folder, 'huge.png');
    writeFileSync(picture, Buffer.alloc(5 * 1024 * 1024 + 1));
    const { token } = desktop.services.intake.register(picture);
    await expect(
      desktop.services.handlers.createBot({
        accountId: desktop.accountId,
        fullName: 'Huge Bot',
        shortName: 'huge',
        botType: 1,
        avatarToken: token,
      }),
    ).rejects.toMatchObject({ code: 'BAD_REQUEST', message: 'The avatar may be at most 5 MiB' });
    expect(desktop.services.intake.get(token)).toBeUndefined();
    const bots = (await realm.client('dev').get('/bots')).body.bots as { full_name: string }[];
    expect(bots.some((bot) => bot.full_name === 'Huge Bot')).toBe(false);
  });

  it('shows the key to the owner only and saves a zuliprc through the save dialog', async () => {
    const { apiKey } = await desktop.services.handlers.showBotKey({
      accountId: desktop.accountId,
      botId,
    });
    expect(apiKey).toMatch(/\w{20,}/);
    await expect(
      browser.services.handlers.showBotKey({ accountId: browser.accountId, botId }),
    ).rejects.toMatchObject({ code: 'BAD_REQUEST' });
    const result = await desktop.services.handlers.saveBotZuliprc({
      accountId: desktop.accountId,
      botId,
    });
    expect(result).toEqual({ savedTo });
    expect(readFileSync(savedTo, 'utf8')).toBe(
      `[api]\nemail=main-bot@tributary.local\nkey=${apiKey}\nsite=${realm.url}\n`,
    );
    expect(statSync(savedTo).mode & 0o777).toBe(0o600);
  });

  it('changes an outgoing bot endpoint and format together; its zuliprc carries the token', async () => {
    const webhookBot = realm.userIds.webhookBot;
    await browser.services.handlers.updateBot({
      accountId: browser.accountId,
      botId: webhookBot,
      payloadUrl: 'https://hooks.example.com/slack',
      interfaceType: 2,
    });
    const listed = (await realm.client('emma').get('/bots')).body.bots.find(
      (bot: { user_id: number }) => bot.user_id === webhookBot,
    );
    expect(listed.services[0]).toMatchObject({
      base_url: 'https://hooks.example.com/slack',
      interface: 2,
    });
    await expect(
      browser.services.handlers.updateBot({
        accountId: browser.accountId,
        botId: webhookBot,
        payloadUrl: 'http://me:secret@hooks.example.com/',
        interfaceType: 1,
      }),
    ).rejects.toMatchObject({ code: 'BAD_REQUEST', message: 'service_payload_url is not a URL' });
    const result = await browser.services.handlers.saveBotZuliprc({
      accountId: browser.accountId,
      botId: webhookBot,
    });
    expect(result).toMatchObject({
      content: expect.stringContaining(`\ntoken=${listed.services[0].token}\n`),
    });
  });

  it('hands the zuliprc text to the page in browser mode', async () => {
    const webhookBot = realm.userIds.webhookBot;
    const result = await browser.services.handlers.saveBotZuliprc({
      accountId: browser.accountId,
      botId: webhookBot,
    });
    expect(result).toMatchObject({
      fileName: 'zuliprc',
      content: expect.stringContaining('email=echo-bot@tributary.local'),
    });
  });

  it('passes the server refusal on: another person cannot deactivate the bot', async () => {
    await expect(
      browser.services.handlers.deactivateBot({ accountId: browser.accountId, botId }),
    ).rejects.toMatchObject({ code: 'BAD_REQUEST', message: 'Insufficient permission' });
  });
});

describe('group and channel methods', () => {
  it('creates a group and changes its members and a permission', async () => {
    const h = desktop.services.handlers;
    const { group_id: groupId } = await h.createUserGroup({
      accountId: desktop.accountId,
      name: 'main-group',
      description: 'from main',
      members: [realm.userIds.dev],
    });
    await h.updateUserGroupMembers({
      accountId: desktop.accountId,
      groupId,
      add: [realm.userIds.emma],
      remove: [],
    });
    const groups = (await realm.client('dev').get('/user_groups')).body.user_groups as Array<{
      id: number;
      members: number[];
      can_mention_group: unknown;
    }>;
    const everyone = (await realm.client('dev').get('/user_groups')).body.user_groups.find(
      (g: { name: string }) => g.name === 'role:everyone',
    ).id as number;
    await h.updateUserGroup({
      accountId: desktop.accountId,
      groupId,
      settings: { can_mention_group: everyone },
    });
    const after = (await realm.client('dev').get('/user_groups')).body.user_groups.find(
      (g: { id: number }) => g.id === groupId,
    );
    expect(groups.find((g) => g.id === groupId)?.members.sort()).toEqual(
      [realm.userIds.dev, realm.userIds.emma].sort(),
    );
    expect(after.can_mention_group).toBe(everyone);
  });

  it("refuses a member's channel administration with the server's words", async () => {
    const general = (await realm.client('dev').get('/get_stream_id', { stream: 'general' })).body
      .stream_id as number;
    await expect(
      desktop.services.handlers.setDefaultChannel({
        accountId: desktop.accountId,
        channelId: general,
        isDefault: false,
      }),
    ).rejects.toMatchObject({ message: 'Must be an organization administrator' });
  });
});
