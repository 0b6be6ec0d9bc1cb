// The window's layout at 1,400, 1,024 and 800 px wide, light and dark, driven in Chromium against
// browser mode and the real realm, as a person switching from the public web app uses it: the people
// list and (below 770 px) the conversation sidebar leave the row and open as overlays from the top
// bar; nothing covers the compose box, its Send button or the last message; settings cover the
// whole window and close with Esc and their close button; long names never scroll a sidebar
// sideways and their unread counts stay in view; a channel filter that matches nothing says so; the
// demo realm's first screen welcomes a newcomer until dismissed. Screenshots of each width and
// theme are written to the system's temporary folder to be looked at.
import { mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  launchChromium,
  realmClient,
  startApp,
  startRealm,
  type App,
  type Realm,
} from './support/app';
import { composeBox, localInputValue, messageWithText, openTopic, send } from './support/ui';

const SHOTS = join(tmpdir(), 'tributary-e2e-screenshots');

/** What the checks read of an element in the page (the e2e tests compile without the DOM's types). */
interface PageElement {
  getBoundingClientRect(): { left: number; top: number; width: number; height: number };
  contains(other: unknown): boolean;
  ownerDocument: { elementFromPoint(x: number, y: number): unknown };
  scrollWidth: number;
  clientWidth: number;
}

const LONG_CHANNEL = 'a-channel-whose-name-goes-on-and-on-past-the-sidebar-edge';
const LONG_NAME = 'Dev Member With A Remarkably Long Display Name That Never Seems To End';

let realm: Realm;
let app: App;
let browser: Browser;
let page: Page;

const sidebar = () => page.getByRole('navigation', { name: 'Conversations' });
const people = () => page.getByRole('complementary', { name: 'People' });
const settings = () => page.getByRole('dialog', { name: 'Settings' });

/** Whether the element's centre shows the element itself (nothing lies over it). */
function uncovered(locator: Locator): Promise<boolean> {
  return locator.evaluate((el: PageElement) => {
    const box = el.getBoundingClientRect();
    const hit = el.ownerDocument.elementFromPoint(
      box.left + box.width / 2,
      box.top + box.height / 2,
    );
    return hit === el || el.contains(hit);
  });
}

/**
 * Whether the unread counts of the long channel's row and of the long-named person's direct
 * messages are shown, inside the sidebar's right edge.
 */
async function countsInSidebar(): Promise<boolean> {
  const counts = [
    sidebar().getByTestId(`channel-${LONG_CHANNEL}`).getByTestId('unread-count').first(),
    sidebar()
      .getByRole('region', { name: 'Direct messages' })
      .getByRole('button', { name: /^Dev Member With/ })
      .first()
      .getByTestId('unread-count'),
  ];
  const edge = await sidebar().boundingBox();
  for (const count of counts) {
    const box = await count.boundingBox();
    if (!box || !edge || box.width === 0 || box.x + box.width > edge.x + edge.width) return false;
  }
  return true;
}

/** Whether a box overflows sideways (its content wider than it). */
function overflowsSideways(locator: Locator): Promise<boolean> {
  return locator.evaluate((el: PageElement) => el.scrollWidth > el.clientWidth);
}

/** Whether a press at the window's corners lands in `locator` (it covers the whole window). */
function coversWindow(locator: Locator): Promise<boolean> {
  return locator.evaluate((el: PageElement) => {
    const doc = el.ownerDocument as unknown as {
      elementFromPoint(x: number, y: number): unknown;
      documentElement: { clientWidth: number; clientHeight: number };
    };
    const { clientWidth: w, clientHeight: h } = doc.documentElement;
    return [
      [2, 2],
      [w - 3, 2],
      [2, h - 3],
      [w - 3, h - 3],
      [w / 2, h / 2],
    ].every(([x, y]) => el.contains(doc.elementFromPoint(x!, y!)));
  });
}

/**
 * The table's cells whose text is cut off without an ellipsis, and the words that wrap mid-word
 * (a word whose letters lie on more than one line), each as its text.
 */
