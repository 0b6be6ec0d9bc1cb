// Bots that answer, in real Chromium against the real local server (issue 22, parts 2 and 4):
// Emma, who owns the demo realm's Echo Webhook Bot, mentions it and sees its answer; in Your bots
// she sees where it points, in which format and with which token, changes the endpoint (the
// server's refusal of a URL with credentials shown as the public server words it), and when her
// bot's new endpoint fails, the Notification Bot's direct message reaches her like any other DM.
import { mkdirSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { appSession, realmClient } from './support/app';
import { closeSettings, messageWithText, openTopic, send } from './support/ui';
import { startWebhookEndpoint, type WebhookEndpoint } from '../support/webhook-endpoint';

const SHOTS = 'test-results/demo-bots';
const session = appSession('emma');
let endpoint: WebhookEndpoint;

beforeAll(async () => {
  mkdirSync(SHOTS, { recursive: true });
  endpoint = await startWebhookEndpoint();
});
afterAll(async () => {
  await endpoint?.close();
});

async function openYourBots(page: Page): Promise<void> {
  await page.getByRole('button', { name: 'Settings', exact: true }).click();
  await page
    .getByRole('navigation', { name: 'Settings sections' })
    .getByRole('button', { name: 'Your bots', exact: true })
    .click();
}

describe('the demo Echo bot', () => {
  it('answers a mention in the same topic, quoting what was said', async () => {
    const { page } = session;
    await openTopic(page, 'general', 'echo demo');
    await send(page, '@**Echo Webhook Bot** hello from the browser');
    // The bot's answer: its own message in the topic, a quote of the words without its mention.
    const answer = page
      .getByTestId('message')
      .filter({ has: page.locator('blockquote', { hasText: 'hello from the browser' }) });
    await answer.waitFor({ timeout: 15_000 });
    await expect.poll(() => answer.textContent()).toContain('Emma Member said:');
    const stored = await realmClient(session.realm, 'emma').get('/messages', {
      anchor: 'newest',
      num_before: 1,
      num_after: 0,
      narrow: JSON.stringify([
        { operator: 'channel', operand: 'general' },
        { operator: 'topic', operand: 'echo demo' },
      ]),
    });
    expect(stored.body.messages[0].sender_full_name).toBe('Echo Webhook Bot');
    await page.screenshot({ path: `${SHOTS}/echo-answer.png` });
  });
});

describe('Your bots: an outgoing webhook bot', () => {
  it('shows the endpoint, format and token, and changes the endpoint and format', async () => {
    const { page, realm } = session;
    await openYourBots(page);
    const card = page.getByRole('listitem', { name: 'Echo Webhook Bot' });
    await expect
      .poll(() => card.getByTestId('bot-endpoint-url').textContent())
      .toBe(realm.server.demo.echoUrl);
    expect(await card.getByTestId('bot-interface').textContent()).toBe('Zulip');
    const emma = realmClient(realm, 'emma');
    const listed = async () =>
      (await emma.get('/bots')).body.bots.find(
        (b: { user_id: number }) => b.user_id === realm.user('echo-bot').user_id,
      ).services[0] as { base_url: string; interface: number; token: string };
    expect(await card.getByTestId('bot-service-token').textContent()).toBe((await listed()).token);
    await page.screenshot({ path: `${SHOTS}/your-bots-outgoing.png` });

    await card.getByRole('button', { name: 'Edit' }).click();
    const edit = card.getByRole('form', { name: 'Edit Echo Webhook Bot' });
    await edit.getByLabel('Endpoint URL').fill('https://me:secret@bots.example.com/hook');
    await edit.getByRole('button', { name: 'Save changes' }).click();
    await card.getByRole('alert').filter({ hasText: 'service_payload_url is not a URL' }).waitFor();
    expect((await listed()).base_url).toBe(realm.server.demo.echoUrl);

    await edit.getByLabel('Endpoint URL').fill(endpoint.url);
    await edit.getByLabel('Outgoing webhook message format').selectOption({
      label: 'Slack compatible',
    });
    await edit.getByRole('button', { name: 'Save changes' }).click();
    await expect.poll(() => card.getByTestId('bot-endpoint-url').textContent()).toBe(endpoint.url);
    expect(await card.getByTestId('bot-interface').textContent()).toBe('Slack compatible');
    expect(await listed()).toMatchObject({ base_url: endpoint.url, interface: 2 });
  });

  it('tells the owner through the Notification Bot when the endpoint fails', async () => {
    const { page, realm } = session;
    endpoint.answerWith(() => ({ status: 400, body: { msg: 'no' } }));
    const dev = realmClient(realm, 'dev');
    const sent = await dev.post('/messages', {
      type: 'stream',
      to: 'general',
      topic: 'echo demo',
      content: '@**Echo Webhook Bot** are you there?',
    });
    expect(sent.status).toBe(200);
    // The new endpoint gets the Slack-compatible form the format now says.
    const call = await endpoint.nextCall();
    expect(call.form.get('text')).toBe('@**Echo Webhook Bot** are you there?');

    // The previous test left Settings open over the window.
    if (await page.getByRole('dialog', { name: 'Settings' }).count()) await closeSettings(page);
    const dmRow = page
      .getByRole('region', { name: 'Direct messages' })
      .getByRole('button', { name: /^Notification Bot/ });
    await dmRow.waitFor({ timeout: 15_000 });
    await dmRow.click();
    await messageWithText(page, 'triggered an outgoing webhook').waitFor();
    await page.screenshot({ path: `${SHOTS}/failure-dm.png` });
  });
});
