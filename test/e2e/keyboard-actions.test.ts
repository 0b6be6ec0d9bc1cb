// Message actions and sidebar menus by keyboard alone, in real Chromium (jsdom has no CSS, and the
// bug was CSS: buttons hidden with visibility: hidden cannot take focus). The arrow keys select a
// message, its actions show, `i` opens its menu, the arrows reach "Star" and Enter stars it on the
// real server; Tab reaches the actions of a row and a sidebar row's menu button.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { launchChromium, openApp, startApp, startRealm, type App, type Realm } from './support/app';
import { composeArea, messageWithText, openTopic } from './support/ui';
import { ApiClient } from '../support/client';

// The page's globals as code passed to page.evaluate sees them (e2e files compile without DOM types).
interface PageElement {
  getAttribute(name: string): string | null;
  textContent: string | null;
  closest(selector: string): PageElement | null;
}
declare const document: { activeElement: PageElement | null };
declare function getComputedStyle(element: PageElement): { opacity: string };

let realm: Realm;
let app: App;
let browser: Browser;
let page: Page;
let owner: ApiClient;

beforeAll(async () => {
  realm = await startRealm();
  app = await startApp(realm, 'owner');
  browser = await launchChromium();
  page = await openApp(browser, app);
  const user = realm.user('owner');
  owner = new ApiClient(() => realm.url, { email: user.email, apiKey: user.api_key });
});

afterAll(async () => {
  await browser?.close();
  await app?.close();
  await realm?.close();
});

/** What has the keyboard focus: its accessible label or text, and its opacity on screen. */
function focused(p: Page) {
  return p.evaluate(() => {
    const el = document.activeElement;
    return {
      label: el?.getAttribute('aria-label') ?? el?.textContent?.trim() ?? '',
      opacity: el ? getComputedStyle(el).opacity : '',
      messageId: el?.closest('[data-message-id]')?.getAttribute('data-message-id') ?? null,
    };
  });
}

async function flagsOf(id: number): Promise<string[]> {
  const res = await owner.get(`/messages/${id}`);
  expect(res.status).toBe(200);
  return res.body.message.flags as string[];
}

async function sendToTopic(topic: string, content: string): Promise<number> {
  const general = (await owner.get('/users/me/subscriptions')).body.subscriptions.find(
    (s: { name: string }) => s.name === 'general',
  ).stream_id as number;
  const res = await owner.post('/messages', { type: 'stream', to: general, topic, content });
  expect(res.status).toBe(200);
  return res.body.id as number;
}

describe('keyboard access to message actions and sidebar menus', () => {
  it('selects a message with the arrows, opens its menu with i and stars it', async () => {
    await sendToTopic('keyboard', 'an earlier message');
    const id = await sendToTopic('keyboard', 'star me by keyboard');
    await openTopic(page, 'general', 'keyboard');
    await messageWithText(page, 'star me by keyboard').waitFor();
    // The pointer is away from the list: nothing is shown because of hover.
    await page.mouse.move(1, 1);
    await page.getByRole('list', { name: 'Messages' }).focus();
    await page.keyboard.press('End');
    const row = page.locator(`[data-message-id="${id}"]`);
    await expect.poll(() => row.getAttribute('aria-selected')).toBe('true');
    // The selected row shows its actions.
    const menuButton = row.getByRole('button', { name: 'Message actions' });
    await expect
      .poll(() => menuButton.evaluate((b) => getComputedStyle(b as unknown as PageElement).opacity))
      .toBe('1');

    await page.keyboard.press('i');
    const menu = page.getByRole('menu', { name: 'Message actions' });
    await menu.waitFor();
    expect((await focused(page)).label).toBe('Quote and reply');
    await page.keyboard.press('ArrowDown');
    // The menu moves its focus a task after the key.
    await expect.poll(async () => (await focused(page)).label).toBe('Star');
    await page.keyboard.press('Enter');
    await expect.poll(() => flagsOf(id)).toContain('starred');
    await row.getByRole('img', { name: 'Starred' }).waitFor();
    // The menu closed and the focus is back on the message's menu button, not lost.
    await expect.poll(() => menu.count()).toBe(0);
    expect(await focused(page)).toMatchObject({ label: 'Message actions', messageId: String(id) });

    // Esc closes the menu again without leaving the conversation.
    await page.keyboard.press('Enter');
    await menu.waitFor();
    await page.keyboard.press('Escape');
    await expect.poll(() => menu.count()).toBe(0);
    await page.getByRole('heading', { name: '#general > keyboard' }).waitFor();
  });

  it("reaches a message's action buttons with Tab, shown while focused", async () => {
    const id = await sendToTopic('tabbing', 'tab to my actions');
    await openTopic(page, 'general', 'tabbing');
    const row = page.locator(`[data-message-id="${id}"]`);
    await row.waitFor();
    await page.mouse.move(1, 1);
    // Start from the sender's name in that row and Tab on: the row's action buttons come next.
    await row.getByRole('button', { name: 'Olivia Owner' }).first().focus();
    let reached = await focused(page);
    for (let i = 0; i < 6 && reached.label !== 'Add reaction'; i++) {
      await page.keyboard.press('Tab');
      reached = await focused(page);
    }
    expect(reached).toMatchObject({ label: 'Add reaction', opacity: '1', messageId: String(id) });
    await page.keyboard.press('Tab');
    expect(await focused(page)).toMatchObject({ label: 'Message actions', opacity: '1' });
  });

  it("opens the last message's menu upwards, above the compose box, where a click reaches it", async () => {
    // Enough messages that the last one sits at the bottom of the list, just above compose.
    for (let i = 0; i < 20; i++) await sendToTopic('menu placement', `filler ${i}`);
    const id = await sendToTopic('menu placement', 'the last message of the topic');
    await openTopic(page, 'general', 'menu placement');
    const row = page.locator(`[data-message-id="${id}"]`);
    await row.waitFor();
    await row.hover();
    await row.getByRole('button', { name: 'Message actions' }).click();
    const menu = page.getByRole('menu', { name: 'Message actions' });
    await menu.waitFor();
    const rowBox = (await row.boundingBox())!;
    const menuBox = (await menu.boundingBox())!;
    expect(menuBox.y).toBeLessThan(rowBox.y + rowBox.height); // the row really is near the bottom
    const compose = (await composeArea(page).boundingBox())!;
    expect(menuBox.y + menuBox.height).toBeLessThanOrEqual(compose.y);
    // A real pointer click (no keyboard workaround): nothing else covers the item.
    await menu.getByRole('menuitem', { name: /^Star/ }).click();
    await expect.poll(() => flagsOf(id)).toContain('starred');
  });

  it("reaches a sidebar channel's menu with Tab and mutes the channel from it", async () => {
    await page.mouse.move(1, 1);
    const nav = page.getByRole('navigation', { name: 'Conversations' });
    await nav.getByRole('button', { name: /^#design\b/ }).focus();
    await page.keyboard.press('Tab');
    expect(await focused(page)).toMatchObject({
      label: 'Channel #design options',
      opacity: '1',
    });
    await page.keyboard.press('Enter');
    const menu = page.getByRole('menu', { name: 'Channel #design options' });
    await menu.waitFor();
    // Opened from the keyboard, the menu puts the focus on its first item.
    expect((await focused(page)).label).toBe('Mute channel');
    await page.keyboard.press('Enter');
    const muted = async () =>
      (await owner.get('/users/me/subscriptions')).body.subscriptions.find(
        (s: { name: string }) => s.name === 'design',
      ).is_muted as boolean;
    await expect.poll(muted).toBe(true);
  });
});