function cutCells(element: unknown): string[] {
  const table = element as PageNode;
  const cut: string[] = [];
  for (const cell of table.querySelectorAll('th, td')) {
    if (cell.scrollWidth <= cell.clientWidth + 1) continue;
    const ellipsis = [cell, ...cell.querySelectorAll('*')].some(
      (el) => getComputedStyle(el).textOverflow === 'ellipsis',
    );
    if (!ellipsis) cut.push(`cut: ${cell.textContent}`);
  }
  const doc = table.ownerDocument;
  const walker = doc.createTreeWalker(table, 4 /* NodeFilter.SHOW_TEXT */);
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    const text = node.textContent ?? '';
    for (const match of text.matchAll(/\S+/g)) {
      const range = doc.createRange();
      range.setStart(node, match.index);
      range.setEnd(node, match.index + match[0].length);
      if (range.getClientRects().length > 1) cut.push(`wrapped: ${match[0]}`);
    }
  }
  return cut;
}

async function shoot(name: string): Promise<void> {
  await page.mouse.move(0, 0);
  await page.screenshot({ path: join(SHOTS, `layout-${name}.png`) });
}

beforeAll(async () => {
  mkdirSync(SHOTS, { recursive: true });
  realm = await startRealm();
  const owner = realmClient(realm, 'owner');
  // A long channel name with unread messages, and a long-named person's unread direct message.
  const subs = (await owner.get('/users/me/subscriptions')).body as {
    subscriptions: Array<{ name: string; stream_id: number }>;
  };
  const random = subs.subscriptions.find((s) => s.name === 'random')!;
  expect(
    (await owner.patch(`/streams/${random.stream_id}`, { new_name: LONG_CHANNEL })).status,
  ).toBe(200);
  const dev = realmClient(realm, 'dev');
  expect((await dev.patch('/settings', { full_name: LONG_NAME })).status).toBe(200);
  const ownerId = ((await owner.get('/users/me')).body as { user_id: number }).user_id;
  for (const content of ['One from far away', 'Two from far away'])
    expect(
      (await dev.post('/messages', { type: 'stream', to: LONG_CHANNEL, topic: 'far', content }))
        .status,
    ).toBe(200);
  expect(
    (await dev.post('/messages', { type: 'private', to: JSON.stringify([ownerId]), content: 'Hi' }))
      .status,
  ).toBe(200);
  const scheduled = await owner.post('/scheduled_messages', {
    type: 'direct',
    to: JSON.stringify([ownerId]),
    content: 'A note for later',
    scheduled_delivery_timestamp: Math.floor(Date.now() / 1000) + 7200,
  });
  expect(scheduled.status).toBe(200);
  app = await startApp(realm, 'owner');
  browser = await launchChromium();
  // Not openApp: a fresh window, whose welcome panel has never been dismissed.
  const context = await browser.newContext({ viewport: { width: 1400, height: 900 } });
  page = await context.newPage();
  await page.goto(app.url);
  await sidebar().waitFor();
}, 180_000);

afterAll(async () => {
  await browser?.close();
  await app?.close();
  await realm?.close();
});

describe('first run on the demo realm', () => {
  it('welcomes a newcomer with things to try, and stays dismissed once dismissed', async () => {
    const welcome = page.getByRole('region', { name: 'Welcome to the Tributary demo' });
    await welcome.waitFor();
    for (const name of [
      'Reply to a message',
      'Open a meeting recording',
      'Sign in to a real server',
    ])
      await welcome.getByRole('button', { name }).waitFor();
    await shoot('welcome-1400-light');
    // Its things to try go where they say.
    await welcome.getByRole('button', { name: 'Reply to a message' }).click();
    await page.getByRole('heading', { name: '#general > welcome', exact: true }).waitFor();
    // A reply: the compose box opens.
    await page.getByRole('textbox', { name: 'Message' }).waitFor();
    await welcome.getByRole('button', { name: 'Open a meeting recording' }).click();
    await page.getByRole('heading', { name: 'Meeting manifest' }).waitFor();
    await page.getByRole('button', { name: 'Back', exact: true }).click();
    await page.getByRole('heading', { name: '#general > welcome', exact: true }).waitFor();
    // The meeting viewer is in the main menu, not a permanent button in the top bar.
    const bar = page.getByRole('banner');
    expect(await bar.getByRole('button', { name: 'Open meeting manifest…' }).count()).toBe(0);
    await bar.getByRole('button', { name: 'Main menu' }).click();
    await page.getByRole('menuitem', { name: 'Open meeting manifest…' }).waitFor();
    await page.keyboard.press('Escape');
    await expect.poll(() => page.getByRole('menu').count()).toBe(0);

    await welcome.getByRole('button', { name: 'Dismiss welcome' }).click();
    await expect.poll(() => welcome.count()).toBe(0);
    await page.reload();
    await sidebar().waitFor();
    await page.getByRole('main').waitFor();
    expect(await welcome.count()).toBe(0);
    // The main menu shows it again.
    await bar.getByRole('button', { name: 'Main menu' }).click();
    await page.getByRole('menuitem', { name: 'Welcome and things to try' }).click();
    await welcome.waitFor();
    await welcome.getByRole('button', { name: 'Dismiss welcome' }).click();
    await expect.poll(() => welcome.count()).toBe(0);
  });
});

