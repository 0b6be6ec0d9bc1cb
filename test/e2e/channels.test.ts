// Channels for everyone, in real Chromium against the real local server (browser mode), signed in
// as a member (dev): browsing, subscribing and unsubscribing from the browser, creating a channel
// with an initial subscriber, personal settings (colour, pin), adding a person, and the create
// button going away when the realm stops letting members create channels. Second clients over
// HTTP (another user, and a second queue of the same user) see the events.
import { beforeAll, describe, expect, it } from 'vitest';
import { mkdirSync } from 'node:fs';
import { appSession, realmClient } from './support/app';
import { registerQueue, type TestQueue } from '../support/events';

// The page's globals as code passed to evaluate sees them (e2e files compile without DOM types).
declare function getComputedStyle(el: unknown): { backgroundColor: string };

const SHOTS = 'test-results/channels';

const session = appSession('dev');
const client = (who: string) => realmClient(session.realm, who);
let emmaQueue: TestQueue;
let devQueue: TestQueue;

beforeAll(async () => {
  // A public channel dev is not in, for the browser to offer.
  const made = await client('owner').post('/users/me/subscriptions', {
    subscriptions: JSON.stringify([{ name: 'book-club', description: 'Reading *together*.' }]),
  });
  expect(made.body.result).toBe('success');
  emmaQueue = await registerQueue(client('emma'), { event_types: '["subscription"]' });
  devQueue = await registerQueue(client('dev'), { event_types: '["subscription"]' });
  mkdirSync(SHOTS, { recursive: true });
});

const sidebar = () => session.page.getByRole('navigation', { name: 'Conversations' });
const sidebarChannel = (name: string) =>
  sidebar().getByRole('button', { name: new RegExp(`^#${name}\\b`) });
const browserRow = (name: string) => session.page.getByTestId(`browse-${name}`);

async function openBrowser(): Promise<void> {
  const heading = session.page.getByRole('heading', { name: 'Channels', level: 1 });
  // The browser covers the window (the sidebar with it): a test may leave it open.
  if ((await heading.count()) === 0)
    await sidebar().getByRole('button', { name: 'Browse channels' }).click();
  await heading.waitFor();
}

