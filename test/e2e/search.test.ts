// The search bar in real Chromium against the real local server (issue #20, parts 1 and 2): the
// typeahead driven by the keyboard (operator, then channel, topic and person by name), names in
// the bar where the narrow holds ids (a DM opened from the sidebar), keyword results with the
// matched words marked in the content and the topic, and an unknown operator refused by the
// server with its own words while the view stays as it was.
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
import { messageWithText } from './support/ui';

let realm: Realm;
let app: App;
let browser: Browser;
let page: Page;

beforeAll(async () => {
  realm = await startRealm();
  const emma = realmClient(realm, 'emma');
  const general = (await emma.get('/users/me/subscriptions')).body.subscriptions.find(
    (s: { name: string }) => s.name === 'general',
  ).stream_id as number;
  const owner = realm.user('owner');
  for (const [topic, content] of [
    ['harbour lighthouse', 'the lighthouse keeper waves from the rocks'],
    ['harbour lighthouse', 'boats pass at night'],
    ['market day', 'apples and pears'],
  ])
    expect(
      (await emma.post('/messages', { type: 'stream', to: general, topic, content })).status,
    ).toBe(200);
  const dm = await emma.post('/messages', {
    type: 'private',
    to: JSON.stringify([owner.email]),
    content: 'a direct word about the lighthouse',
  });
  expect(dm.status).toBe(200);
  app = await startApp(realm, 'owner');
  browser = await launchChromium();
  page = await openApp(browser, app);
}, 180_000);

afterAll(async () => {
  await browser?.close();
  await app?.close();
  await realm?.close();
});

const bar = () => page.getByRole('combobox', { name: 'Search messages' });
const heading = () => page.getByRole('main').getByRole('heading', { level: 1 });
const list = () => page.getByRole('listbox', { name: 'Search suggestions' });
const options = () => list().getByRole('option');
const activeOption = () => list().getByRole('option', { selected: true });

/** Empties the bar and types `text` a key at a time, as a person does. */
async function typeInBar(text: string) {
  await bar().click();
  await bar().press('ControlOrMeta+a');
  await bar().press('Backspace');
  await bar().pressSequentially(text);
}

describe('search bar', () => {
  it('completes an operator, a channel and one of its topics from the keyboard', async () => {
    await typeInBar('chan');
    // The typed words first, as the web app's "search for" row; then the operator they start.
    await expect.poll(() => options().first().textContent()).toMatch(/^chan Search for/);
    await expect.poll(() => options().nth(1).textContent()).toMatch(/^channel:/);
    await bar().press('ArrowDown');
    await bar().press('ArrowDown');
    expect(await activeOption().getAttribute('id')).toBe(
      await bar().getAttribute('aria-activedescendant'),
    );
    await bar().press('Enter');
    expect(await bar().inputValue()).toBe('channel:');

    await bar().pressSequentially('gen');
    await options().filter({ hasText: 'channel:general' }).first().waitFor();
    await bar().press('ArrowDown');
    await bar().press('Tab');
    expect(await bar().inputValue()).toBe('channel:general ');

    // The chosen channel's topics come from the server.
    await bar().pressSequentially('topic:harb');
    await options().filter({ hasText: 'topic:"harbour lighthouse"' }).waitFor();
    await bar().press('ArrowDown');
    await bar().press('Enter');
    await heading().filter({ hasText: '#general > harbour lighthouse' }).waitFor();
    await messageWithText(page, 'boats pass at night').waitFor();
    expect(await bar().inputValue()).toBe('channel:general topic:"harbour lighthouse"');
  });

  it('finds people by name and shows them by name, never by id', async () => {
    await typeInBar('sender:emma');
    const emma = options().filter({ hasText: 'sender:"Emma Member"' });
    await emma.waitFor();
    await bar().press('ArrowDown');
    expect(await activeOption().textContent()).toContain('Emma Member');
    await bar().press('Enter');
    await heading().filter({ hasText: 'Search: sender:"Emma Member"' }).waitFor();
    await messageWithText(page, 'apples and pears').waitFor();

    // Esc closes the list first, then leaves the bar.
    await typeInBar('has:');
    await options().first().waitFor();
    await bar().press('Escape');
    expect(await page.getByRole('listbox', { name: 'Search suggestions' }).count()).toBe(0);
    expect(await bar().inputValue()).toBe('has:');
    await bar().press('Escape');

    await page
      .getByRole('navigation', { name: 'Conversations' })
      .getByRole('region', { name: 'Direct messages' })
      .getByRole('button')
      .filter({ has: page.getByText('Emma Member', { exact: true }) })
      .click();
    await messageWithText(page, 'a direct word about the lighthouse').waitFor();
    expect(await bar().inputValue()).toBe('dm:"Emma Member"');
  });

  it('marks the words a keyword search matched in the content and the topic', async () => {
    await typeInBar('lighthouse');
    await bar().press('Enter');
    await heading().filter({ hasText: 'Search: lighthouse' }).waitFor();
    const row = messageWithText(page, 'the lighthouse keeper waves');
    await row.waitFor();
    expect(await row.locator('.content .highlight').allTextContents()).toEqual(['lighthouse']);
    const topicMarks = page.locator('.message-row .recipient-header .highlight');
    expect(await topicMarks.first().textContent()).toBe('lighthouse');
    const dm = messageWithText(page, 'a direct word about the lighthouse');
    expect(await dm.locator('.content .highlight').allTextContents()).toEqual(['lighthouse']);
    const markAll = page.getByRole('main').getByRole('button', { name: 'Mark all as read' });
    // Search results offer no "Mark all as read" (the web app's neither); a conversation does.
    expect(await markAll.count()).toBe(0);
    // The same message in its conversation is not marked.
    await typeInBar('channel:general topic:"harbour lighthouse"');
    await bar().press('Enter');
    await heading().filter({ hasText: '#general > harbour lighthouse' }).waitFor();
    await messageWithText(page, 'the lighthouse keeper waves').waitFor();
    expect(await page.locator('.message-row .highlight').count()).toBe(0);
    expect(await markAll.count()).toBe(1);
  });

  it("refuses an unknown operator with the server's words and keeps the view", async () => {
    await typeInBar('lighthouse');
    await bar().press('Enter');
    await heading().filter({ hasText: 'Search: lighthouse' }).waitFor();
    await typeInBar('foo:bar lighthouse');
    await bar().press('Enter');
    const alert = page.getByRole('search').getByRole('alert');
    expect(await alert.textContent()).toBe('Invalid narrow operator: unknown operator foo');
    expect(await heading().textContent()).toBe('Search: lighthouse');
    await messageWithText(page, 'the lighthouse keeper waves').waitFor();
    expect(await bar().inputValue()).toBe('foo:bar lighthouse');
    expect(pageErrors).toEqual([]);
  });
});
