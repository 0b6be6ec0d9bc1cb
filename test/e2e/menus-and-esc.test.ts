// Menus and dialogs on the headless library (renderer/lib/ui, Radix), in real Chromium: Esc closes
// the innermost open thing first (a menu, then the dialog chosen from it, then the help overlay)
// and only with nothing open goes to the home view; a dialog keeps the focus inside and gives it
// back to the menu's button; a menu opened near the window's edge stays in view. Letters typed in an
// open menu are the menu's, never the app's keys; a typeahead's list (lib/ui/Combobox) stays in
// view and is the first thing Esc closes.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { launchChromium, openApp, startApp, startRealm, type App, type Realm } from './support/app';
import { composeArea, composeBox, messageWithText, openSettings, openTopic } from './support/ui';
import { ApiClient } from '../support/client';

// The page's globals as code passed to page.evaluate sees them (e2e files compile without DOM types).
interface PageElement {
  getAttribute(name: string): string | null;
  closest(selector: string): PageElement | null;
}
declare const document: { activeElement: PageElement | null };

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

async function sendToTopic(topic: string, content: string): Promise<void> {
  const general = (await owner.get('/users/me/subscriptions')).body.subscriptions.find(
    (s: { name: string }) => s.name === 'general',
  ).stream_id as number;
  const res = await owner.post('/messages', { type: 'stream', to: general, topic, content });
  expect(res.status).toBe(200);
}

/** The accessible name of what has the focus, and the dialog it is in (null outside one). */
function focused(p: Page) {
  return p.evaluate(() => {
    const el = document.activeElement;
    return {
      label: el?.getAttribute('aria-label') ?? '',
      dialog: el?.closest('[role="dialog"]')?.getAttribute('aria-labelledby') ?? null,
    };
  });
}

/** The accessible name (aria-label) of the dialog or popover the focus is in, if any. */
function focusedDialogName(p: Page) {
  return p.evaluate(
    () => document.activeElement?.closest('[role="dialog"]')?.getAttribute('aria-label') ?? null,
  );
}

describe('Esc, innermost first', () => {
  it('closes the menu, then the dialog chosen from it, then the help; then goes home', async () => {
    await sendToTopic('esc order', 'press Esc a few times');
    await openTopic(page, 'general', 'esc order');
    const heading = page.getByRole('heading', { name: '#general > esc order' });
    await messageWithText(page, 'press Esc a few times').waitFor();
    const nav = page.getByRole('navigation', { name: 'Conversations' });
    const trigger = nav.getByRole('button', { name: 'Topic esc order options' });

    // A menu opened by keyboard: the arrows move through it, Esc closes only it.
    await trigger.focus();
    await page.keyboard.press('Enter');
    const menu = page.getByRole('menu', { name: 'Topic esc order options' });
    await menu.waitFor();
    await expect
      .poll(() => page.evaluate(() => document.activeElement?.getAttribute('role') ?? null))
      .toBe('menuitem');
    await page.keyboard.press('End');
    await expect
      .poll(() => menu.getByRole('menuitem', { name: 'Delete topic' }).evaluate(isFocused))
      .toBe(true);
    await page.keyboard.press('Escape');
    await expect.poll(() => menu.count()).toBe(0);
    await expect.poll(async () => (await focused(page)).label).toBe('Topic esc order options');
    await heading.waitFor();

    // A dialog chosen from the menu: the focus stays inside it; Esc closes only it and the focus
    // goes back to the menu's button.
    await trigger.click();
    await menu.getByRole('menuitem', { name: 'Move or rename topic' }).click();
    const dialog = page.getByRole('dialog', { name: 'Move or rename esc order' });
    await dialog.waitFor();
    await expect.poll(async () => (await focused(page)).dialog).not.toBeNull();
    for (let i = 0; i < 12; i++) {
      await page.keyboard.press('Tab');
      expect((await focused(page)).dialog).not.toBeNull();
    }
    await page.keyboard.press('Escape');
    await expect.poll(() => dialog.count()).toBe(0);
    await expect.poll(async () => (await focused(page)).label).toBe('Topic esc order options');
    await heading.waitFor();

    // The help overlay: Esc closes it and nothing more.
    await page.getByRole('list', { name: 'Messages' }).focus();
    await page.keyboard.press('?');
    const help = page.getByRole('dialog', { name: 'Keyboard shortcuts' });
    await help.waitFor();
    await page.keyboard.press('Escape');
    await expect.poll(() => help.count()).toBe(0);
    await heading.waitFor();

    // Nothing open: Esc goes to the home view (the demo's: the inbox), as the public web app does
    // with web_escape_navigates_to_home_view on.
    await page.keyboard.press('Escape');
    await page.getByRole('main').getByRole('heading', { name: 'Inbox' }).waitFor();
    expect(await heading.count()).toBe(0);
  });
});

