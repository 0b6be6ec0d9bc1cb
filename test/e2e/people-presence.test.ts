// Presence, the user list and the user card in real Chromium against the real local server (browser
// mode), driven as a person does: a second user (an API client) reports presence and shows up in the
// list's active group with a green dot, live; the owner searches the list, opens the card, mutes the
// user (the server's state checked with GET /register), and starts a direct message from the card.
import { mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { appSession, pageErrors, realmClient } from './support/app';

const SHOTS = join(tmpdir(), 'tributary-e2e-screenshots');
mkdirSync(SHOTS, { recursive: true });

const session = appSession('owner');

describe('people and presence', () => {
  it('shows a user who reports presence as active, live, with a green dot', async () => {
    const { page, realm } = session;
    const people = page.getByRole('complementary', { name: 'People' });
    await people.waitFor();
    // The owner is using the app: main's first report puts them in the active group.
    const owner = people.getByRole('button', { name: /Olivia Owner/ });
    await expect.poll(() => owner.locator('..').getAttribute('data-group')).toBe('active');

    const emmaRow = people.getByRole('button', { name: /Emma Member/ });
    expect(await emmaRow.locator('..').getAttribute('data-group')).toBe('offline');

    const emma = realmClient(realm, 'emma');
    const report = await emma.post('/users/me/presence', {
      status: 'active',
      slim_presence: true,
      new_user_input: true,
    });
    expect(report.status).toBe(200);

    // No reload and no wait for the next minute's report: the presence event moves the row.
    await expect.poll(() => emmaRow.locator('..').getAttribute('data-group')).toBe('active');
    expect(await emmaRow.locator('.presence-dot').getAttribute('data-presence')).toBe('active');
    const green = await emmaRow
      .locator('.presence-dot')
      .evaluate((el) => getComputedStyle(el).backgroundColor);
    expect(green).toBe('rgb(68, 194, 29)');
    await page.screenshot({ path: join(SHOTS, 'people-presence-list.png') });
  });

  it('searches the list, opens the card, mutes the user and starts a direct message', async () => {
    const { page, realm } = session;
    const people = page.getByRole('complementary', { name: 'People' });
    await people.getByRole('searchbox', { name: 'Search people' }).fill('emm');
    await expect.poll(() => people.getByRole('button').count()).toBe(1);

    await people.getByRole('button', { name: /Emma Member/ }).click();
    const card = page.getByRole('dialog', { name: 'User card: Emma Member' });
    await card.waitFor();
    await page.screenshot({ path: join(SHOTS, 'people-presence-card.png') });

    await card.getByRole('button', { name: 'Mute this user' }).click();
    await card.getByText('You have muted this user.').waitFor();
    const owner = realmClient(realm, 'owner');
    const state = await owner.post('/register', { fetch_event_types: ['muted_users'] });
    const emmaId = (await owner.get('/users')).body.members.find((u: { email: string }) =>
      u.email.startsWith('emma@'),
    ).user_id as number;
    expect(state.body.muted_users.map((m: { id: number }) => m.id)).toEqual([emmaId]);
    // Muted users leave the list (the API asks clients to keep them out of presence lists).
    await expect.poll(() => people.getByRole('button', { name: /Emma Member/ }).count()).toBe(0);

    await card.getByRole('button', { name: 'Send direct message' }).click();
    await card.waitFor({ state: 'detached' });
    await expect
      .poll(() => page.getByRole('main').getByRole('heading', { level: 1 }).textContent())
      .toMatch(/Emma Member/);
    expect(await page.getByRole('textbox', { name: /Message/ }).count()).toBeGreaterThan(0);
    await page.screenshot({ path: join(SHOTS, 'people-presence-dm.png') });
    expect(pageErrors).toEqual([]);
  });
});
