// Everyday defects of the message list (issue #13), as a person meets them in Chromium against the
// real local server: a middle row's actions menu under the rows below it, a list without dates, no
// sign of a message sent while scrolled up, an offline echo without its recipient header, and the
// jump button over the sticky header drawn twice.
import { beforeAll, describe, expect, it } from 'vitest';
import type { Locator, Page } from 'playwright-core';
import { appSession, realmClient, type Realm } from './support/app';
import { messageWithText, openChannel, openTopic, send } from './support/ui';
import type { ApiClient } from '../support/client';

// The page's globals as code passed to page.evaluate sees them (e2e files compile without DOM types).
interface PageElement {
  scrollTop: number;
  getBoundingClientRect(): { top: number; bottom: number };
  checkVisibility(options: { visibilityProperty: boolean }): boolean;
}
interface PageRow {
  getAttribute(name: string): string | null;
  querySelector(selector: string): { textContent: string | null } | null;
}
declare const document: { querySelector(selector: string): PageElement | null };
declare const navigator: { clipboard: { readText(): Promise<string> } };

const TIME_ZONE = 'UTC';

const session = appSession('owner', {
  pageOptions: {
    timezoneId: TIME_ZONE,
    locale: 'en-US',
    permissions: ['clipboard-read', 'clipboard-write'],
  },
});
let realm: Realm;
let page: Page;
let owner: ApiClient;
let general: number;

beforeAll(async () => {
  ({ realm, page } = session);
  owner = realmClient(realm, 'owner');
  const subs = (await owner.get('/users/me/subscriptions')).body.subscriptions as Array<{
    name: string;
    stream_id: number;
  }>;
  general = subs.find((s) => s.name === 'general')!.stream_id;
});

async function sendToTopic(client: ApiClient, topic: string, content: string): Promise<number> {
  const res = await client.post('/messages', { type: 'stream', to: general, topic, content });
  expect(res.status).toBe(200);
  return res.body.id as number;
}

async function fillTopic(client: ApiClient, topic: string, count: number): Promise<number[]> {
  const ids: number[] = [];
  for (let i = 0; i < count; i++) ids.push(await sendToTopic(client, topic, `${topic} line ${i}`));
  return ids;
}

const messageList = () => page.getByRole('list', { name: 'Messages' });
const row = (id: number) => page.locator(`[data-message-id="${id}"]`);

/** Scrolls the list so that `y` (page pixels) of the list's content comes to its top edge. */
async function scrollListBy(dy: number): Promise<void> {
  await page.evaluate((by) => {
    const list = document.querySelector('.message-list')!;
    list.scrollTop += by;
  }, dy);
  // Two frames: the virtualizer hears the scroll event, then renders what came into view.
  await page.evaluate(
    () => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))),
  );
}

/** The top of the list's viewport, in page pixels. */
async function listTop(): Promise<number> {
  return (await messageList().boundingBox())!.y;
}

/** The row whose box holds `y` (page pixels), among the rendered ones. */
async function rowAt(y: number): Promise<{ id: number; box: { y: number; height: number } }> {
  const rows = page.getByTestId('message');
  for (let i = 0, n = await rows.count(); i < n; i++) {
    const box = await rows.nth(i).boundingBox();
    if (box && box.y <= y && y < box.y + box.height)
      return { id: Number(await rows.nth(i).getAttribute('data-message-id')), box };
  }
  throw new Error(`no message row at ${y}`);
}

async function flagsOf(id: number): Promise<string[]> {
  return (await owner.get(`/messages/${id}`)).body.message.flags as string[];
}

/** Opens the actions menu of a row with the mouse. */
async function openMenu(target: Locator): Promise<Locator> {
  await target.hover();
  await target.getByRole('button', { name: 'Message actions' }).click();
  // The menu opens in a layer over the page (a portal), not inside the row.
  const menu = target.page().getByRole('menu', { name: 'Message actions' });
  await menu.waitFor();
  return menu;
}

/** A click that fails fast when something else (a row below) would take it. */
const CLICK = { timeout: 3000 };

