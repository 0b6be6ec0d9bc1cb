// Two people chatting through the real app: each is a browser-mode host (main-process services +
// the built renderer) signed in to the real local realm server, driven in Chromium.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import {
  launchChromium,
  openApp,
  pageErrors,
  startApp,
  startRealm,
  ensureBuilt,
  type App,
  type Realm,
} from './support/app';
import {
  composeBox,
  messageWithText,
  openChannel,
  openTopic,
  send,
  sidebarCount,
} from './support/ui';
import type { PageWindow } from './support/ui';

declare const window: PageWindow;
import { startBrowserHost } from '../../electron/host/host';
import { FileVault } from '../../electron/accounts/vault';
import { ApiClient } from '../support/client';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** Olivia's one-to-one conversation in the sidebar (not the group ones she is in). */
const OLIVIA_DM = /^Olivia Owner($| \d)/;

let realm: Realm;
let olivia: App;
let emma: App;
let browser: Browser;
let oliviaPage: Page;
let emmaPage: Page;

beforeAll(async () => {
  realm = await startRealm();
  [olivia, emma] = await Promise.all([startApp(realm, 'owner'), startApp(realm, 'emma')]);
  browser = await launchChromium();
  oliviaPage = await openApp(browser, olivia);
  emmaPage = await openApp(browser, emma);
});

afterAll(async () => {
  await browser?.close();
  await olivia?.close();
  await emma?.close();
  await realm?.close();
});

/**
 * A fresh app with no account (its own browser-mode host and data folder), at its sign-in screen
 * with the realm's URL entered, for `signIn` to fill in the credentials.
 */
