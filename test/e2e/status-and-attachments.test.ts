// The Set status dialog and compose attachment chips, driven as a person does in Chromium against
// browser mode and the real realm: pick a suggested status, choose when it clears, see it on one's
// own card, watch the server clear it at its time; attach a file, see its chip (name and size),
// remove it (its link leaves the message), attach another and send.
import { mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { appSession, realmClient } from './support/app';
import { composeBox, messageWithText, openTopic } from './support/ui';

/** Screenshots of what a person sees, for looking at (not compared). */
const SHOTS = join(tmpdir(), 'tributary-e2e-screenshots');

const s = appSession('owner');

async function shoot(name: string): Promise<void> {
  const { page } = s;
  mkdirSync(SHOTS, { recursive: true });
  for (const scheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme: scheme });
    for (const width of [1400, 800]) {
      await page.setViewportSize({ width, height: 900 });
      await page.screenshot({ path: join(SHOTS, `${name}-${width}-${scheme}.png`) });
    }
  }
  await page.emulateMedia({ colorScheme: 'light' });
  await page.setViewportSize({ width: 1400, height: 900 });
}

describe('Set status', () => {
  it('sets a suggested status with its emoji and a clear-after, shown on the own card', async () => {
    const { page, realm } = s;
    const me = realm.user('owner');
    await page.getByRole('button', { name: 'Set status', exact: true }).click();
    const dialog = page.getByRole('dialog', { name: 'Set status' });
    await dialog.getByRole('list', { name: 'Suggested statuses' }).waitFor();
    await dialog.getByRole('button', { name: 'In a meeting' }).click();
    await expect
      .poll(() => dialog.getByRole('textbox', { name: 'Status text' }).inputValue())
      .toBe('In a meeting');
    await dialog
      .getByRole('combobox', { name: 'Automatically clear status' })
      .selectOption({ label: 'In 1 hour' });
    await shoot('status-dialog');
    const before = Math.floor(Date.now() / 1000);
    await dialog.getByRole('button', { name: 'Save status' }).click();
    await dialog.waitFor({ state: 'detached' });

    // Stored with the suggestion's emoji and an end about an hour on.
    const state = await realmClient(realm, 'owner').post('/register', {
      fetch_event_types: ['user_status'],
    });
    const mine = state.body.user_status[String(me.user_id)];
    expect(mine).toMatchObject({ status_text: 'In a meeting', emoji_name: 'calendar' });
    expect(mine.scheduled_end_time).toBeGreaterThanOrEqual(before + 3600);
    expect(mine.scheduled_end_time).toBeLessThan(before + 3700);

    // The own card shows it, emoji included.
    await page.locator('.user-list-row', { hasText: '(you)' }).click();
    const card = page.getByRole('dialog', { name: `User card: ${me.full_name}` });
    await expect.poll(() => card.textContent()).toContain('In a meeting');
    expect(await card.textContent()).toMatch(/Clears (at|on) /);
    expect(await card.locator('.status .emoji, .status img, .status span').count()).toBeGreaterThan(
      0,
    );
    await page.keyboard.press('Escape');

    // Opened again, the dialog says when it clears and keeps that end unless changed.
    await page.getByRole('button', { name: 'Set status', exact: true }).click();
    const select = dialog.getByRole('combobox', { name: 'Automatically clear status' });
    expect(await select.locator('option:checked').textContent()).toMatch(/^Clears (at|on) /);
    await dialog.getByRole('button', { name: 'Cancel' }).click();

    // When its time comes the server clears it, and the card follows.
    const soon = Math.floor(Date.now() / 1000) + 2;
    const res = await realmClient(realm, 'owner').post('/users/me/status', {
      status_text: 'Commuting',
      emoji_name: 'bus',
      scheduled_end_time: soon,
    });
    expect(res.status, res.text).toBe(200);
    await page.locator('.user-list-row', { hasText: '(you)' }).click();
    await expect.poll(() => card.textContent()).toContain('Commuting');
    await expect.poll(() => card.textContent(), { timeout: 15_000 }).not.toContain('Commuting');
    await page.keyboard.press('Escape');
  });
});

describe('compose attachments', () => {
  it('shows a chip with name and size, removes it with its link, then sends another', async () => {
    const { page } = s;
    await openTopic(page, 'general', 'e2e chips');
    const compose = await composeBox(page);
    const chips = page.getByRole('list', { name: 'Attachments' }).getByTestId('upload');
    await compose.fill('Notes attached: ');
    await page.locator('input[type=file]').setInputFiles({
      name: 'draft-notes.txt',
      mimeType: 'text/plain',
      buffer: Buffer.alloc(2048, 'a'),
    });
    await expect
      .poll(() => compose.inputValue(), { timeout: 30_000 })
      .toContain('[draft-notes.txt](/user_uploads/');
    const chip = chips.filter({ hasText: 'draft-notes.txt' });
    await expect.poll(() => chip.textContent()).toContain('2.0 KB');
    await shoot('attachment-chip');

    await chip.getByRole('button', { name: 'Remove draft-notes.txt' }).click();
    await expect.poll(() => chips.count()).toBe(0);
    expect(await compose.inputValue()).toBe('Notes attached:');

    await page.locator('input[type=file]').setInputFiles({
      name: 'final-notes.txt',
      mimeType: 'text/plain',
      buffer: Buffer.from('the final notes\n'),
    });
    await expect
      .poll(() => compose.inputValue(), { timeout: 30_000 })
      .toContain('[final-notes.txt](/user_uploads/');
    await expect.poll(() => chips.filter({ hasText: 'final-notes.txt' }).count()).toBe(1);
    await page.getByRole('button', { name: 'Send', exact: true }).click();
    const sent = messageWithText(page, 'final-notes.txt');
    await sent.waitFor();
    expect(await sent.textContent()).not.toContain('draft-notes.txt');
    await expect.poll(() => chips.count()).toBe(0);
  });
});
