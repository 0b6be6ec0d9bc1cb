// Desktop notifications, the title's unread count and Settings > Notifications in the real app
// (browser mode, Chromium) against the real local realm server. The browser context is granted the
// notification permission, and an init script wraps window.Notification so that every notification
// the page shows is recorded while the real one is still shown.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import {
  launchChromium,
  realmClient,
  startApp,
  startRealm,
  type App,
  type Realm,
} from './support/app';
import { messageWithText, type PageWindow } from './support/ui';

interface Recorded {
  title: string;
  body: string;
  tag: string;
}

declare const window: {
  tributary: PageWindow['tributary'];
  Notification: typeof Notification;
  __notifications: Recorded[];
  __notificationObjects: Array<{ onclick: ((this: unknown, ev: unknown) => unknown) | null }>;
  __tones: number[];
  AudioContext: { prototype: { createOscillator(): Oscillator } };
};
interface Oscillator {
  frequency: { value: number };
  start(when?: number): void;
}
declare const document: { title: string; hasFocus(): boolean };
declare class Notification {
  constructor(title: string, options?: { body?: string; tag?: string });
  static readonly permission: string;
  onclick: ((this: unknown, ev: unknown) => unknown) | null;
}

/** Records each notification and sound the page makes, then makes the real one. */
function recordNotifications() {
  const Real = window.Notification;
  window.__notifications = [];
  window.__notificationObjects = [];
  class Recording extends Real {
    constructor(title: string, options?: { body?: string; tag?: string }) {
      super(title, options);
      window.__notifications.push({
        title,
        body: options?.body ?? '',
        tag: options?.tag ?? '',
      });
      window.__notificationObjects.push(this);
    }
  }
  window.Notification = Recording;
  // Sounds: every tone the page starts, by frequency (the real oscillator still plays it).
  window.__tones = [];
  const createOscillator = window.AudioContext.prototype.createOscillator;
  window.AudioContext.prototype.createOscillator = function (this: unknown) {
    const oscillator = createOscillator.call(this);
    const start = oscillator.start.bind(oscillator);
    oscillator.start = (when?: number) => {
      window.__tones.push(oscillator.frequency.value);
      start(when);
    };
    return oscillator;
  };
}

let realm: Realm;
let app: App;
let browser: Browser;
let context: BrowserContext;
let page: Page;

const recorded = () => page.evaluate(() => window.__notifications);
const tones = () => page.evaluate(() => window.__tones.length);

async function waitForNotification(match: (n: Recorded) => boolean): Promise<Recorded> {
  await expect.poll(async () => (await recorded()).some(match), { timeout: 15_000 }).toBe(true);
  return (await recorded()).find(match)!;
}

/** Clicks a recorded notification as the system would (its onclick handler). */
async function clickNotification(shown: Recorded): Promise<void> {
  const index = (await recorded()).findIndex((n) => n.tag === shown.tag);
  await page.evaluate((i) => {
    const clicked = window.__notificationObjects[i];
    clicked.onclick?.call(clicked, {});
  }, index);
}

async function sendDm(from: string, content: string): Promise<number> {
  const owner = realm.user('owner');
  const res = await realmClient(realm, from).post('/messages', {
    type: 'direct',
    to: [owner.user_id],
    content,
  });
  expect(res.status).toBe(200);
  return res.body.id as number;
}

async function sendToChannel(
  from: string,
  channel: string,
  topic: string,
  content: string,
): Promise<void> {
  const res = await realmClient(realm, from).post('/messages', {
    type: 'stream',
    to: channel,
    topic,
    content,
  });
  expect(res.status).toBe(200);
}

const nav = () => page.getByRole('navigation', { name: 'Conversations' });

async function ownerSettings(): Promise<Record<string, unknown>> {
  const res = await realmClient(realm, 'owner').post('/register', {
    fetch_event_types: ['user_settings'],
  });
  return res.body.user_settings as Record<string, unknown>;
}

beforeAll(async () => {
  realm = await startRealm();
  app = await startApp(realm, 'owner');
  // Sounds may start without a click first, as in the desktop app.
  browser = await launchChromium(['--autoplay-policy=no-user-gesture-required']);
  context = await browser.newContext({
    viewport: { width: 1280, height: 860 },
    permissions: ['notifications'],
  });
  await context.addInitScript(recordNotifications);
  page = await context.newPage();
  await page.goto(app.url);
  await nav().waitFor();
});

afterAll(async () => {
  await browser?.close();
  await app?.close();
  await realm?.close();
});