describe('Esc, innermost first, for popovers and dialogs', () => {
  it('closes the user card, then an emoji picker before the dialog it is in; never navigates', async () => {
    await sendToTopic('esc popovers', 'a card and a picker');
    await openTopic(page, 'general', 'esc popovers');
    const heading = page.getByRole('heading', { name: '#general > esc popovers' });
    const row = messageWithText(page, 'a card and a picker');
    await row.waitFor();
    const name = realm.user('owner').full_name;

    // The user card (a popover): the focus goes in; Esc closes only it and gives the focus back.
    const sender = row.getByRole('button', { name, exact: true }).first();
    await sender.click();
    const card = page.getByRole('dialog', { name: `User card: ${name}` });
    await card.waitFor();
    await expect.poll(() => focusedDialogName(page)).toBe(`User card: ${name}`);
    await page.keyboard.press('Escape');
    await expect.poll(() => card.count()).toBe(0);
    await expect.poll(() => sender.evaluate(isFocused)).toBe(true);
    await heading.waitFor();

    // The emoji picker (a popover) inside Set status (a dialog): Esc closes the picker, then the
    // dialog, and the conversation stays.
    await page.getByRole('button', { name: 'Set status', exact: true }).click();
    const status = page.getByRole('dialog', { name: 'Set status' });
    await status.waitFor();
    const emojiButton = status.getByRole('button', { name: 'Choose status emoji' });
    await emojiButton.click();
    const picker = page.getByRole('dialog', { name: 'Emoji picker' });
    await picker.getByRole('searchbox', { name: 'Search emoji' }).waitFor();
    await expect.poll(() => focusedDialogName(page)).toBe('Emoji picker');
    // Placed beside its button, inside the window.
    const box = (await picker.boundingBox())!;
    const viewport = page.viewportSize()!;
    expect(box.x).toBeGreaterThanOrEqual(0);
    expect(box.x + box.width).toBeLessThanOrEqual(viewport.width);
    expect(box.y + box.height).toBeLessThanOrEqual(viewport.height);
    await page.keyboard.press('Escape');
    await expect.poll(() => picker.count()).toBe(0);
    expect(await status.count()).toBe(1);
    await expect.poll(() => emojiButton.evaluate(isFocused)).toBe(true);
    await page.keyboard.press('Escape');
    await expect.poll(() => status.count()).toBe(0);
    await heading.waitFor();
  });
});

describe("Esc with nothing open, by the person's setting", () => {
  it('stays in the conversation once "Escape key navigates to home view" is off', async () => {
    await openSettings(page, 'Preferences');
    const setting = page.getByRole('checkbox', { name: 'Escape key navigates to home view' });
    expect(await setting.isChecked()).toBe(true);
    // Saved to the server; the box shows the setting once the server's event comes back.
    await setting.click();
    await expect.poll(() => setting.isChecked()).toBe(false);
    await expect
      .poll(
        async () =>
          (await owner.post('/register', { fetch_event_types: '["user_settings"]' })).body
            .user_settings?.web_escape_navigates_to_home_view,
      )
      .toBe(false);
    try {
      await openTopic(page, 'general', 'esc order');
      await page.getByRole('list', { name: 'Messages' }).focus();
      await page.keyboard.press('Escape');
      await page.keyboard.press('Escape');
      await page.getByRole('heading', { name: '#general > esc order' }).waitFor();
      expect(await page.getByRole('main').getByRole('heading', { name: 'Inbox' }).count()).toBe(0);
    } finally {
      await owner.patch('/settings', { web_escape_navigates_to_home_view: true });
    }
  });
});

