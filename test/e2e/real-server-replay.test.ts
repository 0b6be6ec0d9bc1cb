// The app against the public server's own answers (../shared/fixtures/zulip-server, feature level
// 372), replayed over HTTP by test/support/replay-server.ts: a member's and an administrator's
// register, the recorded REST answers and an idle event queue. The public server lists active users
// without `is_active` and deactivated ones apart; every screen must still see who is there: the
// people list (everyone and a channel's subscribers), compose's `@`, `#` and `:` typeaheads, its
// recipient picker, the user card, Settings › Users, a channel's subscriber picker, Organization ›
// Bots and the code playgrounds.
import { mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchChromium, openApp, startApp, type App } from './support/app';
import { composeBox, openChannel, openSettings } from './support/ui';
import { haveReplayFixtures, startReplayServer, type ReplayServer } from '../support/replay-server';

const SHOTS = join(tmpdir(), 'tributary-e2e-screenshots');
mkdirSync(SHOTS, { recursive: true });

const OTHELLO = 'Othello, the Moor of Venice';
const PROSPERO = 'Prospero from The Tempest';

const ready = haveReplayFixtures();

/** Waits until a typeahead or picker list offers the named option. */
const offered = (page: Page, list: string, option: string | RegExp) =>
  page.getByRole('listbox', { name: list }).getByRole('option', { name: option }).waitFor();

let replays: ReplayServer[] = [];
let apps: App[] = [];
let browser: Browser;
let member: Page;
let admin: Page;