describe('channels for everyone', () => {
  it('browses, subscribes (the sidebar shows it) and unsubscribes', async () => {
    await openBrowser();
    await session.page.getByRole('tab', { name: 'All channels' }).click();
    await browserRow('book-club').waitFor();
    await expect(browserRow('book-club').locator('em').textContent()).resolves.toBe('together');
    await session.page.getByRole('searchbox', { name: 'Filter channels' }).fill('book');
    await expect(browserRow('general').count()).resolves.toBe(0);
    await session.page.screenshot({ path: `${SHOTS}/browser.png` });

    await session.page.getByRole('button', { name: 'Subscribe to #book-club' }).click();
    await sidebarChannel('book-club').waitFor();
    await session.page.getByRole('button', { name: 'Unsubscribe from #book-club' }).click();
    await sidebarChannel('book-club').waitFor({ state: 'detached' });
    await session.page.getByRole('button', { name: 'Subscribe to #book-club' }).waitFor();

    // An unsubscribed public channel opens as a preview of its messages.
    const bookClub = (await client('owner').get('/get_stream_id', { stream: 'book-club' })).body
      .stream_id as number;
    await client('owner').post('/messages', {
      type: 'stream',
      to: bookClub,
      topic: 'chapter one',
      content: 'Who finished it?',
    });
    await browserRow('book-club')
      .getByRole('button', { name: 'Public channel book-club', exact: true })
      .click();
    await session.page.getByTestId('message').filter({ hasText: 'Who finished it?' }).waitFor();
    await openBrowser();
  });

  it('creates a channel with another person subscribed from the start', async () => {
    await session.page.getByRole('button', { name: 'Create channel' }).click();
    const form = session.page.getByRole('form', { name: 'Create channel' });
    await form.getByLabel('Channel name').fill('general');
    await form.getByRole('button', { name: 'Create' }).click();
    await form.getByRole('alert').filter({ hasText: 'already exists' }).waitFor();

    await form.getByLabel('Channel name').fill('field-trips');
    await form.getByLabel('Channel description').fill('Where we go next');
    await form.getByRole('radio', { name: /Private/ }).check();
    await form.getByRole('combobox', { name: 'Initial subscribers' }).fill('emma');
    await form.getByRole('listbox').getByRole('option', { name: /Emma/ }).click();
    await session.page.screenshot({ path: `${SHOTS}/create.png` });
    await form.getByRole('button', { name: 'Create' }).click();

    await sidebarChannel('field-trips').waitFor();
    const added = await emmaQueue.waitFor((e) => e.type === 'subscription' && e.op === 'add');
    expect(added.subscriptions[0]).toMatchObject({ name: 'field-trips', invite_only: true });
    // The new channel's settings open beside the list.
    await session.page.getByRole('article', { name: 'Settings for #field-trips' }).waitFor();
  });

  it('changes the colour and pins the channel; another queue of the same user hears it', async () => {
    const settings = session.page.getByRole('article', { name: 'Settings for #field-trips' });
    await settings.getByRole('radio', { name: 'Color #e4523d' }).click();
    // A click, not check(): the box shows the server's state, which the update event brings.
    await settings.getByRole('checkbox', { name: 'Pin channel to top of left sidebar' }).click();
    const pinned = sidebar().getByRole('region', { name: 'Pinned channels' });
    await pinned.getByRole('button', { name: /^#field-trips/ }).waitFor();
    await expect(
      pinned
        .locator('[data-testid="channel-field-trips"] .swatch')
        .evaluate((el) => getComputedStyle(el).backgroundColor),
    ).resolves.toBe('rgb(228, 82, 61)');
    const color = await devQueue.waitFor(
      (e) => e.type === 'subscription' && e.op === 'update' && e.property === 'color',
    );
    expect(color.value).toBe('#e4523d');
    await devQueue.waitFor(
      (e) => e.type === 'subscription' && e.op === 'update' && e.property === 'pin_to_top',
    );
    await settings.getByRole('combobox', { name: 'Email notifications' }).selectOption('on');
    const email = await devQueue.waitFor(
      (e) => e.type === 'subscription' && e.op === 'update' && e.property === 'email_notifications',
    );
    expect(email.value).toBe(true);
    await session.page.screenshot({ path: `${SHOTS}/settings.png` });
  });

  it('adds a person to the channel, from the settings its sidebar menu opens', async () => {
    // Esc in the empty filter leaves the browser; the sidebar row's menu opens the settings again.
    await session.page.getByRole('searchbox', { name: 'Filter channels' }).fill('');
    await session.page.getByRole('searchbox', { name: 'Filter channels' }).press('Escape');
    await session.page
      .getByRole('heading', { name: 'Channels', level: 1 })
      .waitFor({ state: 'detached' });
    await sidebar().getByRole('button', { name: 'Channel #field-trips options' }).click();
    await session.page.getByRole('menuitem', { name: 'Channel settings' }).click();
    const settings = session.page.getByRole('article', { name: 'Settings for #field-trips' });
    await settings.getByRole('tab', { name: 'Subscribers' }).click();
    await settings.getByRole('combobox', { name: 'Add subscribers' }).fill('farid');
    await settings.getByRole('listbox').getByRole('option', { name: /Farid/ }).click();
    await settings.getByRole('button', { name: 'Add', exact: true }).click();
    await settings.getByRole('status').filter({ hasText: 'Added 1 person' }).waitFor();
    await settings.getByRole('list', { name: 'Subscribers' }).getByText(/Farid/).waitFor();
    await session.page.screenshot({ path: `${SHOTS}/subscribers.png` });
    const farid = await client('farid').get('/users/me/subscriptions');
    expect(farid.body.subscriptions.map((s: { name: string }) => s.name)).toContain('field-trips');
  });

  it('hides the create button from a member the realm does not allow, and the server refuses', async () => {
    await openBrowser();
    await session.page.getByRole('button', { name: 'Create channel' }).waitFor();
    const groups = (
      await client('owner').post('/register', {
        fetch_event_types: '["realm_user_groups"]',
      })
    ).body.realm_user_groups as Array<{ id: number; name: string }>;
    const admins = groups.find((g) => g.name === 'role:administrators')!.id;
    const changed = await client('owner').patch('/realm', {
      can_create_public_channel_group: JSON.stringify({ new: admins }),
      can_create_private_channel_group: JSON.stringify({ new: admins }),
    });
    expect(changed.body.result).toBe('success');
    // The realm event reaches the open app: the button goes without a reload.
    await session.page
      .getByRole('button', { name: 'Create channel' })
      .waitFor({ state: 'detached' });
    await session.page.screenshot({ path: `${SHOTS}/not-allowed.png` });
    const refused = await client('dev').post('/users/me/subscriptions', {
      subscriptions: JSON.stringify([{ name: 'sneaky' }]),
    });
    expect(refused.status).toBe(400);
    expect(refused.body.result).toBe('error');
  });
});

describe('a long channel list (virtualized past 100 channels)', () => {
  it('filters in place, and the open channel with its topics never has the next row over it', async () => {
    const { page } = session;
    // Close the channel browser a test may have left open: its filter empty, then Esc.
    const browserFilter = page.getByRole('searchbox', { name: 'Filter channels' });
    if ((await browserFilter.count()) > 0) {
      await browserFilter.fill('');
      await browserFilter.press('Escape');
      await page
        .getByRole('heading', { name: 'Channels', level: 1 })
        .waitFor({ state: 'detached' });
    }
    const dev = (await client('dev').get('/users/me')).body.user_id as number;
    const names = Array.from({ length: 110 }, (_, i) => `shelf-${String(i).padStart(3, '0')}`);
    // The server makes at most 100 new channels a request.
    for (let from = 0; from < names.length; from += 55) {
      const made = await client('owner').post('/users/me/subscriptions', {
        subscriptions: JSON.stringify(names.slice(from, from + 55).map((name) => ({ name }))),
        principals: JSON.stringify([dev]),
      });
      expect(made.body.result).toBe('success');
    }
    const shelf12 = (await client('owner').get('/get_stream_id', { stream: 'shelf-012' })).body
      .stream_id as number;
    for (const topic of ['first', 'second', 'third'])
      await client('owner').post('/messages', {
        type: 'stream',
        to: shelf12,
        topic,
        content: `A message in ${topic}.`,
      });
    await sidebar().locator('.virtual-rows').waitFor();

    const filter = sidebar().getByRole('searchbox', { name: 'Filter sidebar channels' });
    await filter.fill('shelf');
    // The list follows the letter in a transition, and its rows are reused: a click before it has
    // followed would open whichever channel the row shows by then.
    await sidebarChannel('general').waitFor({ state: 'detached' });
    await sidebarChannel('shelf-012').click();
    const topics = sidebar().getByRole('list', { name: 'Topics in #shelf-012' });
    await topics.getByRole('button', { name: /^third/ }).waitFor();
    const row = (name: string) => sidebar().getByTestId(`channel-${name}`);
    /** How far the next row's top is below the open channel's topics (negative: over them). */
    const gapBelowTopics = async (next: string) => {
      const [list, below] = await Promise.all([topics.boundingBox(), row(next).boundingBox()]);
      return Math.round(below!.y - (list!.y + list!.height));
    };
    await expect.poll(() => gapBelowTopics('shelf-013')).toBeGreaterThanOrEqual(0);

    // Marked, so the same element can be told apart from a new one after the next keys.
    await row('shelf-002').evaluate((el) => el.setAttribute('data-e2e-mark', 'slot-2'));
    // The open channel moves from the 13th row to the 3rd, an element that showed #shelf-002.
    await filter.fill('shelf-01');
    await expect.poll(() => row('shelf-012').getAttribute('data-e2e-mark')).toBe('slot-2');
    await expect(row('shelf-002').count()).resolves.toBe(0);
    await topics.getByRole('button', { name: /^third/ }).waitFor();
    await expect.poll(() => gapBelowTopics('shelf-013')).toBeGreaterThanOrEqual(0);
    await page.screenshot({ path: `${SHOTS}/long-list-filtered.png` });

    // Back to every channel: the open one is measured in its old place again.
    await filter.press('Escape');
    await expect.poll(() => filter.inputValue()).toBe('');
    await expect.poll(() => gapBelowTopics('shelf-013')).toBeGreaterThanOrEqual(0);
  });
});
