// Settings > Organization's custom emoji, linkifiers, code playgrounds, allowed domains and custom
// profile fields in real Chromium against the real local server. The owner drives each screen; a
// second client sees every change: an API event queue gets the realm's event, and a second window
// (the same owner's, or a member's) shows it without a reload. A member sees the lists without edit
// controls (and no profile field or domain screen at all), and the server refuses the member's
// direct API calls.
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
import { registerQueue, type TestQueue } from '../support/events';
import { encodePng } from '../../server/seed/png';

const SHOTS = join(tmpdir(), 'tributary-e2e-screenshots');

let realm: Realm;
let ownerApp: App;
let memberApp: App;
let browser: Browser;
/** The owner's window that makes the changes. */
let owner: Page;
/** A second window of the same owner: follows the changes live. */
let ownerTwin: Page;
/** A member's window. */
let member: Page;
/** An administrator's event queue beside the app: the second client's events. */
let adminQueue: TestQueue;

beforeAll(async () => {
  mkdirSync(SHOTS, { recursive: true });
  realm = await startRealm();
  ownerApp = await startApp(realm, 'owner');
  memberApp = await startApp(realm, 'dev');
  browser = await launchChromium();
  owner = await openApp(browser, ownerApp);
  ownerTwin = await openApp(browser, ownerApp);
  member = await openApp(browser, memberApp);
  adminQueue = await registerQueue(realmClient(realm, 'admin'), {
    event_types: [
      'realm_emoji',
      'realm_linkifiers',
      'realm_playgrounds',
      'realm_domains',
      'custom_profile_fields',
    ],
    client_capabilities: { linkifier_url_template: true },
  });
  // Two linkifiers to begin with, so there is an order to change.
  const ownerApi = realmClient(realm, 'owner');
  for (const [pattern, url_template] of [
    ['#(?P<id>[0-9]+)', 'https://github.com/zulip/zulip/issues/{id}'],
    ['PR (?P<id>[0-9]+)', 'https://github.com/zulip/zulip/pull/{id}'],
  ]) {
    const res = await ownerApi.post('/realm/filters', { pattern, url_template });
    if (res.status !== 200) throw new Error(res.text);
  }
  await adminQueue.waitFor((e) => e.type === 'realm_linkifiers');
  await adminQueue.waitFor((e) => e.type === 'realm_linkifiers');
}, 180_000);

afterAll(async () => {
  await browser?.close();
  await ownerApp?.close();
  await memberApp?.close();
  await realm?.close();
});

async function openSettings(page: Page, section: string): Promise<void> {
  const nav = page.getByRole('navigation', { name: 'Settings sections' });
  if (!(await nav.isVisible())) {
    await page.getByRole('button', { name: 'Settings', exact: true }).click();
  }
  await nav.getByRole('button', { name: section, exact: true }).click();
  await page.getByRole('region', { name: section }).waitFor();
}

const screen = (page: Page, name: string) => page.getByRole('region', { name });
const shot = (page: Page, name: string) =>
  page.screenshot({ path: join(SHOTS, `admin-extras-${name}.png`), fullPage: true });