describe.skipIf(!ready)("the app on the public server's recorded answers (FL372)", () => {
  beforeAll(async () => {
    replays = [await startReplayServer('member'), await startReplayServer('admin')];
    apps = [await startApp(replays[0], 'member'), await startApp(replays[1], 'admin')];
    browser = await launchChromium();
    member = await openApp(browser, apps[0]);
    admin = await openApp(browser, apps[1]);
  }, 180_000);
  afterAll(async () => {
    // What the app asked that nothing recorded answers (a 404 here): worth knowing, not a failure.
    for (const replay of replays) console.info('unanswered by the recordings:', replay.unanswered);
    await browser?.close();
    for (const app of apps) await app.close();
    for (const replay of replays) await replay.close();
  });

  it('shows the people of the realm and of a channel, offers them after @, and their cards', async () => {
    const people = member.getByRole('complementary', { name: 'People' });
    await people.getByRole('button', { name: new RegExp(OTHELLO) }).waitFor();
    // Every human of realm_users (ten), bots left out.
    await expect.poll(() => people.getByRole('button', { name: /./ }).count()).toBeGreaterThan(5);
    expect(await people.getByText('No matching people').count()).toBe(0);

    // A channel's people: Verona's ten subscribers.
    await openChannel(member, 'Verona');
    await people.getByRole('button', { name: new RegExp(OTHELLO) }).waitFor();
    expect(await people.getByText('No matching people').count()).toBe(0);
    await member.screenshot({ path: join(SHOTS, 'replay-people.png') });

    // `@Oth` in compose.
    const box = await composeBox(member);
    await box.click();
    await member.keyboard.type('Hello @Oth');
    await offered(member, 'People', OTHELLO);
    await member.screenshot({ path: join(SHOTS, 'replay-mention.png') });
    await member.keyboard.press('Tab');
    expect(await box.inputValue()).toBe(`Hello @**${OTHELLO}** `);
    // The channel and custom emoji typeaheads read the public server's channels and realm_emoji.
    await box.fill('');
    await member.keyboard.type('#Veron');
    await offered(member, 'Channels', /Verona/);
    await box.fill('');
    await member.keyboard.type(':green_ti');
    await offered(member, 'Emoji', /green_tick/);
    await box.fill('');

    // The direct-message recipient picker.
    await member.getByRole('radio', { name: 'Direct message' }).click();
    await member.getByRole('combobox', { name: 'Recipients' }).fill('Oth');
    await offered(member, 'People', OTHELLO);
    await member.getByRole('combobox', { name: 'Recipients' }).fill('');

    // The card: an active member, not "Deactivated".
    await people.getByRole('button', { name: new RegExp(OTHELLO) }).click();
    const card = member.getByRole('dialog', { name: `User card: ${OTHELLO}` });
    await card.waitFor();
    expect(await card.textContent()).not.toMatch(/deactivated/i);
    await member.keyboard.press('Escape');
  });

  it("lists the administrator's users, the deactivated one apart, bots and playgrounds", async () => {
    // Compose's recipient picker offers active people only.
    await openChannel(admin, 'Verona');
    await admin.getByRole('button', { name: 'New direct message' }).click();
    const recipients = admin.getByRole('combobox', { name: 'Recipients' });
    await recipients.fill('Oth');
    await offered(admin, 'People', OTHELLO);
    await recipients.fill('Prosp');
    await admin.getByRole('listbox', { name: 'People' }).waitFor({ state: 'detached' });
    await recipients.fill('');

    await openSettings(admin, 'Users');
    const usersScreen = admin.getByRole('region', {
      name: 'Users',
      exact: true,
    });
    const active = usersScreen.getByRole('table', { name: 'Users' });
    await active.getByRole('row').filter({ hasText: OTHELLO }).waitFor();
    expect(await active.getByText('No users match.').count()).toBe(0);
    expect(await active.getByRole('row').filter({ hasText: PROSPERO }).count()).toBe(0);
    await usersScreen.getByRole('button', { name: `Deactivate ${OTHELLO}` }).waitFor();
    await admin.screenshot({ path: join(SHOTS, 'replay-users.png') });
    // Invitations: the note does not speak of the app's own server, and the recordings have no
    // GET /invites, so the list shows the server's refusal in a row whose one cell stays a cell.
    await usersScreen.getByRole('tab', { name: 'Invitations' }).click();
    await usersScreen.getByRole('form', { name: 'Create an invitation link' }).waitFor();
    // This realm lets its members (the administrator too) send e-mail invitations.
    await usersScreen.getByRole('form', { name: 'Invite users by email' }).waitFor();
    expect(await usersScreen.locator('.org-invitations').textContent()).not.toMatch(
      /local realm|cannot send invitation/,
    );
    const links = usersScreen.getByRole('table', { name: 'Invitations' });
    await links.getByRole('alert').waitFor();
    await links
      .getByRole('cell')
      .filter({ has: admin.getByRole('alert') })
      .waitFor();
    await usersScreen.getByRole('tab', { name: 'Deactivated users' }).click();
    await usersScreen.getByRole('button', { name: `Reactivate ${PROSPERO}` }).waitFor();
    expect(
      await usersScreen
        .getByRole('table', { name: 'Deactivated users' })
        .getByRole('row')
        .filter({ hasText: OTHELLO })
        .count(),
    ).toBe(0);

    // A channel's "Add subscribers" picker (Rome: Othello is not subscribed) offers active people.
    await openSettings(admin, 'Channels');
    await admin.getByTestId('admin-channel-Rome').getByRole('button').first().click();
    await admin.getByRole('tab', { name: 'Subscribers' }).click();
    const picker = admin.getByRole('combobox', { name: 'Add subscribers' });
    await picker.fill('Oth');
    await offered(admin, 'Add subscribers matches', new RegExp(OTHELLO));
    await picker.fill('Prosp');
    await admin
      .getByRole('listbox', { name: 'Add subscribers matches' })
      .waitFor({ state: 'detached' });
    await picker.fill('');

    // Every bot of the realm is active: each offers Deactivate, none Reactivate.
    await openSettings(admin, 'Bots');
    const bots = admin.getByRole('table', { name: 'All bots' });
    await bots.getByRole('button', { name: 'Deactivate Fixture Generic vpup' }).waitFor();
    expect(await bots.getByRole('button', { name: /^Reactivate / }).count()).toBe(0);
    expect(await bots.getByRole('button', { name: /^Deactivate / }).count()).toBeGreaterThanOrEqual(
      12,
    );
    await admin.screenshot({ path: join(SHOTS, 'replay-bots.png') });

    // The playground the public server lists under pygments_language.
    await openSettings(admin, 'Code playgrounds');
    const playgrounds = admin
      .getByRole('region', { name: 'Code playgrounds', exact: true })
      .getByRole('row', { name: /Python runner/ });
    await playgrounds.waitFor();
    expect(await playgrounds.textContent()).toContain('Python');
  });

  it("addresses a reply in a public channel's view one is not subscribed to, to that channel", async () => {
    // Rome is among the member's never_subscribed channels.
    await openChannel(member, 'Rome');
    await composeBox(member);
    const channel = member.getByRole('combobox', { name: 'Channel' });
    await expect.poll(() => channel.locator('option:checked').textContent()).toBe('#Rome');
    await member.getByRole('button', { name: 'Close compose' }).click();
  });

  it('shows scheduled messages without asking for reminders, which FL372 cannot list', async () => {
    await member
      .getByRole('navigation', { name: 'Conversations' })
      .getByRole('button', { name: 'Scheduled messages' })
      .click();
    const view = member.getByRole('region', { name: 'Scheduled messages' });
    await view.getByText('No scheduled messages.').waitFor();
    // Reminders came with feature level 381: no section, no failed request, no error shown.
    expect(await view.getByRole('heading', { name: 'Reminders' }).count()).toBe(0);
    expect(
      await member
        .getByRole('alert')
        .filter({ hasText: /reminders/i })
        .count(),
    ).toBe(0);
    expect(replays[0].unanswered.filter((path) => path.includes('reminders'))).toEqual([]);
  });
});
