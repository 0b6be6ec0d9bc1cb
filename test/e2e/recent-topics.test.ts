// Issue #20, parts 3 and 4, in real Chromium against the real local server (browser mode): the
// Recent conversations table (its filters, its keys) and the topic menus (rename with the
// notification choices, resolve, mark as unread, copy link; a move the server refuses shows its
// reason and changes nothing).
import { beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { appSession, openApp, realmClient, startApp } from './support/app';
import { messageWithText, openTopic } from './support/ui';
import type { ApiClient } from '../support/client';

declare const navigator: { clipboard: { readText(): Promise<string> } };
declare const document: { activeElement: unknown };

const session = appSession('owner');
let page: Page;
let owner: ApiClient;
let emma: ApiClient;
let general: number;
let ownerId: number;
let emmaId: number;

beforeAll(async () => {
  page = session.page;
  // "Copy link to topic" is read back from the clipboard.
  await page.context().grantPermissions(['clipboard-read', 'clipboard-write']);
  owner = realmClient(session.realm, 'owner');
  emma = realmClient(session.realm, 'emma');
  const subs = (await owner.get('/users/me/subscriptions')).body.subscriptions as Array<{
    name: string;
    stream_id: number;
  }>;
  general = subs.find((s) => s.name === 'general')!.stream_id;
  ownerId = (await owner.get('/users/me')).body.user_id as number;
  emmaId = (await emma.get('/users/me')).body.user_id as number;
});

async function sendAs(client: ApiClient, topic: string, content: string): Promise<number> {
  const res = await client.post('/messages', { type: 'stream', to: general, topic, content });
  expect(res.status).toBe(200);
  return res.body.id as number;
}

/** The topic's messages as the owner sees them, oldest first. */
async function topicMessages(topic: string) {
  const res = await owner.get('/messages', {
    anchor: 'newest',
    num_before: 50,
    num_after: 0,
    narrow: JSON.stringify([
      { operator: 'channel', operand: general },
      { operator: 'topic', operand: topic },
    ]),
  });
  expect(res.status).toBe(200);
  return res.body.messages as Array<{
    id: number;
    subject: string;
    content: string;
    sender_full_name: string;
    flags: string[];
  }>;
}

/**
 * The topic menu button of the recipient bar on screen: a row's, or the list's sticky bar's when
 * the row's is scrolled away.
 */
const barMenuButton = (p: Page, topic: string) =>
  p
    .locator('.message-list-wrap')
    .getByRole('button', { name: `Topic ${topic} options` })
    .filter({ visible: true })
    .first();
const nav = () => page.getByRole('navigation', { name: 'Conversations' });
const table = () => page.getByRole('grid', { name: 'Recent conversations' });
/** A body row of the table by its topic (its accessible name holds the row's text). */
const recentRow = (topic: string) => table().getByRole('row', { name: new RegExp(topic) });
const filter = (name: string) => page.getByRole('button', { name: new RegExp(`^(✓ )?${name}$`) });
/** Picks an entry of the topics menu (its button names the current one). */
async function chooseTopics(current: string, choice: string) {
  await page.getByRole('button', { name: `Topics shown: ${current}` }).click();
  await page.getByRole('menuitem', { name: new RegExp(`^${choice}`) }).click();
}
/** The accessible name (or text) of the focused element. */
const focusedName = () =>
  page.evaluate(() => {
    const el = document.activeElement as unknown as {
      getAttribute(name: string): string | null;
      textContent: string | null;
    };
    return el.getAttribute('aria-label') ?? el.textContent ?? '';
  });

describe('Recent conversations', () => {
  it('filters by unread, participated and muted, and is driven by the keyboard', async () => {
    await sendAs(emma, 'recent alpha', 'alpha from emma');
    await sendAs(owner, 'recent beta', 'beta from me');
    await sendAs(emma, 'recent gamma', 'gamma from emma');
    const muted = await owner.post('/user_topics', {
      stream_id: general,
      topic: 'recent gamma',
      visibility_policy: 1,
    });
    expect(muted.status).toBe(200);

    await nav().getByRole('button', { name: 'Recent conversations' }).click();
    await recentRow('recent alpha').waitFor();
    await recentRow('recent beta').waitFor();
    // Emma's avatar (initials here) and the unread count are in her row.
    await recentRow('recent alpha').getByRole('button', { name: 'Emma Member' }).waitFor();
    await recentRow('recent alpha')
      .getByRole('button', { name: 'Mark as read (1 unread)' })
      .waitFor();
    expect(await recentRow('recent gamma').count()).toBe(0);

    await chooseTopics('Standard view', 'All topics');
    await recentRow('recent gamma').waitFor();
    await chooseTopics('All topics', 'Standard view');
    await expect.poll(() => recentRow('recent gamma').count()).toBe(0);

    await filter('Unread').click();
    await recentRow('recent alpha').waitFor();
    await expect.poll(() => recentRow('recent beta').count()).toBe(0);
    await filter('Unread').click();

    await filter('Participated').click();
    await recentRow('recent beta').waitFor();
    await expect.poll(() => recentRow('recent alpha').count()).toBe(0);
    await filter('Participated').click();

    // The newest rows: beta (sent last but gamma is muted, so hidden), then alpha. Keys from the
    // page put the keyboard on the first row, j moves down, k up, Enter opens.
    const rows = table().getByRole('row');
    await expect.poll(() => rows.nth(1).textContent()).toContain('recent beta');
    await page.locator('body').click({ position: { x: 2, y: 300 } });
    await page.keyboard.press('ArrowDown');
    await expect.poll(() => rows.nth(1).evaluate((el) => el === document.activeElement)).toBe(true);
    await page.keyboard.press('j');
    await page.keyboard.press('j');
    await page.keyboard.press('k');
    await expect.poll(() => rows.nth(2).evaluate((el) => el === document.activeElement)).toBe(true);
    await page.keyboard.press('Enter');
    await page.getByRole('heading', { name: '#general > recent alpha', exact: true }).waitFor();
    await messageWithText(page, 'alpha from emma').waitFor();
  });

  it("opens a participant's card from their avatar, not the conversation", async () => {
    await nav().getByRole('button', { name: 'Recent conversations' }).click();
    await recentRow('recent alpha').getByRole('button', { name: 'Emma Member' }).click();
    await page.getByRole('dialog', { name: 'User card: Emma Member' }).waitFor();
    expect(await page.getByRole('heading', { name: '#general > recent alpha' }).count()).toBe(0);
    await page.keyboard.press('Escape');
    await expect
      .poll(() => page.getByRole('dialog', { name: 'User card: Emma Member' }).count())
      .toBe(0);
    await table().waitFor();
  });

  it('marks a conversation read from its unread count without opening it', async () => {
    await sendAs(emma, 'recent delta', 'delta one');
    await sendAs(emma, 'recent delta', 'delta two');
    await nav().getByRole('button', { name: 'Recent conversations' }).click();
    const count = recentRow('recent delta').getByRole('button', {
      name: 'Mark as read (2 unread)',
    });
    const index = Number(await recentRow('recent delta').getAttribute('data-index'));
    await count.click();
    await expect
      .poll(async () =>
        (await topicMessages('recent delta')).every((m) => m.flags.includes('read')),
      )
      .toBe(true);
    // As in the web app, the keyboard goes down a row (the count pressed is going away).
    const focusedRow = () =>
      page.evaluate(
        () =>
          (
            document.activeElement as unknown as {
              closest(s: string): { dataset: { index: string } } | null;
            }
          ).closest('.recent-row')?.dataset.index,
      );
    await expect.poll(focusedRow).toBe(String(index + 1));
    // The count goes when the server's flag event comes back; the table stays.
    await expect.poll(() => count.count()).toBe(0);
    await table().waitFor();
    expect(await page.getByRole('heading', { name: '#general > recent delta' }).count()).toBe(0);
  });
});

describe('Recent conversations as in the public web app', () => {
  it('shows the longest time label whole at 1,024 px and with the participants hidden', async () => {
    await sendAs(emma, 'recent time', 'a time to show');
    await nav().getByRole('button', { name: 'Recent conversations' }).click();
    const time = recentRow('recent time').locator('.recent-time time');
    await time.waitFor();
    const before = page.viewportSize()!;
    // The label the view can show that is widest ("N minutes ago" with two digits).
    const whole = () =>
      time.evaluate((el: HTMLElement) => {
        el.textContent = '59 minutes ago';
        return el.scrollWidth <= el.clientWidth;
      });
    try {
      await page.setViewportSize({ width: 1024, height: 768 });
      await expect.poll(whole).toBe(true);
      // A container under 640 px (side panels open): the participants go, the time stays whole.
      await page
        .locator('.view.recent')
        .evaluate((el: HTMLElement) => (el.style.maxWidth = '600px'));
      await expect
        .poll(() => recentRow('recent time').locator('.recent-participants').isVisible())
        .toBe(false);
      await expect.poll(whole).toBe(true);
    } finally {
      await page.locator('.view.recent').evaluate((el: HTMLElement) => (el.style.maxWidth = ''));
      await page.setViewportSize(before);
    }
  });

  it('keeps only channel, topic and unread count below the narrow breakpoint (770 px)', async () => {
    await sendAs(emma, 'recent narrow', 'narrow one');
    await nav().getByRole('button', { name: 'Recent conversations' }).click();
    const row = recentRow('recent narrow');
    await row.waitFor();
    const shown = (cell: string) => row.locator(cell).first().isVisible();
    expect(await shown('.recent-participants')).toBe(true);
    expect(await shown('.recent-time')).toBe(true);
    const before = page.viewportSize()!;
    try {
      await page.setViewportSize({ width: 760, height: before.height });
      await expect.poll(() => shown('.recent-participants')).toBe(false);
      expect(await shown('.recent-time')).toBe(false);
      expect(await table().getByRole('columnheader', { name: 'Time' }).isVisible()).toBe(false);
      expect(await shown('.recent-topic')).toBe(true);
      expect(await row.getByRole('button', { name: /Mark as read/ }).isVisible()).toBe(true);
    } finally {
      await page.setViewportSize(before);
    }
  });

  it("mutes from a row's bell with an undo, sorts by its headers, keeps its filters, and ←/→ move along a row", async () => {
    await sendAs(emma, 'recent zeta', 'zeta from emma');
    await sendAs(emma, 'recent eta', 'eta from emma');
    await nav().getByRole('button', { name: 'Recent conversations' }).click();
    await recentRow('recent zeta').waitFor();

    // The bell mutes; the feedback widget says so and undoes it.
    await recentRow('recent zeta')
      .getByRole('button', { name: 'You will get default notifications for this topic' })
      .click();
    await page.getByRole('menuitem', { name: 'Mute' }).click();
    const toast = page.locator('.feedback-toast');
    await toast.getByText('You muted #general > recent zeta.').waitFor();
    await expect.poll(() => recentRow('recent zeta').count()).toBe(0);
    await toast.getByRole('button', { name: 'Undo mute' }).click();
    await recentRow('recent zeta').waitFor();
    await recentRow('recent zeta')
      .getByRole('button', { name: 'You will get default notifications for this topic' })
      .waitFor();

    // The headers sort: Topic ascending, then the other way; Time back to newest first.
    const headers = table().getByRole('row').first();
    const sorted = (name: string) =>
      headers.getByRole('columnheader', { name }).getAttribute('aria-sort');
    expect(await sorted('Time')).toBe('descending');
    await page.getByRole('searchbox', { name: /Filter conversations/ }).fill('recent');
    const topics = () =>
      table()
        .getByRole('row')
        .evaluateAll((rows) =>
          rows.slice(1).map((r) => r.querySelector('.recent-topic .name')?.textContent ?? ''),
        );
    await headers.getByRole('button', { name: 'Topic' }).click();
    expect(await sorted('Topic')).toBe('ascending');
    const ascending = await topics();
    expect(ascending).toEqual([...ascending].sort());
    await headers.getByRole('button', { name: 'Topic' }).click();
    expect(await topics()).toEqual([...ascending].reverse());
    await headers.getByRole('button', { name: 'Time' }).click();
    await headers.getByRole('button', { name: 'Time' }).click();
    expect(await sorted('Time')).toBe('descending');
    expect((await topics())[0]).toBe('recent eta');

    // ←/→ move between the row's cells: the unread count, the bell, around to the channel.
    await page.getByRole('searchbox', { name: /Filter conversations/ }).press('ArrowDown');
    expect(await focusedName()).toContain('recent eta');
    await page.keyboard.press('ArrowRight');
    expect(await focusedName()).toBe('Mark as read (1 unread)');
    await page.keyboard.press('ArrowRight');
    expect(await focusedName()).toBe('You will get default notifications for this topic');
    await page.keyboard.press('ArrowRight');
    expect(await focusedName()).toBe('#general');
    await page.keyboard.press('ArrowLeft');
    await page.keyboard.press('ArrowDown');
    // Down keeps the cell: the next row's bell.
    expect(await focusedName()).toBe('You will get default notifications for this topic');
    expect(
      await recentRow('recent zeta')
        .getByRole('button', { name: /this topic/ })
        .evaluate((el) => el === document.activeElement),
    ).toBe(true);

    // The topics menu and the toggles are kept across a reload (per account), the text is not.
    await chooseTopics('Standard view', 'Followed topics');
    await filter('Participated').click();
    await page.reload();
    await nav().getByRole('button', { name: 'Recent conversations' }).click();
    await page.getByRole('button', { name: 'Topics shown: Followed topics' }).waitFor();
    expect(await filter('Participated').getAttribute('aria-pressed')).toBe('true');
    expect(await page.getByRole('searchbox', { name: /Filter conversations/ }).inputValue()).toBe(
      '',
    );
    await chooseTopics('Followed topics', 'Standard view');
    await filter('Participated').click();
  });
});

describe('Recent conversations layout', () => {
  it("lines a direct message's unread count up with the channel rows' (it keeps the bell's space)", async () => {
    await owner.post('/messages', { type: 'private', to: JSON.stringify([emmaId]), content: 'dm' });
    await emma.post('/messages', {
      type: 'private',
      to: JSON.stringify([ownerId]),
      content: 'an unread dm',
    });
    await sendAs(emma, 'recent theta', 'theta from emma');
    await nav().getByRole('button', { name: 'Recent conversations' }).click();
    const countIn = (row: ReturnType<typeof table>) =>
      row.getByRole('button', { name: /^Mark as read/ }).boundingBox();
    await recentRow('recent theta').waitFor();
    const dm = await countIn(
      table()
        .getByRole('row')
        .filter({ has: page.locator('.recent-dm-label') })
        .filter({ hasText: 'Emma Member' })
        .first(),
    );
    const topic = await countIn(recentRow('recent theta'));
    expect(Math.abs(dm!.x + dm!.width - (topic!.x + topic!.width))).toBeLessThan(1);
  });
});

describe('topic actions', () => {
  it('renames a topic from the sidebar, telling only the old topic, and the view follows', async () => {
    await sendAs(emma, 'rename me', 'a message about renaming');
    await openTopic(page, 'general', 'rename me');
    const topics = nav().getByRole('list', { name: 'Topics in #general' });
    await topics.getByRole('button', { name: /^rename me/ }).waitFor();
    await topics.getByRole('button', { name: 'Topic rename me options' }).click();
    await page.getByRole('menuitem', { name: 'Move or rename topic' }).click();
    const dialog = page.getByRole('dialog', { name: 'Move or rename rename me' });
    await dialog.getByLabel('New topic', { exact: true }).fill('renamed topic');
    await dialog.getByLabel('Send automated notice to new topic').uncheck();
    await dialog.getByLabel('Send automated notice to old topic').check();
    await dialog.getByRole('button', { name: 'Move', exact: true }).click();

    await page.getByRole('heading', { name: '#general > renamed topic', exact: true }).waitFor();
    await messageWithText(page, 'a message about renaming').waitFor();
    // The old topic holds the notice; the new one only the moved message.
    await expect
      .poll(async () => (await topicMessages('rename me')).map((m) => m.content))
      .toEqual([expect.stringMatching(/moved to.*renamed topic/)]);
    expect((await topicMessages('renamed topic')).map((m) => m.content)).toEqual([
      expect.stringContaining('a message about renaming'),
    ]);
  });

  it('resolves, marks unread and copies a link from the recipient header', async () => {
    await openTopic(page, 'general', 'renamed topic');
    let topic = 'renamed topic';
    const choose = async (item: string) => {
      await barMenuButton(page, topic).click();
      await page.getByRole('menuitem', { name: item }).click();
    };

    await choose('Mark as resolved');
    await page.getByRole('heading', { name: '#general > ✔ renamed topic', exact: true }).waitFor();
    topic = '✔ renamed topic';
    const resolved = await topicMessages('✔ renamed topic');
    expect(resolved.at(-1)!.content).toMatch(/marked this topic as resolved/);

    await choose('Copy link to topic');
    await expect
      .poll(() => page.evaluate(() => navigator.clipboard.readText()))
      .toBe(
        `${session.realm.url}/#narrow/channel/${general}-general/topic/.E2.9C.94.20renamed.20topic`,
      );

    // Everything in the topic is read now (it is open); marking it unread sticks.
    await expect
      .poll(async () =>
        (await topicMessages('✔ renamed topic')).every((m) => m.flags.includes('read')),
      )
      .toBe(true);
    await choose('Mark topic as unread');
    await expect
      .poll(async () =>
        (await topicMessages('✔ renamed topic')).map((m) => m.flags.includes('read')),
      )
      .toEqual(resolved.map(() => false));
  });

  it("shows the server's refusal of a move and changes nothing", async () => {
    // The demo realm's "lunch plans" is hours old; a member may move only messages younger than
    // the realm's limit, here a minute.
    const [old] = await topicMessages('lunch plans');
    expect(
      (await owner.patch('/realm', { move_messages_within_stream_limit_seconds: 60 })).status,
    ).toBe(200);
    const memberApp = await startApp(session.realm, 'emma');
    const member = await openApp(session.browser, memberApp);
    try {
      await openTopic(member, 'general', 'lunch plans');
      await messageWithText(member, old!.content.replace(/<[^>]*>/g, '').slice(0, 20)).waitFor();
      await member
        .getByRole('navigation', { name: 'Conversations' })
        .getByRole('button', { name: 'Topic lunch plans options' })
        .click();
      await member.getByRole('menuitem', { name: 'Move or rename topic' }).click();
      const dialog = member.getByRole('dialog', { name: 'Move or rename lunch plans' });
      await dialog.getByLabel('New topic', { exact: true }).fill('should not happen');
      await dialog.getByRole('button', { name: 'Move', exact: true }).click();
      await dialog
        .getByRole('alert')
        .filter({ hasText: /permission|most recent messages/ })
        .waitFor();
      // Still open (the page behind a modal dialog is hidden from the accessibility tree until it
      // closes), still the same topic, here and on the server.
      await dialog.getByRole('button', { name: 'Cancel' }).click();
      await member.getByRole('heading', { name: '#general > lunch plans', exact: true }).waitFor();
      const stored = (await owner.get(`/messages/${old!.id}`)).body.message;
      expect(stored.subject).toBe('lunch plans');
      expect(await member.getByRole('heading', { name: /should not happen/ }).count()).toBe(0);
    } finally {
      await member.context().close();
      await memberApp.close();
    }
  });
});