describe('custom emoji', () => {
  it('uploads with a preview and deletes; the member window and the event queue follow', async () => {
    await openSettings(owner, 'Custom emoji');
    await openSettings(member, 'Custom emoji');
    const form = owner.getByRole('form', { name: 'Add a new emoji' });
    await form.getByLabel('Emoji name', { exact: true }).fill('Party Parrot');
    // The public server's rule, said before sending: no uppercase letters.
    await expect
      .poll(() => form.getByText('Emoji names must contain only lowercase').count())
      .toBe(1);
    await form.getByLabel('Emoji name', { exact: true }).fill('party_parrot');
    const png = encodePng(16, 16, (x, y) => ((x + y) % 2 ? [255, 80, 0, 255] : [0, 120, 255, 255]));
    await form.getByLabel('Image', { exact: true }).setInputFiles({
      name: 'parrot.png',
      mimeType: 'image/png',
      buffer: png,
    });
    await form.getByRole('img', { name: 'Preview of :party_parrot:' }).waitFor();
    await shot(owner, 'emoji-form');
    await form.getByRole('button', { name: 'Add emoji' }).click();

    const event = await adminQueue.waitFor((e) => e.type === 'realm_emoji');
    const added = Object.values(
      event.realm_emoji as Record<string, { name: string; deactivated: boolean }>,
    ).find((e) => e.name === 'party_parrot');
    expect(added?.deactivated).toBe(false);
    const row = (page: Page) =>
      screen(page, 'Custom emoji').getByRole('row', { name: ':party_parrot:' });
    await row(owner).waitFor();
    await row(member).getByRole('img', { name: ':party_parrot:' }).waitFor();
    await shot(owner, 'emoji');

    // The member may add emoji (can_add_custom_emoji_group is members) but not delete others'.
    await screen(member, 'Custom emoji').getByRole('form', { name: 'Add a new emoji' }).waitFor();
    expect(
      await row(member)
        .getByRole('button', { name: /Delete/ })
        .count(),
    ).toBe(0);
    const refused = await realmClient(realm, 'dev').delete('/realm/emoji/party_parrot');
    expect(refused.status).toBe(400);
    expect(refused.body.msg).toBe('Must be an organization administrator or emoji author');
    await shot(member, 'emoji-member');

    await row(owner).getByRole('button', { name: 'Delete :party_parrot:' }).click();
    await row(owner).getByRole('button', { name: 'Confirm delete' }).click();
    const removed = await adminQueue.waitFor((e) => e.type === 'realm_emoji');
    expect(
      Object.values(removed.realm_emoji as Record<string, { name: string; deactivated: boolean }>)
        .filter((e) => e.name === 'party_parrot')
        .every((e) => e.deactivated),
    ).toBe(true);
    await row(member).waitFor({ state: 'detached' });
  });
});

