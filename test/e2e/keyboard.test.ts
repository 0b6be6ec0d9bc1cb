// The public web app's keyboard shortcuts in real Chromium, pressed as a person presses them with
// the focus on the page (not in a field): n and p go to the next unread topic and direct message,
// q and w to the channel filter and the people search, j/k select a message, Ctrl+S stars it, +
// reacts with 👍 and Shift+M mutes its topic (each checked on the server over REST), s goes from
// the topic to its channel and, with a message selected there, back to its topic; r replies and *
// opens the starred messages.
import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { appSession, realmClient } from './support/app';
import { messageWithText, openTopic } from './support/ui';
import type { ApiClient } from '../support/client';

// The page's globals as code passed to page.evaluate sees them (e2e files compile without DOM types).
interface PageElement {
  getAttribute(name: string): string | null;
}
declare const document: { activeElement: PageElement | null };

const session = appSession('owner');

/** The accessible label of what has the keyboard focus. */
const focusedLabel = (page: Page) =>
  page.evaluate(() => document.activeElement?.getAttribute('aria-label') ?? null);

/** Takes the focus off any field (a click on the view's heading), as a person would. */
async function leaveFields(page: Page, heading: string): Promise<void> {
  await page.getByRole('heading', { name: heading, exact: true }).click();
  expect(await focusedLabel(page)).toBeNull();
}

async function channelId(client: ApiClient, name: string): Promise<number> {
  const subs = (await client.get('/users/me/subscriptions')).body.subscriptions as {
    name: string;
    stream_id: number;
  }[];
  return subs.find((s) => s.name === name)!.stream_id;
}

async function sendTo(client: ApiClient, topic: string, content: string): Promise<number> {
  const to = await channelId(client, 'general');
  const res = await client.post('/messages', { type: 'stream', to, topic, content });
  expect(res.status).toBe(200);
  return res.body.id as number;
}

