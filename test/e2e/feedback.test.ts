// Feedback after sending and the edit history's marks, in real Chromium against the real local
// server: a send to another topic says where it went and its link goes there; a picture sent at
// the bottom of the list ends fully in view once its preview has loaded; an edited and moved
// message's history marks the added and removed words and names the moves.
import { mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { appSession, pageErrors, realmClient } from './support/app';
import { composeBox, localInputValue, messageWithText, openTopic, send } from './support/ui';
import { encodePng } from '../../server/seed/png';

/** Screenshots of what a person sees, for looking at (not compared). */
const SHOTS = join(tmpdir(), 'tributary-e2e-screenshots');
mkdirSync(SHOTS, { recursive: true });

const session = appSession('owner');

const owner = () => realmClient(session.realm, 'owner');

/** Screenshots to look at: as it is (light), then ~800 px wide in dark, then back. */
/** The page of the session (set once it has started). */
const page = () => session.page;

async function shoot(name: string): Promise<void> {
  await page().screenshot({ path: join(SHOTS, `${name}.png`) });
  const size = page().viewportSize();
  await page().setViewportSize({ width: 800, height: 900 });
  await page().emulateMedia({ colorScheme: 'dark' });
  await page().screenshot({ path: join(SHOTS, `${name}-800-dark.png`) });
  await page().emulateMedia({ colorScheme: 'light' });
  if (size) await page().setViewportSize(size);
}

describe('feedback after sending', () => {
  it('says where a message sent outside the view went, and its link goes there', async () => {
    await openTopic(page(), 'general', 'e2e here');
    // Compose pointed at another topic of the channel than the one on screen.
    await composeBox(page());
    await page().getByRole('combobox', { name: 'Topic' }).fill('e2e elsewhere');
    await send(page(), 'This goes somewhere else');
    const notice = page().getByRole('status').filter({ hasText: 'Sent!' });
    await notice.getByText('Your message is outside your current view.').waitFor();
    await shoot('feedback-sent-elsewhere');
    // The list on screen did not take it.
    expect(await messageWithText(page(), 'This goes somewhere else').count()).toBe(0);
    await notice.getByRole('button', { name: 'Go to #general > e2e elsewhere' }).click();
    await page().getByRole('heading', { name: '#general > e2e elsewhere', exact: true }).waitFor();
    await messageWithText(page(), 'This goes somewhere else').waitFor();
    await expect.poll(() => notice.count()).toBe(0);

    // A send to the topic on screen says nothing.
    await send(page(), 'This one stays here');
    await messageWithText(page(), 'This one stays here').waitFor();
    expect(await page().getByText('outside your current view').count()).toBe(0);
  });

  it('ends with a picture sent at the bottom fully in view once its preview loaded', async () => {
    await openTopic(page(), 'general', 'e2e picture');
    for (let i = 0; i < 12; i++) await send(page(), `Filler line ${i}`);
    await messageWithText(page(), 'Filler line 11').waitFor();
    const tall = encodePng(600, 900, (x, y) => [x % 255, y % 255, 120, 255]);
    const compose = await composeBox(page());
    await page()
      .locator('input[type=file]')
      .setInputFiles({ name: 'tall.png', mimeType: 'image/png', buffer: tall });
    await expect
      .poll(() => compose.inputValue(), { timeout: 30_000 })
      .toContain('[tall.png](/user_uploads/');
    await page().getByRole('button', { name: 'Send', exact: true }).click();
    const picture = messageWithText(page(), 'tall.png').locator('.message_inline_image img');
    await expect
      .poll(() => picture.evaluate((img) => (img as HTMLImageElement).naturalHeight), {
        timeout: 30_000,
      })
      .toBeGreaterThan(0);
    // The last row's bottom edge is inside the list's box (not below it).
    const gap = () =>
      page().evaluate(() => {
        const doc = (globalThis as unknown as { document: { querySelector(s: string): unknown } })
          .document;
        type Box = { getBoundingClientRect(): { bottom: number } };
        const list = doc.querySelector('[aria-label="Messages"]') as Box | null;
        const rows = (
          doc as unknown as { querySelectorAll(s: string): ArrayLike<Box> }
        ).querySelectorAll('[data-testid="message"]');
        const last = rows[rows.length - 1];
        if (!list || !last) return Infinity;
        return last.getBoundingClientRect().bottom - list.getBoundingClientRect().bottom;
      });
    await expect.poll(gap, { timeout: 15_000 }).toBeLessThanOrEqual(1);
    await shoot('feedback-picture-bottom');
  });
});

describe('reminders', () => {
  it('lists a reminder with its time and message, changes its time and deletes it', async () => {
    await openTopic(page(), 'general', 'e2e reminders');
    await send(page(), 'Water the office plants');
    const row = messageWithText(page(), 'Water the office plants');
    await row.waitFor();
    await page().mouse.move(1, 1);
    await row.hover();
    await row.getByRole('button', { name: 'Message actions' }).click();
    await page()
      .getByRole('menu', { name: 'Message actions' })
      .getByRole('menuitem', { name: 'Remind me about this' })
      .click();
    const form = page().getByRole('dialog', { name: 'Remind me about this' });
    await form.getByRole('button', { name: /^In 1 hour/ }).click();
    await form.getByRole('status').filter({ hasText: 'You will be reminded' }).waitFor();
    await form.getByRole('button', { name: 'Close' }).click();

    await page()
      .getByRole('navigation', { name: 'Conversations' })
      .getByRole('button', { name: /^Scheduled messages/ })
      .click();
    const section = page().getByRole('region', { name: 'Reminders' });
    const item = section.getByTestId('reminder');
    await expect.poll(() => item.count(), { timeout: 15_000 }).toBe(1);
    // The message it points to (the quote) and where it is, with its time.
    await item.getByText('Water the office plants').waitFor();
    await item.getByRole('button', { name: '#general > e2e reminders' }).waitFor();
    const pending = async () =>
      (await owner().get('/reminders')).body.reminders as Array<{
        scheduled_delivery_timestamp: number;
        reminder_target_message_id: number;
      }>;
    const [before] = await pending();
    expect(await item.locator('time').getAttribute('datetime')).toBe(
      new Date(before!.scheduled_delivery_timestamp * 1000).toISOString(),
    );
    await shoot('feedback-reminders');

    // A new time: two days ahead, still about the same message.
    await item.getByRole('button', { name: 'Change time' }).click();
    const later = localInputValue(2 * 86_400);
    await item.getByLabel('Remind at').fill(later);
    await item.getByRole('button', { name: 'Save' }).click();
    await expect
      .poll(async () => (await pending()).map((r) => r.scheduled_delivery_timestamp))
      .toEqual([Math.floor(new Date(later).getTime() / 1000)]);
    expect((await pending())[0]!.reminder_target_message_id).toBe(
      before!.reminder_target_message_id,
    );
    await expect.poll(() => item.count()).toBe(1);
    await expect
      .poll(() => item.locator('time').getAttribute('datetime'))
      .toBe(new Date(later).toISOString());

    // Deleted: gone from the server and the list.
    await item.getByRole('button', { name: /^Delete reminder of / }).click();
    await expect.poll(async () => (await pending()).length).toBe(0);
    await section.getByText('No reminders.').waitFor();
  });
});

describe('edit history', () => {
  it('marks inserted and deleted words and names topic and channel moves', async () => {
    const streams = (await owner().get('/streams')).body.streams as Array<{
      stream_id: number;
      name: string;
    }>;
    const general = streams.find((s) => s.name === 'general')!.stream_id;
    const random = streams.find((s) => s.name === 'random')!.stream_id;
    const sent = await owner().post('/messages', {
      type: 'stream',
      to: general,
      topic: 'e2e history',
      content: 'Lunch at noon in the park',
    });
    const id = sent.body.id as number;
    await owner().patch(`/messages/${id}`, { content: 'Lunch at one in the park' });
    await owner().patch(`/messages/${id}`, { content: 'Lunch at one in the big park' });
    await owner().patch(`/messages/${id}`, { topic: 'e2e lunch', stream_id: random });

    await openTopic(page(), 'random', 'e2e lunch');
    const message = messageWithText(page(), 'Lunch at one in the big park');
    await message
      .getByRole('button', { name: /^\((edited|moved)\)$/ })
      .first()
      .click();
    const history = message.getByRole('region', { name: 'Edit history' });
    const versions = history.getByRole('listitem');
    await expect.poll(() => versions.count(), { timeout: 15_000 }).toBe(4);

    // First edit: "noon" struck out, "one" added.
    const first = versions.nth(1);
    expect(await first.locator('del').allTextContents()).toEqual(['noon']);
    expect(await first.locator('ins').allTextContents()).toEqual(['one']);
    // Second edit: only "big" added.
    const second = versions.nth(2);
    expect(await second.locator('ins').allTextContents()).toEqual(['big']);
    expect(await second.locator('del').count()).toBe(0);
    // The move: topic and channel, each from the old to the new.
    const move = versions.nth(3);
    await move.getByText('Topic changed from e2e history to e2e lunch').waitFor();
    await move.getByText('Moved from #general to #random').waitFor();
    await shoot('feedback-edit-history');
    expect(pageErrors).toEqual([]);
  });
});