describe('linkifiers', () => {
  it('adds with a live test, edits, reorders and deletes; the member sees it live, read-only', async () => {
    await openSettings(owner, 'Linkifiers');
    await openSettings(member, 'Linkifiers');
    const form = owner.getByRole('form', { name: 'Add a new linkifier' });
    await form.getByLabel('Pattern', { exact: true }).fill('TRIB-(?P<id>[0-9]+)');
    await form
      .getByLabel('URL template', { exact: true })
      .fill('https://tracker.example/issue/{id}');
    await form.getByLabel(/Reverse template/).fill('TRIB#{id}');
    await form.getByLabel(/Example input/).fill('TRIB-77');
    const test = form.getByTestId('linkifier-test');
    await expect
      .poll(() => test.textContent())
      .toBe("Reverse template output 'TRIB#77' does not match example_input 'TRIB-77'");
    expect(await form.getByRole('button', { name: 'Add linkifier' }).isDisabled()).toBe(true);
    await form.getByLabel(/Reverse template/).fill('TRIB-{id}');
    await expect.poll(() => test.textContent()).toContain('https://tracker.example/issue/77');
    await shot(owner, 'linkifier-form');
    await form.getByRole('button', { name: 'Add linkifier' }).click();

    const added = await adminQueue.waitFor((e) => e.type === 'realm_linkifiers');
    const created = (added.realm_linkifiers as Array<{ id: number; pattern: string }>).find(
      (l) => l.pattern === 'TRIB-(?P<id>[0-9]+)',
    )!;
    expect(created).toMatchObject({ reverse_template: 'TRIB-{id}', example_input: 'TRIB-77' });
    const row = (page: Page) =>
      screen(page, 'Linkifiers').getByRole('row', { name: 'TRIB-(?P<id>[0-9]+)' });
    await row(member).waitFor();
    await expect.poll(() => form.getByLabel('Pattern', { exact: true }).inputValue()).toBe('');

    // Edit: the new URL reaches the member's window.
    await row(owner).getByRole('button', { name: 'Edit TRIB-(?P<id>[0-9]+)' }).click();
    const edit = owner.getByRole('form', { name: 'Edit linkifier TRIB-(?P<id>[0-9]+)' });
    await edit.getByLabel('URL template', { exact: true }).fill('https://tracker.example/t/{id}');
    await edit.getByRole('button', { name: 'Save changes' }).click();
    await adminQueue.waitFor((e) => e.type === 'realm_linkifiers');
    await row(member).getByText('https://tracker.example/t/{id}').waitFor();

    // Reorder: the new linkifier (last) moves up one place.
    const order = async (page: Page) =>
      screen(page, 'Linkifiers')
        .getByRole('table', { name: 'Linkifier list' })
        .locator('tbody tr code')
        .allTextContents();
    const before = await order(owner);
    expect(before.at(-1)).toBe('TRIB-(?P<id>[0-9]+)');
    await row(owner).getByRole('button', { name: 'Move TRIB-(?P<id>[0-9]+) up' }).click();
    const reordered = await adminQueue.waitFor((e) => e.type === 'realm_linkifiers');
    const expected = [...before];
    [expected[expected.length - 2], expected[expected.length - 1]] = [
      expected[expected.length - 1],
      expected[expected.length - 2],
    ];
    expect(
      (reordered.realm_linkifiers as Array<{ pattern: string }>).map((l) => l.pattern),
    ).toEqual(expected);
    await expect.poll(() => order(member)).toEqual(expected);
    await shot(owner, 'linkifiers');

    // The member: no form, no edit controls; the server refuses a direct call.
    const memberScreen = screen(member, 'Linkifiers');
    expect(await memberScreen.getByRole('form').count()).toBe(0);
    expect(await memberScreen.getByRole('button', { name: /^(Edit|Delete|Move)/ }).count()).toBe(0);
    await memberScreen
      .getByText('Only organization administrators can change linkifiers.')
      .waitFor();
    const refused = await realmClient(realm, 'dev').post('/realm/filters', {
      pattern: 'X-(?P<id>[0-9]+)',
      url_template: 'https://evil.example/{id}',
    });
    expect(refused.status).toBe(400);
    expect(refused.body).toMatchObject({
      code: 'BAD_REQUEST',
      msg: 'Must be an organization administrator',
    });
    await shot(member, 'linkifiers-member');

    await row(owner).getByRole('button', { name: 'Delete TRIB-(?P<id>[0-9]+)' }).click();
    await row(owner).getByRole('button', { name: 'Confirm delete' }).click();
    const deleted = await adminQueue.waitFor((e) => e.type === 'realm_linkifiers');
    expect(deleted.realm_linkifiers.map((l: { id: number }) => l.id)).not.toContain(created.id);
    await row(member).waitFor({ state: 'detached' });
  });

  it('shows the server’s refusal when a request passes the form but not the server', async () => {
    // A second linkifier with the same pattern and URL template is refused by the server only.
    const form = owner.getByRole('form', { name: 'Add a new linkifier' });
    const [first] = (await realmClient(realm, 'owner').get('/realm/linkifiers')).body
      .linkifiers as Array<{ pattern: string; url_template: string }>;
    await form.getByLabel('Pattern', { exact: true }).fill(first.pattern);
    await form.getByLabel('URL template', { exact: true }).fill(first.url_template);
    await form.getByRole('button', { name: 'Add linkifier' }).click();
    await screen(owner, 'Linkifiers')
      .getByRole('alert')
      .getByText('Linkifier with this pattern and URL template already exists. (BAD_REQUEST)')
      .waitFor();
  });
});

describe('code playgrounds', () => {
  it('adds and deletes; the member window follows and has no controls', async () => {
    await openSettings(owner, 'Code playgrounds');
    await openSettings(member, 'Code playgrounds');
    const form = owner.getByRole('form', { name: 'Add a new code playground' });
    await form.getByLabel('Language', { exact: true }).fill('Rust');
    await form.getByLabel('Name', { exact: true }).fill('Rust playground');
    await form
      .getByLabel('URL template', { exact: true })
      .fill('https://play.rust-lang.org/?code={src}');
    await form
      .getByText('Code playground URL template must contain exactly one variable named "code".')
      .waitFor();
    await form
      .getByLabel('URL template', { exact: true })
      .fill('https://play.rust-lang.org/?edition=2021{&code}');
    await form.getByRole('button', { name: 'Add code playground' }).click();
    const added = await adminQueue.waitFor((e) => e.type === 'realm_playgrounds');
    expect(added.realm_playgrounds).toEqual([
      {
        id: expect.any(Number),
        name: 'Rust playground',
        pygments_language: 'Rust',
        url_template: 'https://play.rust-lang.org/?edition=2021{&code}',
      },
    ]);
    const row = (page: Page) =>
      screen(page, 'Code playgrounds').getByRole('row', { name: 'Rust playground' });
    await row(member).waitFor();
    await shot(owner, 'playgrounds');
    expect(await screen(member, 'Code playgrounds').getByRole('form').count()).toBe(0);
    expect(await row(member).getByRole('button').count()).toBe(0);
    const refused = await realmClient(realm, 'dev').delete(
      `/realm/playgrounds/${added.realm_playgrounds[0].id}`,
    );
    expect(refused.status).toBe(400);

    await row(owner).getByRole('button', { name: 'Delete Rust playground' }).click();
    await row(owner).getByRole('button', { name: 'Confirm delete' }).click();
    const removed = await adminQueue.waitFor((e) => e.type === 'realm_playgrounds');
    expect(removed.realm_playgrounds).toEqual([]);
    await row(member).waitFor({ state: 'detached' });
  });
});

