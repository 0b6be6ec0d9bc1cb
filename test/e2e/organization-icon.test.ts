// The organization icon in real Chromium against the real local server (browser mode): the owner
// picks an image on Organization profile, sees it previewed, uploads it, and the icon shows through
// the media route on the profile and the account switcher; a member's window follows live (and has
// no upload control), an event queue over HTTP gets the realm update_dict event; removing it brings
// back the letter everywhere.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdirSync } from 'node:fs';
import type { Locator, Page } from 'playwright-core';
import sharp from 'sharp';
import { appSession, openApp, realmClient, startApp, type App } from './support/app';
import { registerQueue, type TestQueue } from '../support/events';

const SHOTS = 'test-results/organization-icon';
const session = appSession('owner');
let queue: TestQueue;
let memberApp: App;
let member: Page;

beforeAll(async () => {
  mkdirSync(SHOTS, { recursive: true });
  queue = await registerQueue(realmClient(session.realm, 'emma'), {
    event_types: JSON.stringify(['realm']),
  });
  memberApp = await startApp(session.realm, 'dev');
  member = await openApp(session.browser, memberApp);
}, 120_000);
afterAll(async () => {
  await memberApp?.close();
});

async function openProfile(page: Page): Promise<Locator> {
  await page.getByRole('button', { name: 'Settings', exact: true }).click();
  await page
    .getByRole('navigation', { name: 'Settings sections' })
    .getByRole('button', { name: 'Organization profile', exact: true })
    .click();
  const profile = page.getByRole('region', { name: 'Organization profile', exact: true });
  await profile.waitFor();
  return profile;
}

/** The width the browser decoded the shown image at: 0 until (unless) it loaded. */
const loadedWidth = (image: Locator) =>
  image.evaluate((img) => (img as HTMLImageElement).naturalWidth);

const iconImage = (profile: Locator) =>
  profile.getByRole('group', { name: 'Organization icon' }).locator('img.org-profile-icon');
const switcherImage = (page: Page) =>
  page.getByRole('navigation', { name: 'Accounts' }).locator('img.realm-initial');

/**
 * A 240×160 image: a green square with a white wave between two orange bands (the crop keeps the
 * square).
 */
async function logo(): Promise<Buffer> {
  const wave = Buffer.from(
    '<svg xmlns="http://www.w3.org/2000/svg" width="160" height="160">' +
      '<rect width="160" height="160" fill="#28a05a"/>' +
      '<path d="M20 95 Q50 55 80 95 T140 95" stroke="#fff" stroke-width="16" fill="none"/></svg>',
  );
  const square = await sharp(wave).png().toBuffer();
  return sharp({
    create: { width: 240, height: 160, channels: 3, background: { r: 240, g: 140, b: 20 } },
  })
    .composite([{ input: square, left: 40, top: 0 }])
    .png()
    .toBuffer();
}

describe('organization icon', () => {
  it('the owner previews and uploads an icon; a member sees it live', async () => {
    const profile = await openProfile(session.page);
    const memberProfile = await openProfile(member);
    // The default icon is the server's identicon, not fetched: the letter stands in.
    await expect(iconImage(profile).count()).resolves.toBe(0);
    await expect(switcherImage(session.page).count()).resolves.toBe(0);
    await expect(memberProfile.getByText('Upload icon').count()).resolves.toBe(0);

    // Something that is not an image: the server's refusal shows where it was asked.
    await profile.getByLabel('Upload icon').setInputFiles({
      name: 'notes.png',
      mimeType: 'image/png',
      buffer: Buffer.from('not an image at all'),
    });
    await profile.getByRole('button', { name: 'Save icon' }).click();
    await profile.getByRole('alert').getByText('Invalid image format').waitFor();
    await profile.getByRole('button', { name: 'Cancel' }).click();
    await expect.poll(() => profile.getByRole('alert').count()).toBe(0);

    await profile.getByLabel('Upload icon').setInputFiles({
      name: 'logo.png',
      mimeType: 'image/png',
      buffer: await logo(),
    });
    const preview = profile.getByRole('img', { name: 'Preview of the new icon' });
    await preview.waitFor();
    // Nothing is sent before "Save icon".
    await expect(queue.poll()).resolves.toEqual([]);
    await session.page.screenshot({ path: `${SHOTS}/preview.png` });
    await profile.getByRole('button', { name: 'Save icon' }).click();

    const event = await queue.waitFor((e) => e.type === 'realm' && e.op === 'update_dict');
    expect(event).toMatchObject({ property: 'icon', data: { icon_source: 'U' } });
    expect(event.data.icon_url).toMatch(/^\/user_avatars\/1\/realm\/icon\.png\?version=\d+$/);

    // Shown through the media route, as the 100 px square the server made.
    for (const image of [
      iconImage(profile),
      switcherImage(session.page),
      iconImage(memberProfile),
      switcherImage(member),
    ]) {
      await expect.poll(() => loadedWidth(image)).toBe(100);
      expect(await image.getAttribute('src')).toMatch(/^\/media\/[^/]+\/user_avatars\/1\/realm\//);
    }
    await expect(profile.getByRole('button', { name: 'Remove icon' }).isVisible()).resolves.toBe(
      true,
    );
    await session.page.screenshot({ path: `${SHOTS}/uploaded.png` });
    // The member reads it and has no control to change it.
    await expect(memberProfile.getByText('Upload icon').count()).resolves.toBe(0);
    await expect(memberProfile.getByRole('button', { name: 'Remove icon' }).count()).resolves.toBe(
      0,
    );
    await member.screenshot({ path: `${SHOTS}/member.png` });
  });

  it('the owner removes the icon; everyone is back to the letter', async () => {
    const profile = session.page.getByRole('region', { name: 'Organization profile', exact: true });
    await profile.getByRole('button', { name: 'Remove icon' }).click();
    const event = await queue.waitFor((e) => e.type === 'realm' && e.op === 'update_dict');
    expect(event).toMatchObject({ property: 'icon', data: { icon_source: 'G' } });
    await expect.poll(() => iconImage(profile).count()).toBe(0);
    await expect.poll(() => switcherImage(member).count()).toBe(0);
    await expect(profile.getByRole('button', { name: 'Remove icon' }).count()).resolves.toBe(0);
  });
});