describe('dialogs in the dark theme', () => {
  it('stand out from the page they dim: a raised panel with an edge over a darker scrim', async () => {
    await page.setViewportSize({ width: 1024, height: 768 });
    await page.emulateMedia({ colorScheme: 'dark' });
    await expect.poll(() => page.evaluate('document.documentElement.dataset.theme')).toBe('dark');
    await page.keyboard.press('Control+Shift+K');
    const dialog = page.getByRole('dialog', { name: 'Switch conversation' });
    await dialog.waitFor();
    const look = await dialog.evaluate((el) => {
      const style = (node: unknown) => getComputedStyle(node) as unknown as Record<string, string>;
      const panel = style(el);
      return {
        panel: panel.backgroundColor,
        edge: panel.borderTopWidth,
        page: style((el as { ownerDocument: { body: unknown } }).ownerDocument.body)
          .backgroundColor,
        scrim: style((el as { parentElement: unknown }).parentElement).backgroundColor,
      };
    });
    expect(look.panel).not.toBe(look.page);
    expect(look.edge).toBe('1px');
    // rgba(0, 0, 0, a): at least half-dark, where a light theme's 0.35 left the page as bright.
    expect(Number(/rgba\(0, 0, 0, ([\d.]+)\)/.exec(look.scrim)?.[1])).toBeGreaterThanOrEqual(0.5);
    await shoot('1024-dark-dialog');
    await page.keyboard.press('Escape');
    await expect.poll(() => dialog.count()).toBe(0);
    await page.emulateMedia({ colorScheme: 'light' });
  });
});

describe('the sidebar views', () => {
  it('name each view, and give a count its own label (scheduled messages are not unread)', async () => {
    const button = sidebar().getByRole('button', { name: 'Scheduled messages', exact: true });
    await button.getByTestId('unread-count').waitFor();
    const described = await button.getAttribute('aria-describedby');
    expect(described).toBeTruthy();
    expect(await page.locator(`[id="${described}"]`).getAttribute('aria-label')).toBe(
      '1 scheduled',
    );
  });
});