describe('desktop notifications in browser mode', () => {
  it('a direct message notifies with its sender and text; clicking opens the conversation', async () => {
    expect(await page.evaluate(() => Notification.permission)).toBe('granted');
    await sendDm('emma', 'Lunch at **noon**? :tada:');
    const shown = await waitForNotification((n) => n.body.startsWith('Lunch at noon?'));
    expect(shown.title).toBe('Emma Member (to you)');
    expect(shown.body).toBe('Lunch at noon? 🎉');
    // With the default sound, "zulip": its two tones.
    expect(await tones()).toBe(2);

    await clickNotification(shown);
    await page.getByRole('heading', { name: 'Emma Member', exact: true }).waitFor();
    await messageWithText(page, 'Lunch at noon?').waitFor();
  });

  it('nothing while that conversation is open in the focused window; others still notify', async () => {
    // Still in Emma's conversation (opened by the click above), in a window that has the focus.
    await page.getByRole('heading', { name: 'Emma Member', exact: true }).waitFor();
    expect(await page.evaluate(() => document.hasFocus())).toBe(true);
    await sendDm('emma', 'While you are reading this');
    await messageWithText(page, 'While you are reading this').waitFor();
    // Farid's message comes after Emma's: once his notification is here, hers would have been.
    await sendDm('farid', 'A word from Farid');
    const farid = await waitForNotification((n) => n.body === 'A word from Farid');
    expect(farid.title).toBe('Farid Member (to you)');
    expect((await recorded()).some((n) => n.body === 'While you are reading this')).toBe(false);
  });

  it('a mention in a channel notifies with the channel and topic', async () => {
    await sendToChannel('dev', 'general', 'notify e2e', '@**Olivia Owner** can you look?');
    const shown = await waitForNotification((n) => n.body === '@Olivia Owner can you look?');
    expect(shown.title).toBe('Dev Member (#general > notify e2e)');
  });
});

describe('a channel’s own override', () => {
  it('desktop notifications turned on for one channel: its messages notify, other channels’ not', async () => {
    await nav().getByRole('button', { name: 'Channel #design options' }).click();
    await page.getByRole('menuitem', { name: 'Channel settings' }).click();
    const settings = page.getByRole('article', { name: 'Settings for #design' });
    await settings
      .getByRole('combobox', { name: 'Visual desktop notifications' })
      .selectOption('on');
    await expect
      .poll(async () => {
        const res = await realmClient(realm, 'owner').get('/users/me/subscriptions');
        const subs = res.body.subscriptions as Array<{
          name: string;
          desktop_notifications: boolean | null;
        }>;
        return subs.find((sub) => sub.name === 'design')?.desktop_notifications;
      })
      .toBe(true);

    // Not in "notify e2e", which Olivia follows since she was mentioned there.
    await sendToChannel('dev', 'general', 'quiet corner', 'Nothing special in general');
    await sendToChannel('dev', 'design', 'colours', 'Teal or blue?');
    const shown = await waitForNotification((n) => n.body === 'Teal or blue?');
    expect(shown.title).toBe('Dev Member (#design > colours)');
    expect((await recorded()).some((n) => n.body === 'Nothing special in general')).toBe(false);
    // The channel's settings opened the channel browser over the window: closed again.
    await page.getByRole('button', { name: 'Close channels' }).click();
    await page.getByRole('dialog', { name: 'Channels' }).waitFor({ state: 'detached' });
  });
});

describe('the title follows desktop_icon_count_display', () => {
  /** Unread DMs and mentions as the server reports them (not as the page counts them). */
  async function serverDmAndMentionCount(): Promise<number> {
    const res = await realmClient(realm, 'owner').post('/register', {
      fetch_event_types: ['message', 'update_message_flags'],
    });
    const unread = res.body.unread_msgs as {
      pms: Array<{ unread_message_ids: number[] }>;
      huddles: Array<{ unread_message_ids: number[] }>;
      mentions: number[];
    };
    const ids = new Set<number>(unread.mentions);
    for (const entry of [...unread.pms, ...unread.huddles])
      for (const id of entry.unread_message_ids) ids.add(id);
    return ids.size;
  }

  const title = () => page.evaluate(() => document.title);

  it('counts all unread messages, then DMs and mentions, then nothing', async () => {
    await page.getByRole('button', { name: 'Settings', exact: true }).click();
    await page.getByRole('button', { name: 'Notifications', exact: true }).click();
    const badge = page.getByRole('combobox', { name: /Unread count badge/ });
    await expect.poll(title).toMatch(/^\(\d+\) Tributary$/);

    await badge.selectOption({ label: 'DMs and mentions' });
    await expect.poll(async () => (await ownerSettings()).desktop_icon_count_display).toBe(3);
    const expected = await serverDmAndMentionCount();
    expect(expected).toBeGreaterThan(0);
    await expect.poll(title).toBe(`(${expected}) Tributary`);

    // One more DM adds one.
    await sendDm('farid', 'Counting on you');
    await expect.poll(title).toBe(`(${expected + 1}) Tributary`);

    await badge.selectOption({ label: 'None' });
    await expect.poll(async () => (await ownerSettings()).desktop_icon_count_display).toBe(4);
    await expect.poll(title).toBe('Tributary');
  });
});

