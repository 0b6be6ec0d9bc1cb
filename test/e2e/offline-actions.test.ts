// Acting offline, end to end: with the server stopped, the person stars a message, reacts, marks a
// conversation unread from a message, edits their own message and mutes the topic. Each shows at
// once. The app is restarted while the server is still down (the queue comes back from disk), the
// server returns, and the app is restarted again as soon as the replay has begun; every action then
// reaches the server exactly once (checked over REST) and the app shows the server's state.
import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { appSession, realmClient } from './support/app';
import { messageMenu, messageWithText, openTopic, react, sidebarCount } from './support/ui';

// Pages open once the messages are posted.
const session = appSession('owner', { openPage: false });

const TOPIC = 'acted offline';
/** Marked unread in a topic of its own, which is not opened again (that would read it). */
const UNREAD_TOPIC = 'read again later';
const banner = (page: Page) => page.getByTestId('connection-banner');
const topicMenu = (page: Page) =>
  page
    .locator('.message-list-wrap')
    .getByRole('button', { name: `Topic ${TOPIC} options` })
    .filter({ visible: true })
    .first();

describe('acting offline', () => {
  it('shows each action at once and delivers each exactly once when the server returns', async () => {
    const { app, realm } = session;
    const owner = realmClient(realm, 'owner');
    const emma = realmClient(realm, 'emma');
    const post = async (client: typeof owner, content: string, topic = TOPIC) =>
      (await client.post('/messages', { type: 'stream', to: 'general', topic, content })).body
        .id as number;
    const starId = await post(emma, 'a message worth a star');
    const reactId = await post(emma, 'a message worth a reaction');
    const editId = await post(owner, 'my first draft of this');
    const unreadId = await post(emma, 'read this again later', UNREAD_TOPIC);
    const flagsOf = async (id: number) =>
      ((await owner.get(`/messages/${id}`, {})).body.message as { flags: string[] }).flags;

    let page = await session.openPage();
    await openTopic(page, 'general', UNREAD_TOPIC);
    await messageWithText(page, 'read this again later').waitFor();
    // Seen on screen, so read on the server before the outage.
    await expect.poll(() => flagsOf(unreadId), { timeout: 15_000 }).toContain('read');
    await openTopic(page, 'general', TOPIC);
    await messageWithText(page, 'my first draft of this').waitFor();

    await realm.stop();
    await expect.poll(() => banner(page).count(), { timeout: 20_000 }).toBe(1);

    await messageMenu(page, 'a message worth a star', /^Star/);
    await messageWithText(page, 'a message worth a star')
      .getByRole('img', { name: 'Starred' })
      .waitFor();

    await react(page, 'a message worth a reaction', 'octopus');

    await messageMenu(page, 'my first draft of this', 'Edit message');
    await page.getByRole('textbox', { name: 'Edit message content' }).fill('edited on the train');
    await page.getByRole('button', { name: 'Save' }).click();
    await messageWithText(page, 'edited on the train').waitFor();

    await topicMenu(page).click();
    await page.getByRole('menuitem', { name: 'Mute topic' }).click();
    await topicMenu(page).click();
    await page.getByRole('menuitem', { name: 'Unmute topic' }).waitFor();
    await page.keyboard.press('Escape');

    await openTopic(page, 'general', UNREAD_TOPIC);
    await messageMenu(page, 'read this again later', 'Mark as unread from here');
    await expect
      .poll(() => sidebarCount(page, new RegExp(`^${UNREAD_TOPIC}\\b`)))
      .toBeGreaterThan(0);
    // Left for the other topic, which the next launch opens first.
    await openTopic(page, 'general', TOPIC);

    // The app closes and starts again with the server still down: it still shows the actions
    // (in the topic kept on this computer; the one marked unread stays closed, unread).
    page = await session.relaunchApp();
    await openTopic(page, 'general', TOPIC);
    await messageWithText(page, 'edited on the train').waitFor();
    await messageWithText(page, 'a message worth a star')
      .getByRole('img', { name: 'Starred' })
      .waitFor();
    await session.closePage();

    // The server returns; the app is restarted once the replay has reached it.
    await realm.restart();
    app.host.services.wakeAll();
    await expect.poll(() => flagsOf(starId), { timeout: 30_000 }).toContain('starred');
    await app.restart();
    app.host.services.wakeAll();
    const account = () => app.host.services.session(app.accountId);
    await expect
      .poll(() => account().isOnline() && account().actions.list().length === 0, {
        timeout: 30_000,
      })
      .toBe(true);

    // Exactly once each.
    const reacted = (await owner.get(`/messages/${reactId}`, {})).body.message as {
      reactions: Array<{ emoji_name: string; user_id: number }>;
    };
    expect(reacted.reactions.filter((r) => r.emoji_name === 'octopus')).toHaveLength(1);
    expect(await flagsOf(unreadId)).not.toContain('read');
    const edited = await owner.get(`/messages/${editId}`, { apply_markdown: false });
    expect(edited.body.raw_content).toBe('edited on the train');
    const history = await owner.get(`/messages/${editId}/history`, {});
    expect(history.body.message_history as unknown[]).toHaveLength(2);
    const registered = await owner.post('/register', { fetch_event_types: ['user_topic'] });
    const policies = registered.body.user_topics as Array<{
      topic_name: string;
      visibility_policy: number;
    }>;
    expect(policies.find((t) => t.topic_name === TOPIC)?.visibility_policy).toBe(1);
    expect(account().actions.notices()).toEqual([]);

    // The app shows the server's state: rendered, starred, reacted.
    page = await session.openPage();
    await openTopic(page, 'general', TOPIC);
    await messageWithText(page, 'edited on the train').waitFor();
    await messageWithText(page, 'a message worth a star')
      .getByRole('img', { name: 'Starred' })
      .waitFor();
    await messageWithText(page, 'a message worth a reaction')
      .getByRole('button', { name: /^octopus: 1/ })
      .waitFor();
    await session.closePage();
    // Long: two app restarts, a server restart and a replay (three minutes allowed on a busy machine).
  }, 180_000);
});