describe.each([
  { width: 1400, height: 900 },
  { width: 1024, height: 768 },
  { width: 800, height: 600 },
  { width: 720, height: 600 },
])('at $width × $height', ({ width, height }) => {
  const peopleInline = width >= 1200;
  const sidebarInline = width >= 770;

  for (const scheme of ['light', 'dark'] as const) {
    it(`${scheme}: compose, Send and the last message are never covered; side panels fit`, async () => {
      await page.setViewportSize({ width, height });
      await page.emulateMedia({ colorScheme: scheme });
      await expect.poll(() => page.evaluate('document.documentElement.dataset.theme')).toBe(scheme);
      await openTopic(page, 'general', 'layout');
      const text = `Layout check at ${width} in ${scheme}`;
      await send(page, text);
      const last = messageWithText(page, text);
      await last.waitFor();

      expect(await sidebar().isVisible()).toBe(sidebarInline);
      expect(await people().isVisible()).toBe(peopleInline);
      for (const target of [
        page.getByRole('textbox', { name: 'Message' }),
        page.getByRole('button', { name: 'Send', exact: true }),
        last,
      ])
        expect(await uncovered(target)).toBe(true);

      if (sidebarInline) {
        expect(await overflowsSideways(sidebar())).toBe(false);
        // The long channel's unread count is in view, inside the sidebar's edge.
        expect(await countsInSidebar()).toBe(true);
      }
      if (peopleInline) expect(await overflowsSideways(people())).toBe(false);
      await shoot(`${width}-${scheme}`);
    });
  }

  it('the "scheduled" notice stays over the conversation, clear of the sidebar', async () => {
    await openTopic(page, 'general', 'layout');
    await (await composeBox(page)).fill(`For later, at ${width}`);
    await page.getByRole('button', { name: 'Schedule', exact: true }).click();
    const menu = page.getByRole('dialog', { name: 'Schedule message' });
    await menu.getByLabel('Send at').fill(localInputValue(7200));
    await menu.getByRole('button', { name: 'Schedule at this time' }).click();
    const notice = page
      .getByRole('status')
      .filter({ hasText: 'Your message has been scheduled for' });
    await notice.waitFor();
    const [box, main] = await Promise.all([
      notice.boundingBox(),
      page.getByRole('main').boundingBox(),
    ]);
    expect(box!.x).toBeGreaterThanOrEqual(main!.x);
    expect(box!.x + box!.width).toBeLessThanOrEqual(main!.x + main!.width);
    await shoot(`${width}-scheduled-notice`);
  });

  it('the people list opens from the top bar as an overlay and closes with Esc or a press outside', async () => {
    const toggle = page.getByRole('banner').getByRole('button', { name: 'People' });
    if (peopleInline) {
      // Inline, the button hides and shows it in the row (remembered), as the public web app's.
      await toggle.click();
      await expect.poll(() => people().count()).toBe(0);
      expect(await toggle.getAttribute('aria-pressed')).toBe('false');
      await toggle.click();
      await people().waitFor();
      return;
    }
    expect(await toggle.getAttribute('aria-pressed')).toBe('false');
    await toggle.click();
    await people().waitFor();
    expect(await overflowsSideways(people())).toBe(false);
    // Over the conversation, not beside it: the message list keeps its width.
    const drawer = page.getByRole('dialog', { name: 'People' });
    expect(await drawer.evaluate((el) => getComputedStyle(el).position)).toBe('absolute');
    // The drawer took the focus (Tab goes on into it), and gives it back to its button on Esc.
    expect(await drawer.evaluate((el) => el === document.activeElement)).toBe(true);
    await shoot(`${width}-people-open`);
    await page.keyboard.press('Escape');
    await expect.poll(() => people().count()).toBe(0);
    await expect.poll(() => toggle.evaluate((el) => el === document.activeElement)).toBe(true);
    // Esc closed the overlay only: the conversation is still on screen.
    await page.getByRole('heading', { name: '#general > layout' }).waitFor();
    // A card opened from a row lies over the drawer: pressing in it is not outside, and Esc closes
    // the card first, then the drawer.
    await toggle.click();
    await people()
      .getByRole('button', { name: /Emma Member/ })
      .click();
    const card = page.getByRole('dialog', { name: 'User card: Emma Member' });
    await card.click({ position: { x: 4, y: 4 } });
    expect(await people().count()).toBe(1);
    await page.keyboard.press('Escape');
    await expect.poll(() => card.count()).toBe(0);
    expect(await people().count()).toBe(1);
    await page.keyboard.press('Escape');
    await expect.poll(() => people().count()).toBe(0);
    await toggle.click();
    await people().waitFor();
    await (await composeBox(page)).click();
    await expect.poll(() => people().count()).toBe(0);
  });

  it('the conversation sidebar folds away below 770 px and opens as an overlay', async () => {
    const toggle = page
      .getByRole('banner')
      .getByRole('button', { name: 'Conversations', exact: true });
    if (sidebarInline) {
      expect(await toggle.count()).toBe(0);
      return;
    }
    expect(await sidebar().isVisible()).toBe(false);
    await toggle.click();
    await sidebar().waitFor();
    expect(await overflowsSideways(sidebar())).toBe(false);
    expect(await countsInSidebar()).toBe(true);
    await shoot(`${width}-sidebar-open`);
    await page.keyboard.press('Escape');
    await expect.poll(() => sidebar().isVisible()).toBe(false);
    await page.getByRole('heading', { name: '#general > layout' }).waitFor();
    // Choosing a place in it goes there and folds it away again.
    await toggle.click();
    await sidebar().getByRole('button', { name: 'Inbox', exact: true }).click();
    await page.getByRole('main').getByRole('heading', { name: 'Inbox' }).waitFor();
    await expect.poll(() => sidebar().isVisible()).toBe(false);
    await toggle.click();
    await page.getByRole('main').click({ position: { x: 400, y: 200 } });
    await expect.poll(() => sidebar().isVisible()).toBe(false);
  });

  it('a channel filter that matches nothing says so', async () => {
    const toggle = page
      .getByRole('banner')
      .getByRole('button', { name: 'Conversations', exact: true });
    if (!sidebarInline) await toggle.click();
    const filter = sidebar().getByRole('searchbox', { name: 'Filter sidebar channels' });
    await filter.fill('no channel is called this');
    await sidebar().getByText('No matching channels').waitFor();
    // Esc in the filter clears it first (the overlaid sidebar stays open).
    await filter.press('Escape');
    await expect.poll(() => filter.inputValue()).toBe('');
    await expect.poll(() => sidebar().getByText('No matching channels').count()).toBe(0);
    expect(await sidebar().isVisible()).toBe(true);
    if (!sidebarInline) {
      await page.keyboard.press('Escape');
      await expect.poll(() => sidebar().isVisible()).toBe(false);
    }
  });

  it.runIf(sidebarInline)(
    'the channel browser shows its list and a channel side by side only when wide enough',
    async () => {
      await page.setViewportSize({ width, height });
      await sidebar().getByRole('button', { name: 'Browse channels' }).click();
      const overlay = page.getByRole('dialog', { name: 'Channels' });
      const list = overlay.getByRole('region', { name: 'Channels' });
      const detail = overlay.getByRole('region', { name: 'Channel details' });
      await list.getByRole('heading', { name: 'Channels' }).waitFor();
      const twoPanes = width > 900;
      // Narrow: the list alone, its descriptions on one line rather than squeezed beside the details.
      expect(await detail.isVisible()).toBe(twoPanes);
      await list.getByRole('button', { name: 'Settings for #design' }).click();
      await detail.getByRole('article', { name: 'Settings for #design' }).waitFor();
      expect(await list.isVisible()).toBe(twoPanes);
      if (!twoPanes) {
        await detail.getByRole('button', { name: '← All channels' }).click();
        await list.waitFor();
        expect(await detail.isVisible()).toBe(false);
      }
      await overlay.getByRole('button', { name: 'Close channels' }).click();
      await expect.poll(() => overlay.count()).toBe(0);
    },
  );

  it('the emoji picker leaves the text of the message it reacts to in view', async () => {
    await page.setViewportSize({ width, height });
    await openTopic(page, 'general', 'layout');
    const own = `Picker check at ${width}`;
    await send(page, own);
    await messageWithText(page, own).waitFor();
    // The first row and the last: the picker opens below the one and above the other.
    for (const message of [
      page.getByTestId('message').first(),
      page.getByTestId('message').last(),
    ]) {
      await page.mouse.move(0, 0);
      await message.hover();
      await message.getByRole('button', { name: 'Add reaction' }).click();
      const picker = page.getByRole('dialog', { name: 'Emoji picker' });
      await picker.waitFor();
      const box = (locator: Locator) =>
        locator.evaluate((el: PageElement) => {
          const r = el.getBoundingClientRect();
          return { top: r.top, bottom: r.top + r.height, left: r.left, right: r.left + r.width };
        });
      const text = await box(message.locator('.content').first());
      const panel = await box(picker);
      const overlaps =
        panel.left < text.right &&
        panel.right > text.left &&
        panel.top < text.bottom &&
        panel.bottom > text.top;
      expect(overlaps, JSON.stringify({ text, panel })).toBe(false);
      await page.keyboard.press('Escape');
      await expect.poll(() => picker.count()).toBe(0);
    }
  });

  it('settings cover the whole window and close with Esc and with their close button', async () => {
    await openTopic(page, 'general', 'layout');
    const open = () => page.getByRole('banner').getByRole('button', { name: 'Settings' }).click();
    await open();
    await settings().waitFor();
    expect(await coversWindow(settings())).toBe(true);
    await settings()
      .getByRole('navigation', { name: 'Settings sections' })
      .getByRole('button', { name: 'Users', exact: true })
      .click();
    const table = settings().getByRole('table').first();
    await table.waitFor();
    if (width >= 1024) {
      // No cell is cut off without an ellipsis, and no cell breaks its words.
      expect(await table.evaluate(cutCells)).toEqual([]);
    }
    if (width >= 800) {
      // Each person's address on one line, and Edit and Deactivate side by side (at 800 px the
      // addresses broke at "@" and Deactivate went under Edit).
      await table
        .getByRole('button', { name: /^Deactivate / })
        .first()
        .waitFor();
      expect(await table.evaluate(crowdedUserRows)).toEqual([]);
    }
    await shoot(`${width}-settings`);
    // Tab stays inside (the panel loops it): from the first control back to the last, and round.
    const inOverlay = () =>
      page.evaluate(() => !!document.activeElement?.closest('.screen-overlay'));
    await settings().getByRole('button', { name: 'Close settings' }).focus();
    await page.keyboard.press('Shift+Tab');
    expect(await inOverlay()).toBe(true);
    await page.keyboard.press('Tab');
    expect(await inOverlay()).toBe(true);
    expect(
      await settings()
        .getByRole('button', { name: 'Close settings' })
        .evaluate((el) => el === document.activeElement),
    ).toBe(true);
    await page.keyboard.press('Escape');
    await expect.poll(() => settings().count()).toBe(0);
    await page.getByRole('heading', { name: '#general > layout' }).waitFor();
    // The focus is back on the button that opened it.
    const button = page.getByRole('banner').getByRole('button', { name: 'Settings' });
    await expect.poll(() => button.evaluate((el) => el === document.activeElement)).toBe(true);
    await open();
    await settings().getByRole('button', { name: 'Close settings' }).click();
    await expect.poll(() => settings().count()).toBe(0);
    await page.getByRole('heading', { name: '#general > layout' }).waitFor();
  });
});