async function atSignIn(signIn: (page: Page) => Promise<void>): Promise<void> {
  await ensureBuilt();
  const dataDir = mkdtempSync(join(tmpdir(), 'tributary-e2e-signin-'));
  const host = await startBrowserHost({
    dataDir,
    vault: new FileVault(dataDir),
    rendererDir: join(process.cwd(), 'dist/renderer'),
    port: 0,
  });
  const context = await browser.newContext();
  try {
    const page = await context.newPage();
    await page.goto(host.url);
    await page.getByLabel('Server URL').fill(realm.url);
    await page.getByRole('button', { name: 'Continue' }).click();
    await signIn(page);
  } finally {
    await context.close();
    await host.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

/** The signed-in account's email, as main has it. */
function signedInEmail(page: Page): Promise<string | undefined> {
  return page.evaluate(async () => {
    const { accounts, activeAccountId } = await window.tributary.listAccounts({});
    return accounts.find((a) => a.id === activeAccountId)?.email;
  });
}

/** Whether each message of a topic is read for a user, oldest first, as the server has it. */
async function readFlags(userKey: string, channel: string, topic: string): Promise<boolean[]> {
  const user = realm.user(userKey);
  const client = new ApiClient(() => realm.url, { email: user.email, apiKey: user.api_key });
  const res = await client.get('/messages', {
    anchor: 'newest',
    num_before: 50,
    num_after: 0,
    narrow: [
      { operator: 'channel', operand: channel },
      { operator: 'topic', operand: topic },
    ],
  });
  return (res.body.messages as Array<{ flags: string[] }>).map((m) => m.flags.includes('read'));
}

describe('chat window end to end', () => {
  it('signs in a new account from the sign-in screen with an API key', async () => {
    await atSignIn(async (page) => {
      await page.getByRole('radio', { name: 'API key' }).click();
      const farid = realm.user('farid');
      await page.getByLabel('Email').fill(farid.email);
      await page.getByLabel('API key').fill(farid.api_key);
      await page.getByRole('button', { name: 'Sign in' }).click();
      await page.getByRole('navigation', { name: 'Conversations' }).waitFor();
      await page.getByTestId('message').first().waitFor();
      expect(await signedInEmail(page)).toBe(farid.email);
    });
  });

  it('signs in with email and password, refusing a wrong password', async () => {
    await atSignIn(async (page) => {
      const dev = realm.user('dev');
      expect(await page.getByRole('radio', { name: 'Password' }).getAttribute('aria-checked')).toBe(
        'true',
      );
      await page.getByLabel('Email').fill(dev.email);
      await page.getByLabel('Password').fill('not-the-password');
      await page.getByRole('button', { name: 'Sign in' }).click();
      await page.getByRole('alert').waitFor();
      await page.getByLabel('Password').fill(dev.password!);
      await page.getByRole('button', { name: 'Sign in' }).click();
      await page.getByRole('navigation', { name: 'Conversations' }).waitFor();
      await page.getByTestId('message').first().waitFor();
      expect(await signedInEmail(page)).toBe(dev.email);
    });
  });

  it('reads history, sends and receives between two users', async () => {
    await openChannel(oliviaPage, 'general');
    await oliviaPage.getByTestId('message').first().waitFor();

    await openTopic(oliviaPage, 'general', 'e2e hello');
    await openTopic(emmaPage, 'general', 'e2e hello');
    await send(oliviaPage, 'Hello Emma, from the end-to-end test');
    // Seen by the sender (local echo, then the server's message) and by the receiver (an event).
    await messageWithText(oliviaPage, 'Hello Emma, from the end-to-end test').waitFor();
    await messageWithText(emmaPage, 'Hello Emma, from the end-to-end test').waitFor();
    await send(emmaPage, 'Hi Olivia, got it');
    await messageWithText(oliviaPage, 'Hi Olivia, got it').waitFor();
    expect(await oliviaPage.getByTestId('outbox-message').count()).toBe(0);
  });

  it('moves unread counts as messages arrive and are read', async () => {
    // Emma looks at another channel; Olivia writes to her directly.
    await openChannel(emmaPage, 'random');
    const before = await sidebarCount(emmaPage, OLIVIA_DM);
    await composeBox(oliviaPage);
    await oliviaPage.getByRole('radio', { name: 'Direct message' }).click();
    await oliviaPage.getByRole('combobox', { name: 'Recipients' }).fill('Emma');
    await oliviaPage.getByRole('option', { name: 'Emma Member' }).click();
    await send(oliviaPage, 'A direct question for you');
    await expect
      .poll(() => sidebarCount(emmaPage, OLIVIA_DM), { timeout: 15_000 })
      .toBe(before + 1);
    // Opening the conversation shows the message, which marks it read: the count goes away.
    await emmaPage
      .getByRole('navigation', { name: 'Conversations' })
      .getByRole('button', { name: OLIVIA_DM })
      .click();
    await messageWithText(emmaPage, 'A direct question for you').waitFor();
    await expect.poll(() => sidebarCount(emmaPage, OLIVIA_DM), { timeout: 15_000 }).toBe(0);
  });

  it('keeps messages marked unread from here unread, with their sidebar count', async () => {
    await openTopic(emmaPage, 'general', 'e2e unread');
    for (const text of ['Unread one', 'Unread two', 'Unread three']) {
      await send(emmaPage, text);
      await messageWithText(emmaPage, text).waitFor();
    }
    // Olivia reads them: on screen, so marked read.
    await openTopic(oliviaPage, 'general', 'e2e unread');
    await messageWithText(oliviaPage, 'Unread three').waitFor();
    const flags = () => readFlags('owner', 'general', 'e2e unread');
    await expect.poll(flags, { timeout: 15_000 }).toEqual([true, true, true]);

    const two = messageWithText(oliviaPage, 'Unread two');
    await two.hover();
    await two.getByRole('button', { name: 'Message actions' }).click();
    await oliviaPage.getByRole('menuitem', { name: 'Mark as unread from here' }).click();
    await expect.poll(flags, { timeout: 15_000 }).toEqual([true, false, false]);
    // They stay on screen while she does nothing: still unread after a while, and counted in
    // the sidebar beside the topic.
    await oliviaPage.waitForTimeout(2_000);
    expect(await flags()).toEqual([true, false, false]);
    const topicCount = () => sidebarCount(oliviaPage, /^e2e unread\b/);
    await expect.poll(topicCount, { timeout: 15_000 }).toBe(2);

    // Scrolling the list is reading again.
    await oliviaPage.getByRole('list', { name: 'Messages' }).hover();
    await oliviaPage.mouse.wheel(0, -200);
    await expect.poll(flags, { timeout: 15_000 }).toEqual([true, true, true]);
    await expect.poll(topicCount, { timeout: 15_000 }).toBe(0);
  });

  it('shows edits, moves and resolved topics to both users', async () => {
    await openTopic(oliviaPage, 'design', 'e2e edits');
    await send(oliviaPage, 'First version of the text');
    const mine = messageWithText(oliviaPage, 'First version of the text');
    await mine.waitFor();
    await openTopic(emmaPage, 'design', 'e2e edits');
    await messageWithText(emmaPage, 'First version of the text').waitFor();

    // Edit.
    await mine.hover();
    await mine.getByRole('button', { name: 'Message actions' }).click();
    await oliviaPage.getByRole('menuitem', { name: 'Edit message' }).click();
    await oliviaPage.getByRole('textbox', { name: 'Edit message content' }).fill('Second version');
    await oliviaPage.getByRole('button', { name: 'Save' }).click();
    const edited = messageWithText(emmaPage, 'Second version');
    await edited.waitFor();
    // Emma opens its edit history (fetched through main): the first version is there.
    await edited.getByRole('button', { name: '(edited)' }).click();
    const history = edited.getByRole('region', { name: 'Edit history' });
    await history.getByText('First version of the text').waitFor();
    await history.getByText(/^Edited .* by Olivia Owner$/).waitFor();

    // Resolve: the topic gets the check mark for both.
    const again = messageWithText(oliviaPage, 'Second version');
    await again.hover();
    await again.getByRole('button', { name: 'Message actions' }).click();
    await oliviaPage.getByRole('menuitem', { name: 'Mark as resolved' }).click();
    await emmaPage.getByRole('button', { name: '✔ e2e edits' }).first().waitFor();

    // Move (rename the topic, all messages). The message now lives in the resolved topic. Emma
    // keeps that topic open: the move reaches her as an event, and her view follows the topic to
    // its new name, as the web app's does.
    await openTopic(oliviaPage, 'design', '✔ e2e edits');
    await openTopic(emmaPage, 'design', '✔ e2e edits');
    await messageWithText(emmaPage, 'Second version').waitFor();
    const third = messageWithText(oliviaPage, 'Second version');
    await third.hover();
    await third.getByRole('button', { name: 'Message actions' }).click();
    await oliviaPage.getByRole('menuitem', { name: 'Move or rename topic' }).click();
    await oliviaPage.getByLabel('New topic', { exact: true }).fill('e2e moved');
    await oliviaPage.getByRole('button', { name: 'Move', exact: true }).click();
    await emmaPage.getByRole('heading', { name: '#design > e2e moved', exact: true }).waitFor();
    await messageWithText(emmaPage, 'Second version').waitFor();
    const emmaTopics = emmaPage.getByRole('list', { name: 'Topics in #design' });
    await emmaTopics.getByRole('button', { name: /^e2e moved\b/ }).waitFor();
    await expect
      .poll(() => emmaTopics.getByRole('button', { name: /^✔ e2e edits\b/ }).count())
      .toBe(0);

    // Move between channels, every message of the topic (change_all). Olivia does it from All
    // messages; Emma watches #random, where they arrive.
    await openTopic(oliviaPage, 'design', 'e2e moved');
    await send(oliviaPage, 'Another line of the topic');
    await messageWithText(oliviaPage, 'Another line of the topic').waitFor();
    await openChannel(emmaPage, 'random');
    await emmaPage.getByTestId('message').first().waitFor();
    await oliviaPage
      .getByRole('navigation', { name: 'Conversations' })
      .getByRole('button', { name: /^All messages/ })
      .click();
    // All messages opens at her first unread, far above: End goes to the newest.
    const all = oliviaPage.getByRole('list', { name: 'Messages' });
    const newest = messageWithText(oliviaPage, 'Another line of the topic');
    await expect
      .poll(
        async () => {
          await all.press('End');
          return newest.count();
        },
        { timeout: 15_000 },
      )
      .toBe(1);
    await newest.hover();
    await newest.getByRole('button', { name: 'Message actions' }).click();
    // The last row's menu and form open over the compose box: by keyboard.
    await oliviaPage.getByRole('menuitem', { name: 'Move or rename topic' }).press('Enter');
    const form = oliviaPage.getByRole('form', { name: 'Move messages' });
    await form.getByLabel('Channel').selectOption({ label: '#random' });
    await form.getByLabel('New topic', { exact: true }).fill('e2e moved far');
    await form.getByLabel('Which messages').selectOption('change_all');
    await form.getByRole('button', { name: 'Move', exact: true }).press('Enter');
    // Olivia: both messages are now under #random › e2e moved far where they are (the header of
    // the first of them).
    const first = messageWithText(oliviaPage, 'Second version');
    await first.getByRole('button', { name: '#random', exact: true }).waitFor();
    await first.getByRole('button', { name: 'e2e moved far', exact: true }).waitFor();
    // Emma: both arrive in the open #random, and the topic appears in its sidebar list.
    await messageWithText(emmaPage, 'Second version').waitFor();
    await messageWithText(emmaPage, 'Another line of the topic').waitFor();
    await emmaPage
      .getByRole('list', { name: 'Topics in #random' })
      .getByRole('button', { name: /^e2e moved far\b/ })
      .waitFor();
    await emmaPage.getByRole('heading', { name: '#random', exact: true }).waitFor();
    // Nothing of the topic is left in #design.
    expect(await readFlags('emma', 'design', 'e2e moved')).toEqual([]);
  });

  it('never runs hostile message HTML', async () => {
    await openTopic(oliviaPage, 'random', 'e2e hostile');
    // Through the real server path: what a person types is Markdown; raw HTML and a javascript:
    // link in it must come back as inert text.
    const typed =
      'typed hostile <script>window.__pwned = 6</script> <img src=x onerror="window.__pwned = 7"> ' +
      '[typed link](javascript:window.__pwned=8)';
    await send(oliviaPage, typed);
    await messageWithText(oliviaPage, 'typed hostile').waitFor();
    await send(oliviaPage, 'placeholder for hostile html');
    await messageWithText(oliviaPage, 'placeholder for hostile html').waitFor();
    // A hostile server: its rendered HTML carries a script, event handlers and a javascript: link.
    const hostile =
      '<p>hostile <script>window.__pwned = 1</script>' +
      '<img src="x" onerror="window.__pwned = 2">' +
      '<a href="javascript:window.__pwned = 3">click me</a>' +
      '<svg onload="window.__pwned = 4"></svg>' +
      '<iframe srcdoc="<script>parent.__pwned = 5</script>"></iframe></p>';
    realm.server.db
      .prepare('UPDATE messages SET rendered_content = ? WHERE content = ?')
      .run(hostile, 'placeholder for hostile html');
    // Emma's app starts afresh (a new queue, no replayed events) and fetches the topic, so she
    // gets the hostile HTML.
    await emmaPage.context().close();
    await emma.restart();
    emmaPage = await openApp(browser, emma);
    await openTopic(emmaPage, 'random', 'e2e hostile');
    const typedRow = messageWithText(emmaPage, 'typed hostile');
    await typedRow.waitFor();
    // Shown as the text that was typed, not as markup.
    expect(await typedRow.locator('.content').innerText()).toContain('<script>');
    await typedRow.getByText('typed link').click();
    const typedHtml = await typedRow.locator('.content').innerHTML();
    expect(typedHtml).not.toMatch(/<script|<img|href="javascript:/i);
    const row = messageWithText(emmaPage, 'click me');
    await row.waitFor();
    await row.getByText('click me').click();
    await emmaPage.waitForTimeout(300);
    expect(await emmaPage.evaluate(() => window.__pwned)).toBeUndefined();
    const html = await row.innerHTML();
    expect(html).not.toMatch(/<script|onerror|onload|javascript:|<iframe/i);
    expect(pageErrors).toEqual([]);
  });
});
