// The audit's chat-window gaps in real Chromium against the real local server (browser mode): the
// profile with custom profile fields opened from a sender's card (it used to crash with React error
// #185), Esc closing an open menu instead of going back, `sender:me` and plain-word searches, the
// heart reaction picked twice (added, then removed), `c` from the inbox, and the inbox's filter and
// mark-as-read.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import {
  launchChromium,
  openApp,
  pageErrors,
  realmClient,
  startApp,
  startRealm,
  type App,
  type Realm,
} from './support/app';
import { messageWithText, openTopic } from './support/ui';

// The page's globals as code passed to page.evaluate sees them (e2e files compile without DOM types).
declare const document: { activeElement: { getAttribute(name: string): string | null } | null };

let realm: Realm;
let app: App;
let browser: Browser;
let page: Page;

beforeAll(async () => {
  realm = await startRealm();
  app = await startApp(realm, 'owner');
  browser = await launchChromium();
  page = await openApp(browser, app);
}, 180_000);

afterAll(async () => {
  await browser?.close();
  await app?.close();
  await realm?.close();
});

const client = (who: string) => realmClient(realm, who);

async function sendAs(who: string, topic: string, content: string): Promise<number> {
  const api = client(who);
  const general = (await api.get('/users/me/subscriptions')).body.subscriptions.find(
    (s: { name: string }) => s.name === 'general',
  ).stream_id as number;
  const res = await api.post('/messages', { type: 'stream', to: general, topic, content });
  expect(res.status).toBe(200);
  return res.body.id as number;
}

const heading = () => page.getByRole('main').getByRole('heading', { level: 1 });
const focusedLabel = () => page.evaluate(() => document.activeElement?.getAttribute('aria-label'));

describe('chat window gaps found by the audit', () => {
  it("opens a sender's full profile with the realm's custom profile fields", async () => {
    await sendAs('emma', 'people', 'Hello from Emma');
    await openTopic(page, 'general', 'people');
    const row = messageWithText(page, 'Hello from Emma');
    await row.getByRole('button', { name: 'Emma Member' }).click();
    await page.getByRole('dialog', { name: 'User card: Emma Member' }).waitFor();
    await page.getByRole('button', { name: 'View profile' }).click();
    const profile = page.getByRole('dialog', { name: 'Profile of Emma Member' });
    await profile.waitFor();
    const terms = await profile.locator('dt').allTextContents();
    expect(terms).toEqual(expect.arrayContaining(['About me', 'Team']));
    expect(terms.some((t) => /^Field \d/.test(t))).toBe(false);
    expect(await profile.locator('dt:text-is("Team") + dd').textContent()).toBe('Design');
    expect(await profile.locator('dt:text-is("About me") + dd strong').textContent()).toBe(
      'things',
    );
    await page.keyboard.press('Escape');
    await profile.waitFor({ state: 'detached' });
    expect(pageErrors).toEqual([]);
  });

  it('Esc closes an open message menu and gives its button the focus, staying in the topic', async () => {
    await openTopic(page, 'general', 'people');
    const row = messageWithText(page, 'Hello from Emma');
    await page.mouse.move(1, 1);
    await row.hover();
    const trigger = row.getByRole('button', { name: 'Message actions' });
    await trigger.click();
    const menu = page.getByRole('menu', { name: 'Message actions' });
    await menu.waitFor();
    await page.keyboard.press('Escape');
    await menu.waitFor({ state: 'detached' });
    expect(await heading().textContent()).toBe('#general > people');
    expect(await focusedLabel()).toBe('Message actions');
  });

  it('searches sender:me and plain words, titled as typed', async () => {
    await sendAs('owner', 'searching', 'the waves are high');
    await sendAs('emma', 'searching', 'more waves from Emma');
    const search = page.getByRole('combobox', { name: 'Search messages' });
    await search.fill('sender:me waves');
    await search.press('Enter');
    await page.getByRole('heading', { name: 'Search: sender:me waves' }).waitFor();
    await messageWithText(page, 'the waves are high').waitFor();
    expect(await messageWithText(page, 'more waves from Emma').count()).toBe(0);
    expect(await page.getByRole('alert').count()).toBe(0);

    await search.fill('waves');
    await search.press('Enter');
    await page.getByRole('heading', { name: 'Search: waves', exact: true }).waitFor();
    await messageWithText(page, 'more waves from Emma').waitFor();
  });

  it('picking heart twice adds the reaction, then removes it', async () => {
    await sendAs('emma', 'reactions', 'react with a heart');
    await openTopic(page, 'general', 'reactions');
    const row = messageWithText(page, 'react with a heart');
    const pickHeart = async () => {
      // From elsewhere: a row's actions mount when the pointer enters it.
      await page.mouse.move(1, 1);
      await row.hover();
      await row.getByRole('button', { name: 'Add reaction' }).click();
      // The picker is a popover, drawn outside the row.
      const picker = page.getByRole('dialog', { name: 'Emoji picker' });
      await picker.getByRole('searchbox', { name: 'Search emoji' }).fill('heart');
      await picker.getByRole('button', { name: 'heart', exact: true }).click();
    };
    await pickHeart();
    const chip = row.getByRole('button', { name: /^heart: 1/ });
    await chip.waitFor();
    // The heart's picture from the bundled sheet (code 2764, the API's form without FE0F).
    expect(await chip.locator('[aria-hidden]').getAttribute('class')).toContain('emoji-2764');
    await pickHeart();
    await chip.waitFor({ state: 'detached' });
    expect(await row.getByRole('alert').count()).toBe(0);
  });

  it('c in the inbox opens compose in the last topic visited', async () => {
    await openTopic(page, 'general', 'reactions');
    await page
      .getByRole('navigation', { name: 'Conversations' })
      .getByRole('button', { name: /^Inbox/ })
      .click();
    await page.getByRole('heading', { name: 'Inbox' }).waitFor();
    await page.keyboard.press('c');
    await page.getByRole('heading', { name: '#general > reactions' }).waitFor();
    await expect.poll(focusedLabel).toBe('Topic');
    expect(pageErrors).toEqual([]);
  });

  it('the inbox filters its conversations and marks a topic read on the server', async () => {
    const id = await sendAs('emma', 'inbox mark read', 'one for the inbox');
    await page
      .getByRole('navigation', { name: 'Conversations' })
      .getByRole('button', { name: /^Inbox/ })
      .click();
    const inbox = page.getByRole('region', { name: 'Inbox' });
    await inbox.getByRole('button', { name: 'inbox mark read', exact: true }).waitFor();
    await inbox.getByRole('searchbox', { name: 'Filter conversations' }).fill('mark read');
    await expect.poll(() => inbox.getByRole('listitem').count()).toBe(1);
    await inbox.getByRole('button', { name: 'Mark #general > inbox mark read as read' }).click();
    // The server's flag, then its event takes the row away.
    await expect
      .poll(async () => (await client('owner').get(`/messages/${id}`)).body.message.flags)
      .toContain('read');
    await inbox
      .getByRole('button', { name: 'inbox mark read', exact: true })
      .waitFor({ state: 'detached' });
    expect(pageErrors).toEqual([]);
  });
});