/** Rows of Settings › Users whose address wraps or whose action buttons do not share a line. */
function crowdedUserRows(table: unknown): string[] {
  interface Box {
    top: number;
    height: number;
  }
  interface El {
    textContent: string | null;
    getBoundingClientRect(): Box;
    querySelector(selector: string): El | null;
    querySelectorAll(selector: string): Iterable<El>;
  }
  const style = (el: El) =>
    getComputedStyle(el) as unknown as { lineHeight: string; fontSize: string };
  const crowded: string[] = [];
  for (const row of (table as El).querySelectorAll('tbody tr')) {
    const hint = row.querySelector('.org-hint');
    if (hint) {
      const line = parseFloat(style(hint).lineHeight) || 1.4 * parseFloat(style(hint).fontSize);
      if (hint.getBoundingClientRect().height > 1.5 * line)
        crowded.push(`address wraps: ${hint.textContent}`);
    }
    const tops = [...row.querySelectorAll('.org-actions button')].map((b) =>
      Math.round(b.getBoundingClientRect().top),
    );
    if (new Set(tops).size > 1) crowded.push(`actions wrap: ${row.textContent}`);
  }
  return crowded;
}

/** Globals of the page the checks use (the e2e tests compile without the DOM's types). */
declare function getComputedStyle(el: unknown): {
  position: string;
  textOverflow: string;
  overflowX: string;
};
interface PageNode {
  textContent: string | null;
  scrollWidth: number;
  clientWidth: number;
  querySelectorAll(selector: string): Iterable<PageNode>;
  ownerDocument: {
    createRange(): {
      setStart(node: unknown, offset: number): void;
      setEnd(node: unknown, offset: number): void;
      getClientRects(): { length: number };
    };
    createTreeWalker(root: unknown, filter: number): { nextNode(): PageNode | null };
  };
}
