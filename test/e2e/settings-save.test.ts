// Settings never lose work (issue 19, part 3), in real Chromium against the real local server: the
// owner changes a default for new users and a personal setting as a person does and leaves the
// section at once; the server has both. A name the server refuses shows the server's words beside
// the field with the typed value kept, leaving then asks "Discard changes?", and keeping editing
// lets the person fix it. Screens at 1,024 and 1,400 px, light and dark, go to test-results.
import { beforeAll, describe, expect, it } from 'vitest';
import { mkdirSync } from 'node:fs';
import { appSession, realmClient } from './support/app';
import { openSettings } from './support/ui';

const SHOTS = 'test-results/settings-save';
const session = appSession('owner');
const page = () => session.page;
const owner = () => realmClient(session.realm, 'owner');
const pane = (name: string) =>
  page()
    .getByRole('region', { name: 'Settings', exact: true })
    .getByRole('region', { name, exact: true });

async function registered(eventType: string, key: string): Promise<Record<string, unknown>> {
  const state = await owner().post('/register', { fetch_event_types: JSON.stringify([eventType]) });
  return state.body[key] as Record<string, unknown>;
}

beforeAll(() => mkdirSync(SHOTS, { recursive: true }));

describe('settings saved as the person makes them', () => {
  it('keeps a default user setting and a personal one when the person moves straight on', async () => {
    await openSettings(page(), 'Default user settings');
    const display = pane('Default user settings').getByRole('group', { name: 'Display settings' });
    // The reported case: another emoji set, then another section at once.
    await display.getByRole('combobox', { name: 'Emoji theme' }).selectOption({ label: 'Twitter' });
    // A typed number, the section left without pressing Enter or Tab first.
    await display.getByRole('textbox', { name: 'Message-area font size (px)' }).fill('18');
    await openSettings(page(), 'Preferences');
    await expect
      .poll(async () => {
        const defaults = await registered(
          'realm_user_settings_defaults',
          'realm_user_settings_defaults',
        );
        return [defaults.emojiset, defaults.web_font_size_px];
      })
      .toEqual(['twitter', 18]);

    await pane('Preferences').getByRole('radio', { name: 'Twitter' }).check();
    await pane('Preferences').getByRole('status').filter({ hasText: 'Saved' }).waitFor();
    await openSettings(page(), 'Notifications');
    await expect
      .poll(async () => (await registered('user_settings', 'user_settings')).emojiset)
      .toBe('twitter');
  });

  it("shows the server's refusal beside the field, keeps the value, and asks before leaving", async () => {
    await openSettings(page(), 'Organization profile');
    const profile = pane('Organization profile');
    const name = profile.getByRole('textbox', { name: 'Organization name' });
    const before = (await registered('realm', 'realm_name')) as unknown as string;
    // Pasted with a tab in it: only the server refuses that.
    await name.fill('Rowing\tClub');
    await name.press('Enter');
    const refusal = profile.getByRole('alert').filter({ hasText: 'Invalid characters in name!' });
    await refusal.waitFor();
    await expect(name.inputValue()).resolves.toBe('Rowing\tClub');
    await expect(name.getAttribute('aria-invalid')).resolves.toBe('true');
    expect(await registered('realm', 'realm_name')).toBe(before);
    for (const [width, scheme] of [
      [1400, 'light'],
      [1024, 'dark'],
    ] as const) {
      await page().setViewportSize({ width, height: 900 });
      await page().emulateMedia({ colorScheme: scheme });
      await page().screenshot({ path: `${SHOTS}/refused-${width}-${scheme}.png` });
    }

    // Leaving asks first; keeping editing stays with the value as typed.
    await page()
      .getByRole('navigation', { name: 'Settings sections' })
      .getByRole('button', { name: 'Users', exact: true })
      .click();
    const question = page().getByRole('alertdialog', { name: 'Discard changes?' });
    await question.waitFor();
    await page().screenshot({ path: `${SHOTS}/discard-question-1024-dark.png` });
    await question.getByRole('button', { name: 'Keep editing' }).click();
    await question.waitFor({ state: 'hidden' });
    await expect(name.inputValue()).resolves.toBe('Rowing\tClub');

    await name.fill('Rowing Club');
    await name.press('Enter');
    await profile.getByRole('status').filter({ hasText: 'Saved' }).waitFor();
    await expect(refusal.count()).resolves.toBe(0);
    await expect.poll(() => registered('realm', 'realm_name')).toBe('Rowing Club');
    await page().emulateMedia({ colorScheme: 'light' });
    await openSettings(page(), 'Default user settings');
    await page().screenshot({ path: `${SHOTS}/defaults-1024-light.png` });
    await page().setViewportSize({ width: 1400, height: 900 });
    await openSettings(page(), 'Organization settings');
    await page().emulateMedia({ colorScheme: 'dark' });
    await page().screenshot({ path: `${SHOTS}/org-settings-1400-dark.png` });
  });
});