describe('allowed domains', () => {
  it('lets the owner add, change and remove; the second window follows; members see no screen', async () => {
    await openSettings(owner, 'Allowed domains');
    await openSettings(ownerTwin, 'Allowed domains');
    const form = owner.getByRole('form', { name: 'Add an allowed domain' });
    await form.getByLabel('Domain', { exact: true }).fill('not a domain');
    await form.getByText('Invalid domain: not a domain').waitFor();
    await form.getByLabel('Domain', { exact: true }).fill('Tributary.Example');
    await form.getByLabel('Allow subdomains', { exact: true }).check();
    await form.getByRole('button', { name: 'Add domain' }).click();
    const added = await adminQueue.waitFor((e) => e.type === 'realm_domains');
    expect(added).toMatchObject({
      op: 'add',
      realm_domain: { domain: 'tributary.example', allow_subdomains: true },
    });
    const box = (page: Page) =>
      screen(page, 'Allowed domains').getByRole('checkbox', {
        name: 'Allow subdomains of tributary.example',
      });
    await expect.poll(() => box(ownerTwin).isChecked()).toBe(true);
    await box(owner).uncheck();
    const changed = await adminQueue.waitFor((e) => e.type === 'realm_domains');
    expect(changed).toMatchObject({ op: 'change', realm_domain: { allow_subdomains: false } });
    await expect.poll(() => box(ownerTwin).isChecked()).toBe(false);
    await shot(owner, 'domains');

    const nav = member.getByRole('navigation', { name: 'Settings sections' });
    expect(await nav.getByRole('button', { name: 'Allowed domains' }).count()).toBe(0);
    const refused = await realmClient(realm, 'admin').delete('/realm/domains/tributary.example');
    expect(refused.body).toMatchObject({
      code: 'BAD_REQUEST',
      msg: 'Must be an organization owner',
    });
    const memberRefused = await realmClient(realm, 'dev').post('/realm/domains', {
      domain: 'evil.example',
      allow_subdomains: false,
    });
    expect(memberRefused.status).toBe(400);

    await screen(owner, 'Allowed domains')
      .getByRole('button', { name: 'Delete tributary.example' })
      .click();
    await screen(owner, 'Allowed domains').getByRole('button', { name: 'Confirm delete' }).click();
    const removed = await adminQueue.waitFor((e) => e.type === 'realm_domains');
    expect(removed).toMatchObject({ op: 'remove', domain: 'tributary.example' });
    await box(ownerTwin).waitFor({ state: 'detached' });
  });
});