describe('letters in an open menu', () => {
  it("are the menu's: the main menu and an account's two menus keep the app's keys out", async () => {
    // Opened by a pointer, the menu itself has the focus; by keys, its first item.
    const inMenu = () => page.evaluate(() => !!document.activeElement?.closest('[role="menu"]'));
    const help = page.getByRole('dialog', { name: 'Keyboard shortcuts' });
    const account = page
      .getByRole('navigation', { name: 'Accounts' })
      .getByRole('button', { name: /^(?!Menu of ).* at / })
      .first();
    const openers: Array<[string, () => Promise<unknown>]> = [
      ['Main menu', () => page.getByRole('button', { name: 'Main menu' }).click()],
      [
        '⋯',
        () =>
          page
            .getByRole('button', { name: /^Menu of / })
            .first()
            .click(),
      ],
      ['right-click', () => account.click({ button: 'right' })],
    ];
    for (const [which, open] of openers) {
      await open();
      const menu = page.getByRole('menu');
      await menu.waitFor();
      await expect.poll(inMenu, { message: which }).toBe(true);
      // q would focus the channel filter, w the people search, ? the shortcuts.
      for (const key of ['q', 'w', '?']) await page.keyboard.press(key);
      expect(await inMenu(), which).toBe(true);
      expect(await menu.count(), which).toBe(1);
      expect(await help.count(), which).toBe(0);
      await page.keyboard.press('Escape');
      await expect.poll(() => menu.count(), { message: which }).toBe(0);
    }

    // A letter moves to the item it starts (the menu's typeahead); Enter chooses it.
    await page.getByRole('button', { name: 'Main menu' }).click();
    await page.getByRole('menu', { name: 'Main menu' }).waitFor();
    await page.keyboard.press('k');
    await expect
      .poll(() => page.evaluate(() => document.activeElement?.getAttribute('role') ?? null))
      .toBe('menuitem');
    await page.keyboard.press('Enter');
    await help.waitFor();
    await page.keyboard.press('Escape');
    await expect.poll(() => help.count()).toBe(0);
  });
});

describe('a typeahead in the message box', () => {
  it('lists above the box inside the window; Esc closes the list, then leaves the box', async () => {
    await sendToTopic('typeahead', 'complete a name');
    await openTopic(page, 'general', 'typeahead');
    const box = await composeBox(page);
    await box.click();
    await box.pressSequentially('hello @');
    const people = page.getByRole('listbox', { name: 'People' });
    await people.waitFor();
    expect(await box.getAttribute('aria-activedescendant')).toBe(
      await people.getByRole('option', { selected: true }).getAttribute('id'),
    );
    // Placement settles a frame after the list mounts.
    await expect
      .poll(async () => {
        const list = (await people.boundingBox())!;
        const field = (await box.boundingBox())!;
        return list.y >= 0 && list.x >= 0 && list.y + list.height <= field.y;
      })
      .toBe(true);
    await page.keyboard.press('Escape');
    await expect.poll(() => people.count()).toBe(0);
    expect(await box.evaluate(isFocused)).toBe(true);
    expect(await box.inputValue()).toBe('hello @');
    await page.keyboard.press('Escape');
    await expect.poll(() => box.evaluate(isFocused)).toBe(false);
    await box.fill('');
  });
});

describe('placement', () => {
  it("keeps a message's menu inside a short window, off the compose box", async () => {
    for (let i = 0; i < 12; i++) await sendToTopic('edge', `filler ${i}`);
    await sendToTopic('edge', 'the bottom message');
    // Short, not narrow: below 1,200 px the people list still covers the messages (#19's layout part).
    await page.setViewportSize({ width: 1280, height: 520 });
    try {
      await openTopic(page, 'general', 'edge');
      const row = messageWithText(page, 'the bottom message');
      await row.waitFor();
      await row.hover();
      await row.getByRole('button', { name: 'Message actions' }).click();
      const menu = page.getByRole('menu', { name: 'Message actions' });
      await menu.waitFor();
      // Placement settles a frame after the menu mounts.
      await expect
        .poll(async () => {
          const box = (await menu.boundingBox())!;
          const compose = (await composeArea(page).boundingBox())!;
          return (
            box.x >= 0 &&
            box.y >= 0 &&
            box.x + box.width <= 1280 &&
            box.y + box.height <= Math.min(520, compose.y)
          );
        })
        .toBe(true);
      // A real pointer click reaches an item: nothing covers it.
      await menu.getByRole('menuitem', { name: 'Copy link to message' }).click({ timeout: 5000 });
      await expect.poll(() => menu.count()).toBe(0);
    } finally {
      await page.setViewportSize({ width: 1280, height: 860 });
    }
  });
});

function isFocused(el: unknown): boolean {
  return (
    (el as object) ===
    (globalThis as unknown as { document: { activeElement: unknown } }).document.activeElement
  );
}