describe('Settings > Notifications', () => {
  it('saves to the server, follows changes made elsewhere, and sends a test notification', async () => {
    const section = page.getByRole('region', { name: 'Notifications' });
    await section.waitFor();
    await page.screenshot({ path: '/tmp/notify-settings.png' });

    const dmDesktop = section.getByRole('checkbox', { name: 'DMs, mentions, and alerts: desktop' });
    expect(await dmDesktop.isChecked()).toBe(true);
    // Controlled by the server's value: the box changes when the server's event comes back.
    await dmDesktop.click();
    await expect.poll(async () => (await ownerSettings()).enable_desktop_notifications).toBe(false);
    await section.getByRole('checkbox', { name: 'Channels: desktop' }).click();
    await expect
      .poll(async () => (await ownerSettings()).enable_stream_desktop_notifications)
      .toBe(true);

    // Another client changes settings: the screen follows the server's events.
    const elsewhere = await realmClient(realm, 'owner').patch('/settings', {
      pm_content_in_desktop_notifications: false,
      notification_sound: 'ding',
    });
    expect(elsewhere.status).toBe(200);
    const content = section.getByRole('checkbox', {
      name: 'Include content of direct messages in desktop notifications',
    });
    await expect.poll(() => content.isChecked()).toBe(false);
    await expect
      .poll(() => section.getByRole('combobox', { name: /Notification sound/ }).inputValue())
      .toBe('ding');

    await section.getByRole('button', { name: 'Send a test notification' }).click();
    const test = await waitForNotification((n) => n.title === 'Notification Bot');
    // DM content is hidden now, as for a direct message.
    expect(test.body).toBe('New direct message from Notification Bot');

    // With DM notifications off, a direct message no longer pops up (but still plays the sound:
    // enable_sounds is on), while channel messages do (Channels: desktop is on, audible off): the
    // channel message, sent after the DM to a topic nobody follows, is the witness.
    const tonesBefore = await tones();
    await sendDm('emma', 'Quiet please');
    await sendToChannel('dev', 'general', 'chatter', 'Channel chatter');
    await waitForNotification((n) => n.body === 'Channel chatter');
    expect(
      (await recorded()).some((n) => n.title.startsWith('Emma Member') && n.body.includes('Quiet')),
    ).toBe(false);
    expect((await recorded()).some((n) => n.body === 'New direct message from Emma Member')).toBe(
      false,
    );
    const tonesAfterDing = await tones();
    expect(tonesAfterDing).toBeGreaterThan(tonesBefore);

    // The sound "none" silences everything.
    await section.getByRole('combobox', { name: /Notification sound/ }).selectOption('none');
    await expect.poll(async () => (await ownerSettings()).notification_sound).toBe('none');
    await sendDm('farid', 'Silent please');
    await sendToChannel('dev', 'general', 'chatter', 'More channel chatter');
    await waitForNotification((n) => n.body === 'More channel chatter');
    expect(await tones()).toBe(tonesAfterDing);
  });
});

describe('several accounts', () => {
  it('counts every account in the title, names the account, and a click on another account’s notification switches to it', async () => {
    const emma = realm.user('emma');
    const second = await app.host.services.addAccount({
      site: realm.url,
      email: emma.email,
      apiKey: emma.api_key,
      allowWeakEncryption: true,
    });
    const accounts = page.getByRole('navigation', { name: 'Accounts' });
    await accounts
      .getByRole('button', { name: `${emma.full_name} at ${second.realmName}`, exact: true })
      .waitFor();
    expect(await page.evaluate(() => window.tributary.listAccounts({}))).toMatchObject({
      activeAccountId: app.accountId,
    });
    // The title adds up every account, each by its own setting: Olivia's is None by now, Emma's
    // the default (all unread messages, as the server counts them).
    const emmaUnread = (
      await realmClient(realm, 'emma').post('/register', {
        fetch_event_types: ['message', 'update_message_flags'],
      })
    ).body.unread_msgs.count as number;
    expect(emmaUnread).toBeGreaterThan(0);
    await expect.poll(() => page.evaluate(() => document.title)).toBe(`(${emmaUnread}) Tributary`);

    const res = await realmClient(realm, 'farid').post('/messages', {
      type: 'direct',
      to: [emma.user_id],
      content: 'Emma, a word',
    });
    expect(res.status).toBe(200);
    const shown = await waitForNotification((n) => n.body === 'Emma, a word');
    // Both accounts are on one realm: the account is named by its email too.
    expect(shown.title).toBe(`Farid Member (to you) · ${second.realmName} (${emma.email})`);

    await clickNotification(shown);
    await expect
      .poll(
        async () => (await page.evaluate(() => window.tributary.listAccounts({}))).activeAccountId,
      )
      .toBe(second.id);
    await page.getByRole('heading', { name: 'Farid Member', exact: true }).waitFor();
    await messageWithText(page, 'Emma, a word').waitFor();
  });
});
