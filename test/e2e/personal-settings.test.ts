// Personal settings (issue #12, part 5) in real Chromium against the real local server (browser
// mode), each setting round-tripping with the server: changed on screen, checked in the server's
// state, changed by another client and followed on screen. And each one doing what it says: 24-hour
// times in the list, the home view at start, where a channel click goes, the user list's style,
// alert words flagging messages, muted users' messages collapsed, the profile (name, avatar, custom
// fields) and the API key shown once after the password. Screenshots of every screen, light and dark.
import { mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import sharp from 'sharp';
import { encodePng } from '../../server/seed/png';
import { appSession, realmClient } from './support/app';
import { closeSettings, messageWithText, openTopic } from './support/ui';

const SHOTS = join(tmpdir(), 'tributary-e2e-screenshots');
mkdirSync(SHOTS, { recursive: true });

const session = appSession('owner');
const page = () => session.page;
const client = (who: string) => realmClient(session.realm, who);

async function ownerSettings(): Promise<Record<string, unknown>> {
  const res = await client('owner').post('/register', { fetch_event_types: ['user_settings'] });
  expect(res.status).toBe(200);
  return res.body.user_settings as Record<string, unknown>;
}

async function patchOwner(settings: Record<string, unknown>): Promise<void> {
  const res = await client('owner').patch('/settings', settings);
  expect(res.status, res.text).toBe(200);
}

async function sendAs(who: string, topic: string, content: string): Promise<number> {
  const res = await client(who).post('/messages', {
    type: 'stream',
    to: 'general',
    topic,
    content,
  });
  expect(res.status, res.text).toBe(200);
  return res.body.id as number;
}

/** A three-frame animated GIF. */
async function animatedGif(): Promise<Buffer> {
  const [w, h, frames] = [40, 30, 3];
  const raw = Buffer.alloc(w * h * frames * 4);
  for (let i = 0; i < w * h * frames; i++) {
    const frame = Math.floor(i / (w * h));
    raw.set([frame * 120, 80, 200 - frame * 60, 255], i * 4);
  }
  return sharp(raw, { raw: { width: w, height: h * frames, channels: 4, pageHeight: h } })
    .gif()
    .toBuffer();
}

async function openSettings(section: string): Promise<void> {
  const p = page();
  if ((await p.getByRole('navigation', { name: 'Settings sections' }).count()) === 0) {
    await p.getByRole('banner').getByRole('button', { name: 'Settings' }).click();
  }
  await p
    .getByRole('navigation', { name: 'Settings sections' })
    .getByRole('button', { name: section, exact: true })
    .click();
  await p.getByRole('region', { name: section }).waitFor();
}

const pane = (section: string) => page().getByRole('region', { name: section });

async function shoot(name: string): Promise<void> {
  for (const scheme of ['light', 'dark'] as const) {
    await page().emulateMedia({ colorScheme: scheme });
    await page().screenshot({ path: join(SHOTS, `personal-${name}-${scheme}.png`) });
  }
  await page().emulateMedia({ colorScheme: 'light' });
}

describe('personal settings', () => {
  it('lists the personal screens as the public web app groups them', async () => {
    // Settings' stylesheets come with Settings, not with the chat's first screen; then they apply.
    const settingsRules = () =>
      page().evaluate(() =>
        [...document.styleSheets].some((sheet) =>
          [...sheet.cssRules].some(
            (rule) => rule instanceof CSSStyleRule && rule.selectorText.includes('.settings-nav'),
          ),
        ),
      );
    expect(await settingsRules()).toBe(false);
    await page().getByRole('banner').getByRole('button', { name: 'Settings' }).click();
    const nav = page().getByRole('navigation', { name: 'Settings sections' });
    await nav.waitFor();
    expect(await settingsRules()).toBe(true);
    expect(await nav.evaluate((el) => getComputedStyle(el).flexBasis)).toBe('220px');
    const names = await nav
      .locator('.settings-nav-group')
      .first()
      .getByRole('button')
      .allTextContents();
    expect(names).toEqual(
      expect.arrayContaining([
        'Profile',
        'Account & privacy',
        'Preferences',
        'Alert words',
        'Muted users',
      ]),
    );
  });

  it('shows animated previews still unless they always play, and plays them on hover', async () => {
    const form = new FormData();
    form.append(
      'file',
      new Blob([new Uint8Array(await animatedGif())], { type: 'image/gif' }),
      'spinner.gif',
    );
    const upload = await client('emma').multipart('/user_uploads', form);
    expect(upload.status, upload.text).toBe(200);
    await sendAs('emma', 'animated', `[spinner.gif](${upload.body.url as string})`);
    await openTopic(page(), 'general', 'animated');
    const img = page().getByTestId('message').last().locator('img[data-animated="true"]');
    await img.waitFor();
    const src = () => img.getAttribute('src');
    // The default, "on hover": the still thumbnail, playing while pointed at.
    await expect.poll(src).toMatch(/\/840x560\.webp$/);
    expect(await img.getAttribute('data-animated-src')).toMatch(/\/840x560-anim\.webp$/);
    await page().screenshot({ path: join(SHOTS, 'personal-animated-still-light.png') });
    await img.hover();
    await expect.poll(src).toMatch(/-anim\.webp$/);
    await page().mouse.move(1, 1);
    await expect.poll(src).toMatch(/\/840x560\.webp$/);

    await patchOwner({ web_animate_image_previews: 'always' });
    await expect.poll(src).toMatch(/-anim\.webp$/);
    await patchOwner({ web_animate_image_previews: 'never' });
    await expect.poll(src).toMatch(/\/840x560\.webp$/);
    await img.hover();
    // Never in the list: the hover handler (run as the pointer arrived) left the still in place.
    expect(await img.getAttribute('data-still-src')).toBeNull();
    expect(await src()).toMatch(/\/840x560\.webp$/);
    await page().mouse.move(1, 1);
    await patchOwner({ web_animate_image_previews: 'on_hover' });
  });

  it('switches to 24-hour times, both ways, and the message list follows', async () => {
    const id = await sendAs('emma', 'clock', 'what time is it');
    await openTopic(page(), 'general', 'clock');
    const time = messageWithText(page(), 'what time is it').locator('.sender-line time');
    await expect.poll(() => time.textContent()).toMatch(/(AM|PM)$/);

    await openSettings('Preferences');
    await pane('Preferences')
      .getByLabel('Time format')
      .selectOption({ label: '24-hour clock (17:00)' });
    await expect.poll(async () => (await ownerSettings()).twenty_four_hour_time).toBe(true);
    await shoot('preferences');

    // The time zone is the user's record: saved, and answered by a realm_user event.
    await pane('Preferences').getByLabel('Time zone').selectOption('Europe/Paris');
    await expect
      .poll(async () => (await client('owner').get('/users/me')).body.timezone)
      .toBe('Europe/Paris');
    await expect
      .poll(() => pane('Preferences').getByLabel('Time zone').inputValue())
      .toBe('Europe/Paris');

    await openTopic(page(), 'general', 'clock');
    await expect.poll(() => time.textContent()).toMatch(/^\d{2}:\d{2}$/);
    expect(id).toBeGreaterThan(0);

    // Changed elsewhere: the screen follows the server's event.
    await patchOwner({ twenty_four_hour_time: false });
    await openSettings('Preferences');
    await expect.poll(() => pane('Preferences').getByLabel('Time format').inputValue()).toBe('12');
  });

  it('sends a channel click where web_channel_default_view says', async () => {
    await sendAs('emma', 'newest topic', 'the freshest words');
    const sidebarGeneral = page()
      .getByRole('navigation', { name: 'Conversations' })
      .getByRole('button', { name: /^#general\b/ });
    const heading = page().getByRole('main').getByRole('heading', { level: 1 });

    await openSettings('Preferences');
    await pane('Preferences')
      .getByLabel('Channel links in the left sidebar go to')
      .selectOption({ label: 'Channel feed' });
    await expect.poll(async () => (await ownerSettings()).web_channel_default_view).toBe(2);
    await closeSettings(page());
    await sidebarGeneral.click();
    await expect.poll(() => heading.textContent()).toBe('#general');

    await openSettings('Preferences');
    await pane('Preferences')
      .getByLabel('Channel links in the left sidebar go to')
      .selectOption({ label: 'Top topic in the channel' });
    await expect.poll(async () => (await ownerSettings()).web_channel_default_view).toBe(1);
    await closeSettings(page());
    await sidebarGeneral.click();
    await expect.poll(() => heading.textContent()).toBe('#general > newest topic');
  });

  it('starts on the home view the user chose', async () => {
    await openSettings('Preferences');
    await pane('Preferences')
      .getByRole('combobox', { name: /^Home view/ })
      .selectOption({ label: 'Recent conversations' });
    await expect.poll(async () => (await ownerSettings()).web_home_view).toBe('recent_topics');
    // A launch reopens the conversation left open (the local cache); one left on the Inbox opens
    // the home view.
    await closeSettings(page());
    await page()
      .getByRole('navigation', { name: 'Conversations' })
      .getByRole('button', { name: /^Inbox/ })
      .click();
    await page().getByRole('main').getByRole('heading', { name: 'Inbox' }).waitFor();
    await page().reload();
    await page().getByRole('navigation', { name: 'Conversations' }).waitFor();
    await page().getByRole('main').getByRole('heading', { name: 'Recent conversations' }).waitFor();

    await patchOwner({ web_home_view: 'inbox' });
    await page().reload();
    await page().getByRole('navigation', { name: 'Conversations' }).waitFor();
    await page().getByRole('main').getByRole('heading', { name: 'Inbox' }).waitFor();
  });

  it('draws the user list in the chosen style', async () => {
    const people = page().getByRole('complementary', { name: 'People' });
    await people.waitFor();
    const emma = people.getByRole('button', { name: /Emma Member/ });
    await expect.poll(() => emma.locator('.user-list-avatar').count()).toBe(1);
    await openSettings('Preferences');
    await pane('Preferences').getByLabel('User list style').selectOption({ label: 'Compact' });
    await expect.poll(async () => (await ownerSettings()).user_list_style).toBe(1);
    await expect.poll(() => emma.locator('.user-list-avatar').count()).toBe(0);
    await patchOwner({ user_list_style: 3 });
    await expect.poll(() => emma.locator('.user-list-avatar').count()).toBe(1);
  });

  it('adds and deletes alert words; a message with one is flagged', async () => {
    await openSettings('Alert words');
    const screen = pane('Alert words');
    await screen.getByLabel('New alert word').fill('lighthouse');
    await screen.getByRole('button', { name: 'Add alert word' }).click();
    await screen.getByRole('cell', { name: 'lighthouse', exact: true }).waitFor();
    const words = async () =>
      (await client('owner').get('/users/me/alert_words')).body.alert_words as string[];
    await expect.poll(words).toEqual(['lighthouse']);

    // Refused before sending: already there (in any case).
    await screen.getByLabel('New alert word').fill('LightHouse');
    await screen.getByRole('button', { name: 'Add alert word' }).click();
    await screen.getByRole('alert').filter({ hasText: 'already an alert word' }).waitFor();

    const id = await sendAs('emma', 'coast', 'the Lighthouse is lit');
    const flags = (await client('owner').get(`/messages/${id}`)).body.message.flags as string[];
    expect(flags).toContain('has_alert_word');
    // The word is marked in the message, as in the public web app.
    await openTopic(page(), 'general', 'coast');
    const marked = messageWithText(page(), 'is lit').locator('.content .alert-word');
    await expect.poll(() => marked.textContent()).toBe('Lighthouse');
    await page().screenshot({ path: join(SHOTS, 'personal-alert-word-message-light.png') });
    await openSettings('Alert words');

    // Added by another client: the list follows the event.
    await client('owner').post('/users/me/alert_words', { alert_words: ['harbour'] });
    await screen.getByRole('cell', { name: 'harbour', exact: true }).waitFor();
    await shoot('alert-words');

    await screen.getByRole('button', { name: 'Delete alert word lighthouse' }).click();
    await expect.poll(words).toEqual(['harbour']);
    await screen
      .getByRole('cell', { name: 'lighthouse', exact: true })
      .waitFor({ state: 'detached' });
  });

  it("hides a muted user's messages until revealed, and unmutes from the screen", async () => {
    const emmaId = session.realm.user('emma').user_id;
    await sendAs('emma', 'muted talk', 'a secret from emma');
    const muted = await client('owner').post(`/users/me/muted_users/${emmaId}`);
    expect(muted.status, muted.text).toBe(200);

    // Their direct-message conversation leaves the sidebar too.
    const dmRow = page()
      .getByRole('navigation', { name: 'Conversations' })
      .getByRole('region', { name: 'Direct messages' })
      .getByRole('button', { name: /^Emma Member\b/ });
    await dmRow.waitFor({ state: 'detached' });

    await openTopic(page(), 'general', 'muted talk');
    const row = page().getByTestId('message').filter({ hasText: 'This message was hidden' });
    await row.waitFor();
    expect(await row.textContent()).not.toContain('a secret from emma');
    expect(await row.locator('.sender').textContent()).toBe('Muted user');
    await page().screenshot({ path: join(SHOTS, 'personal-muted-message-light.png') });
    await row.getByRole('button', { name: 'Click here to reveal.' }).click();
    await messageWithText(page(), 'a secret from emma').waitFor();

    await openSettings('Muted users');
    await pane('Muted users').getByRole('cell', { name: 'Emma Member', exact: true }).waitFor();
    await shoot('muted-users');
    await pane('Muted users').getByRole('button', { name: 'Unmute Emma Member' }).click();
    await pane('Muted users').getByText('You have not muted any users.').waitFor();
    await dmRow.waitFor();
    const state = await client('owner').post('/register', { fetch_event_types: ['muted_users'] });
    expect(state.body.muted_users).toEqual([]);
  });

  it('changes name, avatar and a custom profile field on the server', async () => {
    await openSettings('Profile');
    const screen = pane('Profile');
    await screen.getByLabel('Name').fill('Olivia Q. Owner');
    await screen.getByLabel('Name').press('Enter');
    const me = async () =>
      (await client('owner').get('/users/me', { include_custom_profile_fields: true })).body as {
        full_name: string;
        avatar_url: string;
        profile_data: Record<string, { value: string }>;
      };
    await expect.poll(async () => (await me()).full_name).toBe('Olivia Q. Owner');

    // Validated before sending.
    await screen.getByLabel('Name').fill('   ');
    await screen.getByLabel('Name').press('Enter');
    await screen.getByRole('alert').filter({ hasText: 'Your name must have' }).waitFor();
    // The invalid name stays in the field until corrected; Esc puts back the saved one.
    await screen.getByLabel('Name').press('Escape');
    await expect(screen.getByLabel('Name').inputValue()).resolves.toBe('Olivia Q. Owner');

    const png = encodePng(64, 64, (x, y) => [x * 4, y * 4, 160, 255]);
    await screen.getByLabel('Avatar image').setInputFiles({
      name: 'me.png',
      mimeType: 'image/png',
      buffer: png,
    });
    await expect.poll(async () => (await me()).avatar_url).toMatch(/^\/user_avatars\/1\//);
    await screen.locator('img.profile-avatar-image').waitFor();

    const fields = (
      await client('owner').post('/register', { fetch_event_types: ['custom_profile_fields'] })
    ).body.custom_profile_fields as Array<{ id: number; name: string }>;
    const pronouns = fields.find((f) => f.name === 'Pronouns')!;
    const input = screen.getByLabel('Pronouns');
    await expect.poll(() => input.inputValue()).toBe('she/her');
    await input.fill('they/them');
    await input.press('Enter');
    await expect
      .poll(async () => (await me()).profile_data[String(pronouns.id)]?.value)
      .toBe('they/them');

    // Changed by another client: the screen follows the realm_user event.
    const about = fields.find((f) => f.name === 'About me')!;
    const elsewhere = await client('owner').patch('/users/me/profile_data', {
      data: [{ id: about.id, value: 'Written elsewhere' }],
    });
    expect(elsewhere.status, elsewhere.text).toBe(200);
    await expect.poll(() => screen.getByLabel('About me').inputValue()).toBe('Written elsewhere');

    // A people field: add someone by email, then remove them.
    const mentor = fields.find((f) => f.name === 'Mentor')!;
    const mentorValue = async () => (await me()).profile_data[String(mentor.id)]?.value;
    const emma = session.realm.user('emma');
    await screen.getByLabel('Add a person to Mentor').fill(emma.email);
    await expect.poll(mentorValue).toBe(JSON.stringify([emma.user_id]));
    await screen.getByRole('button', { name: 'Remove Emma Member from Mentor' }).waitFor();
    await shoot('profile');
    await screen.getByRole('button', { name: 'Remove Emma Member from Mentor' }).click();
    await expect.poll(mentorValue).toBeUndefined();

    await screen.getByRole('button', { name: 'Delete avatar' }).click();
    await expect.poll(async () => (await me()).avatar_url).toMatch(/gravatar/);
  });

  it('shows the API key once, after the password, and keeps it nowhere', async () => {
    await openSettings('Account & privacy');
    const screen = pane('Account & privacy');
    await screen.getByRole('button', { name: 'Manage your API key' }).click();
    await screen.getByLabel('Your password').fill('not-my-password');
    await screen.getByRole('button', { name: 'Get API key' }).click();
    await screen.getByRole('alert').waitFor();
    // The wrong password signed nothing out: the app still talks to the server.
    await expect(screen.getByLabel('API key', { exact: true }).count()).resolves.toBe(0);

    const owner = session.realm.user('owner');
    await screen.getByLabel('Your password').fill(owner.password!);
    await screen.getByRole('button', { name: 'Get API key' }).click();
    const key = screen.getByLabel('API key', { exact: true });
    await expect.poll(() => key.inputValue()).toBe(owner.api_key);
    await shoot('account');
    await screen.getByRole('button', { name: 'Hide' }).click();
    await expect(screen.getByLabel('API key', { exact: true }).count()).resolves.toBe(0);
    // Not in the page's storage either.
    const stored = await page().evaluate(() =>
      JSON.stringify({ ...localStorage, ...sessionStorage }),
    );
    expect(stored).not.toContain(owner.api_key);

    // A privacy setting round-trips too.
    await screen.getByLabel('Let others see when I’ve read messages').click();
    await expect.poll(async () => (await ownerSettings()).send_read_receipts).toBe(false);
    await patchOwner({ send_read_receipts: true });
    await expect
      .poll(() => screen.getByLabel('Let others see when I’ve read messages').isChecked())
      .toBe(true);
  });
});
