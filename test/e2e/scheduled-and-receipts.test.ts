// Scheduled messages and read receipts in real Chromium against the real local server: a message
// scheduled a few seconds ahead from compose shows in the Scheduled messages view, is delivered by
// the server at its time into the conversation and leaves the view; another is edited in place and
// a third deleted; Read receipts in the message menu names a user (an API client) who read the
// message, and shows the server's refusal once the organization turns read receipts off; a reminder
// set from the message menu comes from the Notification Bot at its time.
import { mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
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
import { composeBox, localInputValue, messageWithText, openTopic, send } from './support/ui';

const SHOTS = join(tmpdir(), 'tributary-e2e-screenshots');

let realm: Realm;
let app: App;
let browser: Browser;
let page: Page;

beforeAll(async () => {
  mkdirSync(SHOTS, { recursive: true });
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

async function openView(name: string): Promise<void> {
  await page
    .getByRole('navigation', { name: 'Conversations' })
    .getByRole('button', { name: new RegExp(`^${name}`) })
    .click();
  await page.getByRole('heading', { name, level: 1 }).waitFor();
}

const scheduledItems = () => page.getByTestId('scheduled-message');
const ownScheduled = async () =>
  (await client('owner').get('/scheduled_messages')).body.scheduled_messages as Array<{
    scheduled_message_id: number;
    content: string;
    scheduled_delivery_timestamp: number;
  }>;

describe('scheduled messages', () => {
  it('schedules from compose, lists it, delivers it at the time and drops it from the list', async () => {
    await openTopic(page, 'general', 'later on');
    const box = await composeBox(page);
    await box.fill('This one was scheduled');
    await page.getByRole('button', { name: 'Schedule', exact: true }).click();
    const menu = page.getByRole('dialog', { name: 'Schedule message' });
    await menu.waitFor();
    await page.screenshot({ path: join(SHOTS, 'schedule-menu.png') });
    await menu.getByLabel('Send at').fill(localInputValue(4));
    await menu.getByRole('button', { name: 'Schedule at this time' }).click();
    await page
      .getByRole('status')
      .filter({ hasText: 'Your message has been scheduled for' })
      .waitFor();
    expect(await box.inputValue()).toBe('');
    await page.screenshot({ path: join(SHOTS, 'schedule-notice.png') });

    await openView('Scheduled messages');
    const item = scheduledItems().filter({ hasText: 'This one was scheduled' });
    await item.waitFor();
    expect(
      await item.getByRole('button', { name: '#general > later on', exact: true }).count(),
    ).toBe(1);
    await page.screenshot({ path: join(SHOTS, 'scheduled-view.png') });

    // The server sends it at its time; the scheduled_messages event takes it out of the view.
    await item.waitFor({ state: 'detached', timeout: 20_000 });
    await openTopic(page, 'general', 'later on');
    await messageWithText(page, 'This one was scheduled').waitFor();
    expect(await ownScheduled()).toEqual([]);
  });

  it('edits one scheduled message in place and deletes another', async () => {
    await openTopic(page, 'general', 'plans');
    await (await composeBox(page)).fill('Standup notes for tomorrow');
    await page.getByRole('button', { name: 'Schedule', exact: true }).click();
    await page
      .getByRole('dialog', { name: 'Schedule message' })
      .getByRole('button', { name: /^Tomorrow at 9:00 AM/ })
      .click();
    await page
      .getByRole('status')
      .filter({ hasText: 'Your message has been scheduled for' })
      .waitFor();
    const emma = realm.user('emma').user_id;
    const other = await client('owner').post('/scheduled_messages', {
      type: 'direct',
      to: JSON.stringify([emma]),
      content: 'A direct message for later',
      scheduled_delivery_timestamp: Math.floor(Date.now() / 1000) + 7200,
    });
    expect(other.status).toBe(200);

    await openView('Scheduled messages');
    const standup = scheduledItems().filter({ hasText: 'Standup notes for tomorrow' });
    const direct = scheduledItems().filter({ hasText: 'A direct message for later' });
    await direct.waitFor();
    expect(await direct.getByRole('button', { name: 'Emma Member', exact: true }).count()).toBe(1);

    await standup.getByRole('button', { name: 'Edit' }).click();
    // Only one is being edited; its text changes as it is typed, so find the form by itself.
    const form = page.getByRole('form', { name: 'Edit scheduled message' });
    await form.getByRole('textbox', { name: 'Message' }).fill('Standup notes, revised');
    await page.screenshot({ path: join(SHOTS, 'scheduled-edit.png') });
    await form.getByRole('button', { name: 'Save' }).click();
    await scheduledItems().filter({ hasText: 'Standup notes, revised' }).waitFor();
    await form.waitFor({ state: 'detached' });

    await direct.getByRole('button', { name: /^Delete scheduled message to Emma Member/ }).click();
    await direct.waitFor({ state: 'detached' });
    const left = await ownScheduled();
    expect(left.map((m) => m.content)).toEqual(['Standup notes, revised']);
    // Tomorrow at 9 am local time, as the preset said.
    const at = new Date(left[0].scheduled_delivery_timestamp * 1000);
    expect([at.getHours(), at.getMinutes()]).toEqual([9, 0]);
    expect(at.getDate()).toBe(new Date(Date.now() + 86_400_000).getDate());
    expect(pageErrors).toEqual([]);
  });
});

describe('read receipts', () => {
  it('lists who read a message, and shows the refusal when the organization turns them off', async () => {
    await openTopic(page, 'general', 'receipts');
    await send(page, 'Did everyone read this?');
    const row = messageWithText(page, 'Did everyone read this?');
    await row.waitFor();
    const sent = (
      await client('emma').get('/messages', {
        anchor: 'newest',
        num_before: 5,
        num_after: 0,
        narrow: JSON.stringify([
          { operator: 'channel', operand: 'general' },
          { operator: 'topic', operand: 'receipts' },
        ]),
      })
    ).body.messages.find((m: { content: string }) => m.content.includes('Did everyone read this?'));
    const read = await client('emma').post('/messages/flags', {
      messages: [sent.id],
      op: 'add',
      flag: 'read',
    });
    expect(read.status).toBe(200);

    const openReceipts = async () => {
      await page.mouse.move(1, 1);
      await row.hover();
      await row.getByRole('button', { name: 'Message actions' }).click();
      await page
        .getByRole('menu', { name: 'Message actions' })
        .getByRole('menuitem', { name: 'Read receipts' })
        .click();
      const dialog = page.getByRole('dialog', { name: 'Read receipts' });
      await dialog.waitFor();
      return dialog;
    };
    const dialog = await openReceipts();
    const readers = dialog.getByRole('list', { name: 'Read by' });
    await readers.waitFor();
    expect(await readers.locator('li > span:not(.initials)').allTextContents()).toEqual([
      'Emma Member',
    ]);
    await page.screenshot({ path: join(SHOTS, 'read-receipts.png') });
    // Esc closes the panel only: the conversation stays (the window's Esc would go back a view).
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'detached' });
    await page.getByRole('heading', { name: '#general > receipts', level: 1 }).waitFor();

    // The organization setting has no API endpoint on the local server yet: set it in the realm row.
    const db = realm.server.db;
    const settings = JSON.parse(
      (db.prepare('SELECT settings FROM realm WHERE id = 1').get() as { settings: string })
        .settings,
    ) as Record<string, unknown>;
    db.prepare('UPDATE realm SET settings = ? WHERE id = 1').run(
      JSON.stringify({ ...settings, enable_read_receipts: false }),
    );
    const refused = await openReceipts();
    await refused
      .getByRole('alert')
      .filter({ hasText: 'Read receipts are disabled in this Zulip organization.' })
      .waitFor();
    await page.screenshot({ path: join(SHOTS, 'read-receipts-disabled.png') });
    // A modal dialog: closed before the next test goes elsewhere (the page behind it is inert).
    await page.keyboard.press('Escape');
    await refused.waitFor({ state: 'detached' });
    expect(pageErrors).toEqual([]);
  });
});

describe('reminders', () => {
  it('sets a reminder from the message menu; the Notification Bot sends it at the time', async () => {
    await openTopic(page, 'general', 'reminders');
    await send(page, 'Remember the release notes');
    const row = messageWithText(page, 'Remember the release notes');
    await row.waitFor();
    await page.mouse.move(1, 1);
    await row.hover();
    await row.getByRole('button', { name: 'Message actions' }).click();
    await page
      .getByRole('menu', { name: 'Message actions' })
      .getByRole('menuitem', { name: 'Remind me about this' })
      .click();
    const form = page.getByRole('dialog', { name: 'Remind me about this' });
    await form.waitFor();
    expect(await form.getByRole('button', { name: /^In 1 hour/ }).count()).toBe(1);
    await page.screenshot({ path: join(SHOTS, 'reminder-form.png') });
    await form.getByLabel('Remind at').fill(localInputValue(3));
    await form.getByRole('button', { name: 'Set reminder' }).click();
    await form.getByRole('status').filter({ hasText: 'You will be reminded' }).waitFor();
    const pending = (await client('owner').get('/reminders')).body.reminders as unknown[];
    expect(pending).toHaveLength(1);
    await form.getByRole('button', { name: 'Close' }).click();

    // At the time, a direct message from the Notification Bot quoting the message.
    const reminderDm = async () => {
      const res = await client('owner').get('/messages', {
        anchor: 'newest',
        num_before: 5,
        num_after: 0,
        narrow: JSON.stringify([{ operator: 'is', operand: 'dm' }]),
      });
      return (res.body.messages as Array<{ sender_full_name: string; content: string }>).find((m) =>
        m.content.includes('Remember the release notes'),
      );
    };
    await expect.poll(reminderDm, { timeout: 20_000 }).toBeTruthy();
    expect((await reminderDm())?.sender_full_name).toBe('Notification Bot');
    expect((await client('owner').get('/reminders')).body.reminders).toEqual([]);
    expect(pageErrors).toEqual([]);
  });
});
