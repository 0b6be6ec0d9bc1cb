// Starting from the local cache, end to end: a relaunch shows the last open conversation from the
// cache before the server answers, marked as such; with the server down the app stays readable
// (the conversation, search over cached messages); when the server returns, its snapshot replaces
// the cached one, a message deleted while the app was closed goes, and typed text stays.
import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { appSession, realmClient } from './support/app';
import { composeBox, messageWithText, openTopic, send } from './support/ui';

// Each test opens its pages.
const session = appSession('owner', { openPage: false });

const banner = (page: Page) => page.getByTestId('connection-banner');

describe('start from the local cache', () => {
  it('shows the cached conversation offline, then the server’s state without losing typed text', async () => {
    const { realm } = session;
    const owner = realmClient(realm, 'owner');
    const topic = 'cache start';
    const ids: number[] = [];
    for (const content of ['kept message', 'quince to be deleted', 'last words of the topic']) {
      const res = await owner.post('/messages', { type: 'stream', to: 'general', topic, content });
      ids.push(res.body.id as number);
    }
    let page = await session.openPage();
    await openTopic(page, 'general', topic);
    await messageWithText(page, 'last words of the topic').waitFor();

    // Closed, the message is deleted on the server; then the server goes down too.
    page = await session.relaunchApp(async () => {
      expect((await owner.delete(`/messages/${ids[1]}`)).status).toBe(200);
      await realm.stop();
    });
    // The last conversation, from the cache, without the server.
    await page.getByRole('heading', { name: `#general > ${topic}` }).waitFor();
    await messageWithText(page, 'last words of the topic').waitFor();
    await messageWithText(page, 'quince to be deleted').waitFor();
    await expect
      .poll(() => banner(page).textContent())
      .toMatch(/showing messages saved on this computer/i);

    // Search answers from the cached messages.
    const search = page.getByRole('combobox', { name: 'Search messages' });
    await search.fill('quince');
    await search.press('Enter');
    await messageWithText(page, 'quince to be deleted').waitFor();
    expect(await messageWithText(page, 'kept message').count()).toBe(0);
    await search.fill('persimmon');
    await search.press('Enter');
    await page.getByText('None of the messages saved on this computer are here.').waitFor();

    // Back in the conversation, text typed while offline.
    await openTopic(page, 'general', topic);
    const compose = await composeBox(page);
    await compose.fill('written while offline');

    // The server returns: its snapshot replaces the cached one.
    await realm.restart();
    // Retry at once rather than wait for the backoff; the app may already have reconnected by
    // itself, taking the button away (what counts is below: each message stored once).
    await page
      .getByRole('button', { name: 'Retry now' })
      .click({ timeout: 5_000 })
      .catch(() => undefined);
    await expect.poll(() => banner(page).count(), { timeout: 20_000 }).toBe(0);
    await expect.poll(() => messageWithText(page, 'quince to be deleted').count()).toBe(0);
    await messageWithText(page, 'last words of the topic').waitFor();
    expect(await compose.inputValue()).toBe('written while offline');
    await session.closePage();
  });

  it('starts with the server down showing the account, compose and the queued outbox', async () => {
    const { realm } = session;
    const topic = 'queued while down';
    let page = await session.openPage();
    await openTopic(page, 'general', topic);
    await realm.stop();
    await expect.poll(() => banner(page).count(), { timeout: 20_000 }).toBe(1);
    await send(page, 'queued before closing');
    await page.getByText('Queued: sent when the connection returns').waitFor();

    // Closed and started again with the server still down.
    page = await session.relaunchApp();
    await page.getByRole('heading', { name: `#general > ${topic}` }).waitFor();
    await composeBox(page);
    await page.getByText('queued before closing').waitFor();
    await page.getByText('Queued: sent when the connection returns').waitFor();
    await send(page, 'queued after the restart');
    await expect
      .poll(() => page.getByText('Queued: sent when the connection returns').count())
      .toBe(2);

    // The server returns: each goes out once, and shows as sent.
    await realm.restart();
    // Retry at once rather than wait for the backoff; the app may already have reconnected by
    // itself, taking the button away (what counts is below: each message stored once).
    await page
      .getByRole('button', { name: 'Retry now' })
      .click({ timeout: 5_000 })
      .catch(() => undefined);
    const owner = realmClient(realm, 'owner');
    const copies = async (content: string) => {
      const res = await owner.get('/messages', {
        anchor: 'newest',
        num_before: 50,
        num_after: 0,
        narrow: [{ operator: 'topic', operand: topic }],
        apply_markdown: false,
      });
      return (res.body.messages as Array<{ content: string }>).filter((m) => m.content === content)
        .length;
    };
    await expect
      .poll(
        async () =>
          (await copies('queued before closing')) + (await copies('queued after the restart')),
        {
          timeout: 30_000,
        },
      )
      .toBe(2);
    await expect.poll(() => page.getByText(/Queued: sent when/).count()).toBe(0);
    await messageWithText(page, 'queued after the restart').waitFor();
    await session.closePage();
  });
});