describe('the message list', () => {
  it("a middle row's actions menu lies over the rows below: each item takes a mouse click", async () => {
    const ids = await fillTopic(owner, 'middle menu', 30);
    await openTopic(page, 'general', 'middle menu');
    await row(ids.at(-1)!).waitFor();
    const top = await listTop();
    const height = (await messageList().boundingBox())!.height;
    // A row a third of the way down: its menu opens downwards, over the rows below it.
    const pick = async () => row((await rowAt(top + height / 3)).id);

    let target = await pick();
    const starId = Number(await target.getAttribute('data-message-id'));
    let menu = await openMenu(target);
    const rowBox = (await target.boundingBox())!;
    const menuBox = (await menu.boundingBox())!;
    expect(menuBox.y + menuBox.height).toBeGreaterThan(rowBox.y + rowBox.height);
    await menu.getByRole('menuitem', { name: 'Star' }).click(CLICK);
    await expect.poll(() => flagsOf(starId)).toContain('starred');

    menu = await openMenu(target);
    await menu.getByRole('menuitem', { name: 'Copy link to message' }).click(CLICK);
    await expect
      .poll(() => page.evaluate(() => navigator.clipboard.readText()))
      .toContain(`/near/${starId}`);

    target = await pick();
    const moveId = Number(await target.getAttribute('data-message-id'));
    menu = await openMenu(target);
    await menu.getByRole('menuitem', { name: 'Move or rename topic' }).click(CLICK);
    const form = target.getByRole('form', { name: 'Move messages' });
    await form.getByLabel('New topic', { exact: true }).fill('moved by mouse');
    await form.getByLabel('Which messages').selectOption('change_one');
    await form.getByRole('button', { name: 'Move' }).click(CLICK);
    await expect
      .poll(async () => (await owner.get(`/messages/${moveId}`)).body.message.subject)
      .toBe('moved by mouse');

    await row(moveId).waitFor({ state: 'detached' });
    target = await pick();
    const deleteId = Number(await target.getAttribute('data-message-id'));
    menu = await openMenu(target);
    await menu.getByRole('menuitem', { name: 'Delete message' }).click(CLICK);
    // The question is a modal alert dialog over the page, not inside the row.
    await page
      .getByRole('alertdialog', { name: 'Delete message?' })
      .getByRole('button', { name: 'Delete' })
      .click(CLICK);
    await expect.poll(async () => (await owner.get(`/messages/${deleteId}`)).status).toBe(400);
  });

  it('shows dates: a separator where the day changes, the date in recipient and sticky headers', async () => {
    await openChannel(page, 'general');
    const history = (
      await owner.get('/messages', {
        anchor: 'newest',
        num_before: 5000,
        num_after: 0,
        narrow: JSON.stringify([{ operator: 'channel', operand: 'general' }]),
      })
    ).body.messages as Array<{ id: number; timestamp: number }>;
    const timestampOf = new Map(history.map((m) => [m.id, m.timestamp]));
    const previousOf = new Map(history.slice(1).map((m, i) => [m.id, history[i]!.timestamp]));
    const now = Date.now();
    const labelsSeen = new Set<string>();

    /** Each rendered row: its date separator when its day differs from the message before it, and
     * the date in its recipient header when it has one. */
    const checkRenderedRows = async () => {
      // Read in one go: the list may render other rows between two reads.
      const rows = await page.getByTestId('message').evaluateAll((els) =>
        els.map((el) => {
          const row = el as unknown as PageRow;
          return {
            id: Number(row.getAttribute('data-message-id')),
            header: row.querySelector('.recipient-header')?.textContent ?? null,
            separator: row.querySelector('[role="separator"]')?.textContent ?? null,
          };
        }),
      );
      for (const { id, header, separator } of rows) {
        const timestamp = timestampOf.get(id)!;
        const label = dayLabel(timestamp, now);
        const previous = previousOf.get(id);
        if (header !== null) {
          expect(header).toContain(label);
          labelsSeen.add(label);
        } else if (previous !== undefined && dayOf(previous) !== dayOf(timestamp)) {
          expect(separator).toContain(label);
          labelsSeen.add(label);
        } else expect(separator).toBeNull();
      }
    };
    await page.getByTestId('message').first().waitFor();
    await checkRenderedRows();
    for (let i = 0; i < 4; i++) {
      await scrollListBy(-1500);
      await checkRenderedRows();
    }
    // The realm's history spans two weeks: more than today's date was shown.
    expect([...labelsSeen].filter((l) => l !== 'Today').length).toBeGreaterThan(0);

    // The sticky header carries the date of the message at the top edge of the view. Read both in
    // each poll: the row at the edge, not one a little below it, which may be a day later.
    await scrollListBy(40);
    await expect
      .poll(async () => {
        const top = await rowAt((await listTop()) + 1);
        const sticky = (await page.locator('.sticky-header').textContent()) ?? '';
        return sticky.includes(dayLabel(timestampOf.get(top.id)!, now));
      })
      .toBe(true);
  });

  it('tells that a message sent while scrolled up was sent, and jumps to it', async () => {
    await fillTopic(owner, 'scrolled up', 30);
    await openTopic(page, 'general', 'scrolled up');
    await messageWithText(page, 'scrolled up line 29').waitFor();
    // With the wheel, as a person scrolls up (the list stops settling at the bottom).
    const box = (await messageList().boundingBox())!;
    await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
    await page.mouse.wheel(0, -100_000);
    await messageWithText(page, 'scrolled up line 0').waitFor();
    await send(page, 'sent from far above');
    const notice = page.getByRole('status').filter({ hasText: 'Sent!' });
    await notice.waitFor();
    await notice.getByRole('button', { name: 'Scroll down to view your message.' }).click();
    const sent = messageWithText(page, 'sent from far above');
    await sent.waitFor();
    const listBox = (await messageList().boundingBox())!;
    await expect
      .poll(async () => {
        const box = (await sent.boundingBox())!;
        return box.y >= listBox.y - 1 && box.y + box.height <= listBox.y + listBox.height + 1;
      })
      .toBe(true);
    await notice.waitFor({ state: 'detached' });
  });

  it('shows a message queued offline under its recipient header', async () => {
    await openTopic(page, 'general', 'queued offline');
    await realm.stop();
    try {
      await page.getByTestId('connection-banner').waitFor({ timeout: 30_000 });
      await send(page, 'written with the server away');
      const echo = page.getByTestId('outbox-message');
      await echo.waitFor();
      const header = echo.locator('.recipient-header');
      expect(await header.textContent()).toContain('#general');
      expect(await header.textContent()).toContain('queued offline');
      expect(await header.textContent()).toContain('Today');
    } finally {
      await realm.restart();
    }
    const sent = messageWithText(page, 'written with the server away');
    await sent.waitFor({ timeout: 60_000 });
    await expect.poll(() => page.getByTestId('outbox-message').count()).toBe(0);
    expect(await sent.locator('.recipient-header').textContent()).toContain('queued offline');
  });

  it('keeps the jump button off the sticky header', async () => {
    // Unread messages stay unread while scrolling past them, so the jump button stays.
    expect((await owner.patch('/settings', { web_mark_read_on_scroll_policy: 3 })).status).toBe(
      200,
    );
    // The app must have applied the setting's event before the topic opens (or it marks the pile
    // read as it shows it): its Settings screen shows the store's value.
    await page.getByRole('button', { name: 'Settings', exact: true }).click();
    await page
      .getByRole('navigation', { name: 'Settings sections' })
      .getByRole('button', { name: 'Preferences', exact: true })
      .click();
    await expect
      .poll(() => page.getByLabel('Automatically mark messages as read').inputValue())
      .toBe('3');
    try {
      await fillTopic(realmClient(realm, 'emma'), 'unread pile', 40);
      await openTopic(page, 'general', 'unread pile');
      await messageWithText(page, 'unread pile line 0').waitFor();
      // The list positions itself at the first unread once its pages are in, which can come after
      // the first line shows: scroll until the first unread has left the view.
      const jump = page.getByRole('button', { name: 'Jump to first unread' });
      await expect
        .poll(async () => {
          await scrollListBy(1200);
          return jump.isVisible();
        })
        .toBe(true);
      const sticky = page.locator('.sticky-header .recipient-header');
      await sticky.waitFor();
      const a = (await jump.boundingBox())!;
      const b = (await sticky.boundingBox())!;
      expect(a.y >= b.y + b.height || a.y + a.height <= b.y).toBe(true);
      expect(await sticky.textContent()).toContain('unread pile');
    } finally {
      await owner.patch('/settings', { web_mark_read_on_scroll_policy: 1 });
    }
  });

  it('draws the sticky recipient header once, not over the header of the row at the top', async () => {
    // A row that starts a conversation, brought to the top edge: one recipient header there.
    await openChannel(page, 'general');
    await page.getByTestId('message').first().waitFor();
    const starts = page.locator(
      '[data-testid="message"]:not([data-index="0"]):has(.recipient-header)',
    );
    await starts.first().waitFor();
    // Pinned by id: `starts` is re-resolved on each use, and scrolling changes the rows rendered.
    const start = row(
      Number(
        await starts.nth(Math.floor((await starts.count()) / 2)).getAttribute('data-message-id'),
      ),
    );
    // The bar sits 8 px into its row (its margin): scrolled 0 or 6 px in, all of it is in view.
    for (const offset of [0, 6]) {
      const startBox = (await start.boundingBox())!;
      await scrollListBy(startBox.y - (await listTop()) + offset);
      const edge = await listTop();
      const headersAtTop = await page.locator('.recipient-header').evaluateAll(
        (els, y) =>
          els.filter((el) => {
            const shown = el as unknown as PageElement;
            const r = shown.getBoundingClientRect();
            return (
              shown.checkVisibility({ visibilityProperty: true }) && r.bottom > y && r.top < y + 30
            );
          }).length,
        edge,
      );
      expect(headersAtTop, `scrolled ${offset}px into the row`).toBe(1);
    }
    // Once the top of the row's bar is cut off, the sticky bar covers what is left of it (the
    // web app's does), rather than leaving half a bar at the edge.
    for (const offset of [14, 20]) {
      const startBox = (await start.boundingBox())!;
      await scrollListBy(startBox.y - (await listTop()) + offset);
      const sticky = page.locator('.sticky-header .recipient-header');
      await expect.poll(() => page.locator('.sticky-header').isVisible()).toBe(true);
      const own = start.locator('.recipient-header');
      await expect.poll(() => sticky.textContent()).toBe(await own.textContent());
      const [stickyBox, ownBox] = [(await sticky.boundingBox())!, (await own.boundingBox())!];
      expect(stickyBox.y).toBeLessThanOrEqual((await listTop()) + 1);
      expect(
        stickyBox.y + stickyBox.height,
        `scrolled ${offset}px into the row`,
      ).toBeGreaterThanOrEqual(ownBox.y + ownBox.height - 1);
    }
    // Once the row's own bar has left the view, the sticky one stands for it.
    const startBox = (await start.boundingBox())!;
    await scrollListBy(startBox.y - (await listTop()) + 45);
    await expect.poll(() => page.locator('.sticky-header').isVisible()).toBe(true);
  });
});

const DAY_SECONDS = 86_400;
/** Days since the epoch in the page's time zone (UTC). */
const dayOf = (timestamp: number) => Math.floor(timestamp / DAY_SECONDS);

/** The date as the public app labels it: Today, Yesterday, the weekday within a week, else the
 * date (with the year when not this year). */
function dayLabel(timestamp: number, nowMs: number): string {
  const age = dayOf(nowMs / 1000) - dayOf(timestamp);
  const date = new Date(timestamp * 1000);
  if (age === 0) return 'Today';
  if (age === 1) return 'Yesterday';
  if (age < 7) return date.toLocaleDateString('en-US', { weekday: 'long', timeZone: TIME_ZONE });
  const sameYear = date.getUTCFullYear() === new Date(nowMs).getUTCFullYear();
  return date.toLocaleDateString('en-US', {
    month: 'short',
    day: 'numeric',
    year: sameYear ? undefined : 'numeric',
    timeZone: TIME_ZONE,
  });
}
