// Page helpers shared by the end-to-end tests: navigating to a conversation, composing, waiting for
// messages. They use accessible names only (what a person or a screen reader sees).
import type { Locator, Page } from 'playwright-core';

/**
 * Opens a channel's feed through the search box: a click in the sidebar goes where the user's
 * web_channel_default_view says (by default the channel's top topic, as in the public web app).
 */
export async function openChannel(page: Page, channel: string): Promise<void> {
  const search = page.getByRole('combobox', { name: 'Search messages' });
  await search.fill(`channel:${channel}`);
  await search.press('Enter');
  await page.getByRole('heading', { name: `#${channel}`, exact: true }).waitFor();
}

/** Opens a topic through the search box (works whether or not the topic exists yet). */
export async function openTopic(page: Page, channel: string, topic: string): Promise<void> {
  const search = page.getByRole('combobox', { name: 'Search messages' });
  await search.fill(`channel:${channel} topic:"${topic}"`);
  await search.press('Enter');
  await page.getByRole('heading', { name: `#${channel} > ${topic}` }).waitFor();
}

/** Opens a section of Settings (opening Settings first) and waits until it is on screen. */
export async function openSettings(page: Page, section: string): Promise<void> {
  if ((await page.getByRole('navigation', { name: 'Settings sections' }).count()) === 0)
    await page.getByRole('button', { name: 'Settings', exact: true }).click();
  await page
    .getByRole('navigation', { name: 'Settings sections' })
    .getByRole('button', { name: section, exact: true })
    .click();
  await page
    .getByRole('region', { name: 'Settings', exact: true })
    .getByRole('region', { name: section, exact: true })
    .waitFor();
}

/** Closes Settings (it covers the whole window) with its close button. */
export async function closeSettings(page: Page): Promise<void> {
  const settings = page.getByRole('dialog', { name: 'Settings' });
  await settings.getByRole('button', { name: 'Close settings' }).click();
  await settings.waitFor({ state: 'detached' });
}

/**
 * The view's message box, opened first when the compose box is closed (as it starts, in the public
 * web app's way: features/compose/ClosedCompose.tsx) with the bar's button for the conversation on
 * screen.
 */
export async function composeBox(page: Page): Promise<Locator> {
  const box = page.getByRole('textbox', { name: 'Message' });
  const opener = page.getByTestId('compose-reply');
  await box.or(opener).first().waitFor();
  if (!(await box.count())) await opener.click();
  await box.waitFor();
  return box;
}

/** The compose box, open (a form) or closed (its bar): what the message list ends above. */
export function composeArea(page: Page): Locator {
  return page
    .getByRole('form', { name: 'Compose' })
    .or(page.getByRole('group', { name: 'Compose' }));
}

/** Types into compose and sends with the Send button (works whatever enter_sends is). */
export async function send(page: Page, text: string): Promise<void> {
  const box = await composeBox(page);
  await box.fill(text);
  await page.getByRole('button', { name: 'Send', exact: true }).click();
}

/** A datetime-local value `seconds` from now, in the browser's (and this process's) local time. */
export function localInputValue(secondsAhead: number): string {
  const d = new Date(Date.now() + secondsAhead * 1000);
  const pad = (n: number) => String(n).padStart(2, '0');
  return (
    `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}` +
    `T${pad(d.getHours())}:${pad(d.getMinutes())}:${pad(d.getSeconds())}`
  );
}

export function messageWithText(page: Page, text: string) {
  return page.getByTestId('message').filter({ hasText: text });
}

/** Chooses `item` in the actions menu of the message that shows `text`. */
export async function messageMenu(page: Page, text: string, item: string | RegExp): Promise<void> {
  const row = messageWithText(page, text);
  // From outside the list: a row re-rendered under a resting pointer hears no pointerenter.
  await page.mouse.move(0, 0);
  await row.hover();
  await row.getByRole('button', { name: 'Message actions' }).click();
  await page.getByRole('menuitem', { name: item }).click();
}

/** Reacts with `emoji` (its name) to the message that shows `text`, through the emoji picker. */
export async function react(page: Page, text: string, emoji: string): Promise<void> {
  const row = messageWithText(page, text);
  await row.hover();
  await row.getByRole('button', { name: 'Add reaction' }).click();
  await page.getByRole('searchbox', { name: 'Search emoji' }).fill(emoji);
  await page
    .getByRole('dialog', { name: 'Emoji picker' })
    .getByRole('button', { name: emoji, exact: true })
    .first()
    .click();
  await row.getByRole('button', { name: new RegExp(`^${emoji}: 1`) }).waitFor();
}

/**
 * The number shown beside a sidebar entry, or 0 when none is shown. Read in one step: asking
 * whether the count is there and then for its text would wait (Playwright's 30 s action timeout)
 * for a count that went away in between, which is exactly what happens when it drops to zero.
 */
export async function sidebarCount(page: Page, name: RegExp): Promise<number> {
  const button = page
    .getByRole('navigation', { name: 'Conversations' })
    .getByRole('button', { name })
    .first();
  const [count] = await button.getByTestId('unread-count').allTextContents();
  return count === undefined ? 0 : Number(count);
}

/**
 * The page's window as code passed to page.evaluate sees it. The e2e tests compile as Node code
 * (no DOM types), so each test file declares `window` with this type at module scope.
 */
export interface PageWindow {
  tributary: import('../../../shared/ipc/contract').TributaryApi<unknown>;
  __pwned?: number;
}