describe('custom profile fields', () => {
  it('creates a list-of-options field, edits, reorders and deletes it; the second window follows', async () => {
    await openSettings(owner, 'Custom profile fields');
    await openSettings(ownerTwin, 'Custom profile fields');
    const list = (page: Page) =>
      screen(page, 'Custom profile fields').getByRole('table', {
        name: 'Custom profile field list',
      });
    await screen(owner, 'Custom profile fields')
      .getByRole('button', { name: 'Add a new profile field' })
      .click();
    const form = owner.getByRole('form', { name: 'Add a new profile field' });
    await form.getByRole('combobox', { name: /^Type/ }).selectOption({ label: 'List of options' });
    await form.getByLabel('Label', { exact: true }).fill('Office');
    await form.getByLabel(/Hint/).fill('Where you work from');
    await form.getByLabel('Option 1', { exact: true }).fill('Berlin');
    await form.getByRole('button', { name: 'Add option' }).click();
    await form.getByLabel('Option 2', { exact: true }).fill('Berlin');
    await form.getByText('Field must not have duplicate choices.').waitFor();
    await form.getByLabel('Option 2', { exact: true }).fill('Lima');
    await form.getByLabel('Required', { exact: true }).check();
    await shot(owner, 'profile-field-form');
    await form.getByRole('button', { name: 'Add field' }).click();

    const added = await adminQueue.waitFor((e) => e.type === 'custom_profile_fields');
    const office = (added.fields as Array<Record<string, unknown>>).find(
      (f) => f.name === 'Office',
    )!;
    expect(office).toMatchObject({ type: 3, hint: 'Where you work from', required: true });
    expect(JSON.parse(office.field_data as string)).toEqual({
      '0': { text: 'Berlin', order: '1' },
      '1': { text: 'Lima', order: '2' },
    });
    const row = (page: Page) => list(page).getByRole('row', { name: 'Office' });
    await row(ownerTwin).getByText('List of options').waitFor();

    // A known site's field: the label comes from the site.
    await screen(owner, 'Custom profile fields')
      .getByRole('button', { name: 'Add a new profile field' })
      .click();
    await form.getByRole('combobox', { name: /^Type/ }).selectOption({ label: 'External account' });
    await form.getByLabel('External account type').selectOption({ label: 'Twitter' });
    await form.getByRole('button', { name: 'Add field' }).click();
    await adminQueue.waitFor(
      (e) =>
        e.type === 'custom_profile_fields' &&
        e.fields.some((f: { name: string }) => f.name === 'Twitter username'),
    );
    await list(ownerTwin).getByRole('row', { name: 'Twitter username' }).waitFor();

    await row(owner).getByRole('button', { name: 'Edit Office' }).click();
    const edit = owner.getByRole('form', { name: 'Edit Office' });
    await edit.getByLabel('Label', { exact: true }).fill('Home office');
    await edit.getByRole('button', { name: 'Save changes' }).click();
    const edited = await adminQueue.waitFor(
      (e) =>
        e.type === 'custom_profile_fields' &&
        e.fields.some((f: { name: string }) => f.name === 'Home office'),
    );
    const names = (edited.fields as Array<{ name: string }>).map((f) => f.name);
    await list(ownerTwin).getByRole('row', { name: 'Home office' }).waitFor();

    const homeRow = list(owner).getByRole('row', { name: 'Home office' });
    await homeRow.getByRole('button', { name: 'Move Home office up' }).click();
    const reordered = await adminQueue.waitFor((e) => e.type === 'custom_profile_fields');
    const at = names.indexOf('Home office');
    const expected = [...names];
    [expected[at - 1], expected[at]] = [expected[at], expected[at - 1]];
    expect((reordered.fields as Array<{ name: string }>).map((f) => f.name)).toEqual(expected);
    const firstCells = (page: Page) =>
      list(page)
        .locator('tbody tr[aria-label]')
        .evaluateAll((rows) => rows.map((row) => row.getAttribute('aria-label')));
    await expect.poll(() => firstCells(ownerTwin)).toEqual(expected);
    await shot(owner, 'profile-fields');

    // The member: no such screen, and the server refuses the call.
    const nav = member.getByRole('navigation', { name: 'Settings sections' });
    expect(await nav.getByRole('button', { name: 'Custom profile fields' }).count()).toBe(0);
    const refused = await realmClient(realm, 'dev').post('/realm/profile_fields', {
      name: 'Sneaky',
      field_type: 1,
    });
    expect(refused.body).toMatchObject({
      code: 'BAD_REQUEST',
      msg: 'Must be an organization administrator',
    });

    await homeRow.getByRole('button', { name: 'Delete Home office' }).click();
    await homeRow.getByRole('button', { name: 'Confirm delete' }).click();
    const deleted = await adminQueue.waitFor((e) => e.type === 'custom_profile_fields');
    expect((deleted.fields as Array<{ name: string }>).map((f) => f.name)).not.toContain(
      'Home office',
    );
    await list(ownerTwin).getByRole('row', { name: 'Home office' }).waitFor({ state: 'detached' });
    expect(pageErrors).toEqual([]);
  });
});