describe('keyboard shortcuts as the public web app defines them', () => {
  it('n, p, q and w: the next unread topic and direct message, the channel and people filters', async () => {
    const { page, realm } = session;
    const owner = realmClient(realm, 'owner');
    const emma = realmClient(realm, 'emma');
    const farid = realmClient(realm, 'farid');
    // Only what this test sends is unread.
    expect((await owner.post('/mark_all_as_read', {})).status).toBe(200);
    await sendTo(emma, 'kb unread', 'an unread message for n');
    const dm = await farid.post('/messages', {
      type: 'direct',
      to: JSON.stringify([realm.user('owner').user_id]),
      content: 'an unread direct message for p',
    });
    expect(dm.status).toBe(200);
    // The inbox (the home view) lists both once they arrive.
    await page.getByText('kb unread').first().waitFor();
    await leaveFields(page, 'Inbox');

    await page.keyboard.press('n');
    await page.getByRole('heading', { name: '#general > kb unread' }).waitFor();
    await page.keyboard.press('p');
    await page.getByRole('heading', { name: realm.user('farid').full_name, exact: true }).waitFor();

    await page.keyboard.press('q');
    await expect.poll(() => focusedLabel(page)).toBe('Filter sidebar channels');
    // A letter typed there is a letter, not a shortcut.
    await page.keyboard.type('p');
    expect(
      await page.getByRole('searchbox', { name: 'Filter sidebar channels' }).inputValue(),
    ).toBe('p');
    await page.getByRole('searchbox', { name: 'Filter sidebar channels' }).fill('');
    await leaveFields(page, realm.user('farid').full_name);
    await page.keyboard.press('w');
    await expect.poll(() => focusedLabel(page)).toBe('Search people');
  });

  it('j/k select, Ctrl+S stars, + reacts with 👍, Shift+M mutes, s goes to the channel and back, r replies, * shows the starred', async () => {
    const { page, realm } = session;
    const owner = realmClient(realm, 'owner');
    const first = await sendTo(owner, 'kb keys', 'the first message for keys');
    const second = await sendTo(owner, 'kb keys', 'the second message for keys');
    await openTopic(page, 'general', 'kb keys');
    await messageWithText(page, 'the second message for keys').waitFor();
    await page.mouse.move(1, 1);
    await leaveFields(page, '#general > kb keys');

    const selectedId = () =>
      page.locator('[aria-selected="true"][data-message-id]').getAttribute('data-message-id');
    await page.keyboard.press('j');
    await expect.poll(selectedId).toBe(String(second));
    await page.keyboard.press('k');
    await expect.poll(selectedId).toBe(String(first));
    await page.keyboard.press('j');
    await expect.poll(selectedId).toBe(String(second));

    const message = async () => (await owner.get(`/messages/${second}`)).body.message;
    await page.keyboard.press('Control+s');
    await expect.poll(async () => (await message()).flags).toContain('starred');
    await page
      .locator(`[data-message-id="${second}"]`)
      .getByRole('img', { name: 'Starred' })
      .waitFor();

    await page.keyboard.press('+');
    await expect
      .poll(async () =>
        (await message()).reactions.map((r: { emoji_code: string; user_id: number }) => [
          r.emoji_code,
          r.user_id,
        ]),
      )
      .toEqual([['1f44d', realm.user('owner').user_id]]);

    const general = await channelId(owner, 'general');
    const policy = async () => {
      const reg = await owner.post('/register', {
        fetch_event_types: JSON.stringify(['user_topic']),
      });
      const topics = reg.body.user_topics as {
        stream_id: number;
        topic_name: string;
        visibility_policy: number;
      }[];
      return (
        topics.find((t) => t.stream_id === general && t.topic_name === 'kb keys')
          ?.visibility_policy ?? 0
      ); // none: the topic is not listed
    };
    // The key toggles what the app knows: wait for the server's event to reach the sidebar before
    // pressing it again.
    const topicRow = page.locator('li.topic', { hasText: 'kb keys' });
    // Followed or not (the owner's automatic follow of topics they start), as it was before.
    const before = await policy();
    await page.keyboard.press('Shift+M');
    await expect.poll(policy).toBe(1);
    await expect.poll(() => topicRow.getAttribute('class')).toContain('muted');
    // The feedback widget says so, with an undo (as the web app's), which unmutes it.
    const toast = page.locator('.feedback-toast', { hasText: 'Topic muted' });
    await toast.getByRole('button', { name: 'Undo mute' }).click();
    await expect.poll(policy).toBe(before);
    await expect.poll(() => topicRow.getAttribute('class')).not.toContain('muted');
    await toast.waitFor({ state: 'detached' });
    await page.keyboard.press('Shift+M');
    await expect.poll(policy).toBe(1);
    await expect.poll(() => topicRow.getAttribute('class')).toContain('muted');
    await page.keyboard.press('Shift+M');
    await expect.poll(policy).toBe(0);

    // s: from the topic to its channel; there, with a message selected, to that message's topic.
    await page.keyboard.press('s');
    await page.getByRole('heading', { name: '#general', exact: true }).waitFor();
    // The channel's messages are in the list before a key selects among them.
    await page.locator('[data-message-id="' + second + '"]').waitFor();
    await page.keyboard.press('Shift+G');
    await expect.poll(selectedId).toBe(String(second));
    await page.keyboard.press('s');
    await page.getByRole('heading', { name: '#general > kb keys' }).waitFor();

    // r: a reply to the selected message, in the compose box; * the starred messages.
    await page.keyboard.press('r');
    await expect.poll(() => focusedLabel(page)).toBe('Message');
    await leaveFields(page, '#general > kb keys');
    await page.keyboard.press('*');
    await page.getByRole('heading', { name: 'Starred messages' }).waitFor();
    await messageWithText(page, 'the second message for keys').waitFor();
  });
});
