// Reading offline, end to end (issue #23): conversations that arrived while the app was closed and
// were never opened (so no message event brought them) are fetched by background sync; with the server stopped and the app restarted, each
// opens from the cache with its whole history, and a word in one of them is found by search.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import {
  launchChromium,
  openApp,
  realmClient,
  startApp,
  startRealm,
  type App,
  type Realm,
} from './support/app';
import { messageWithText, openTopic } from './support/ui';

let realm: Realm;
let app: App;
let browser: Browser;

beforeAll(async () => {
  realm = await startRealm();
  app = await startApp(realm, 'owner');
  browser = await launchChromium();
});

afterAll(async () => {
  await browser?.close();
  await app?.close();
  await realm?.close();
});

describe('reading offline', () => {
  it('opens conversations never opened, after a sync, with the server gone; search finds them', async () => {
    // Posted while the app is closed: only sync can bring these messages.
    await app.stopHost();
    const emma = realmClient(realm, 'emma');
    const topics = ['offline alpha', 'offline beta', 'offline gamma'];
    for (const topic of topics) {
      for (let i = 1; i <= 4; i += 1) {
        const content = `${topic} line ${i}${topic === 'offline beta' && i === 2 ? ' mentions a tamarillo' : ''}`;
        const sent = await emma.post('/messages', {
          type: 'stream',
          to: 'general',
          topic,
          content,
        });
        expect(sent.status).toBe(200);
      }
    }
    await app.startHost();
    // The person chose "Sync now" (Settings › Offline); the pass takes the newest conversations first.
    const handlers = app.host.services.handlers;
    const accountId = app.accountId;
    await expect
      .poll(() => app.host.services.session(accountId).isOnline(), { timeout: 20_000 })
      .toBe(true);
    await handlers.syncOfflineNow({ accountId });
    await expect
      .poll(async () => (await handlers.offlineStatus({ accountId })).conversationsSynced, {
        timeout: 60_000,
      })
      .toBeGreaterThanOrEqual(topics.length);

    // The app is closed, the server goes down, the app starts again.
    await app.host.services.stop();
    await realm.stop();
    await app.restart();
    const page = await openApp(browser, app);
    for (const topic of topics) {
      await openTopic(page, 'general', topic);
      await page.getByRole('heading', { name: `#general > ${topic}` }).waitFor();
      for (let i = 1; i <= 4; i += 1) await messageWithText(page, `${topic} line ${i}`).waitFor();
    }
    const search = page.getByRole('combobox', { name: 'Search messages' });
    await search.fill('tamarillo');
    await search.press('Enter');
    await messageWithText(page, 'offline beta line 2').waitFor();
    expect(await messageWithText(page, 'offline alpha line 1').count()).toBe(0);
    await page.context().close();
    await realm.restart();
  });
});
