// Reading offline, end to end (issue #23): conversations that arrived while the app was closed and
// were never opened (so no message event brought them) are fetched by background sync; with the
// server stopped and the app restarted, each opens from the cache with its whole history, and a word
// in one of them is found by search. A conversation the app only heard of live says older messages
// may be missing, and one it never kept says so instead of looking empty.
import { describe, expect, it } from 'vitest';
import { appSession, realmClient } from './support/app';
import { messageWithText, openTopic } from './support/ui';

// Pages open once the server is gone.
const session = appSession('owner', { openPage: false });

describe('reading offline', () => {
  it('opens conversations never opened, after a sync, with the server gone; search finds them; says what is not kept', async () => {
    const { app, realm } = session;
    // Posted while the app is closed: only sync can bring these messages.
    await app.stopHost();
    const emma = realmClient(realm, 'emma');
    /** Emma's message in #general; its id. */
    const post = async (topic: string, content: string) => {
      const sent = await emma.post('/messages', { type: 'stream', to: 'general', topic, content });
      expect(sent.status).toBe(200);
      return sent.body.id as number;
    };
    const topics = ['offline alpha', 'offline beta', 'offline gamma'];
    for (const topic of topics) {
      for (let i = 1; i <= 4; i += 1) {
        const content = `${topic} line ${i}${topic === 'offline beta' && i === 2 ? ' mentions a tamarillo' : ''}`;
        await post(topic, content);
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
    // Arrives while the app runs, after the pass chose its conversations (sync has counted some):
    // kept as it came, the conversation's history never fetched.
    const partial = await post('offline partial', 'offline partial arrived live');
    const heard = () =>
      app.host.services
        .session(accountId)
        .getSnapshot()
        .events.some(
          (e) => e.type === 'message' && (e as { message: { id: number } }).message.id === partial,
        );
    await expect.poll(heard, { timeout: 20_000 }).toBe(true);

    // The app is closed, a conversation starts that it never hears of, the server goes down, the
    // app starts again.
    const page = await session.relaunchApp(async () => {
      await post('offline never', 'offline never kept here');
      await realm.stop();
    });
    const coverageNote = page.getByTestId('offline-coverage');
    for (const topic of topics) {
      await openTopic(page, 'general', topic);
      await page.getByRole('heading', { name: `#general > ${topic}` }).waitFor();
      for (let i = 1; i <= 4; i += 1) await messageWithText(page, `${topic} line ${i}`).waitFor();
      // Synced: nothing is said to be missing.
      expect(await coverageNote.count()).toBe(0);
    }

    // Kept in part: what arrived shows, under a note that older messages may be missing.
    await openTopic(page, 'general', 'offline partial');
    await messageWithText(page, 'offline partial arrived live').waitFor();
    await coverageNote.filter({ hasText: 'Older messages may be missing offline.' }).waitFor();
    // Never kept: said so in place of the empty list, which would pass for "no messages".
    await openTopic(page, 'general', 'offline never');
    await page
      .getByText(
        'This conversation is not kept on this computer; it will load when the server is back.',
      )
      .waitFor();
    expect(await coverageNote.count()).toBe(0);

    const search = page.getByRole('combobox', { name: 'Search messages' });
    await search.fill('tamarillo');
    await search.press('Enter');
    await messageWithText(page, 'offline beta line 2').waitFor();
    expect(await messageWithText(page, 'offline alpha line 1').count()).toBe(0);
    await session.closePage();
    await realm.restart();
  });
});
