// The desktop shell's parts that browser mode runs too, end to end (real local realm server, real
// browser-mode host, Chromium): a deep link given at launch or to the running app opens its
// conversation at its message, switching to the account on the linked server; a link to a server
// with no account opens sign-in with it; Settings > Desktop keeps the proxy in main's preferences
// file and marks what only the desktop app applies; the menu's commands reach the page.
import { readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { encodeHashComponent } from '../../shared/narrow/link';
import { launchChromium, openApp, startApp, startRealm, type App, type Realm } from './support/app';
import { messageWithText } from './support/ui';

let realm: Realm;
let app: App;
let browser: Browser;
let page: Page;

interface Target {
  channelId: number;
  channel: string;
  topic: string;
  messageId: number;
  content: string;
}

/** An old message in #random: its topic is not the view the app opens on. */
function oldMessage(channel: string): Target {
  const row = realm.server.db
    .prepare(
      `SELECT m.id, m.topic, m.content, c.id AS channel_id FROM messages m
       JOIN channels c ON c.id = m.channel_id WHERE c.name = ? ORDER BY m.id LIMIT 1`,
    )
    .get(channel) as { id: number; topic: string; content: string; channel_id: number };
  return {
    channelId: row.channel_id,
    channel,
    topic: row.topic,
    messageId: row.id,
    content: row.content.split('\n')[0]!.slice(0, 30),
  };
}

function linkTo(host: string, target: Target): string {
  return (
    `tributary://${host}/#narrow/channel/${target.channelId}-${encodeHashComponent(target.channel)}` +
    `/topic/${encodeHashComponent(target.topic)}/near/${target.messageId}`
  );
}

const heading = (target: Target) =>
  page.getByRole('heading', { name: `#${target.channel} > ${target.topic}` });

beforeAll(async () => {
  realm = await startRealm();
  app = await startApp(realm, 'owner');
  browser = await launchChromium();
}, 180_000);

afterAll(async () => {
  await browser?.close();
  await app?.close();
  await realm?.close();
});

describe('deep links (browser mode)', () => {
  it('opens a link given at launch once the page loads', async () => {
    const target = oldMessage('random');
    expect(app.host.services.shell.requestOpenLink(linkTo(`127.0.0.1:${realm.port}`, target))).toBe(
      true,
    );
    page = await openApp(browser, app);
    await heading(target).waitFor();
    await messageWithText(page, target.content).first().waitFor();
  });

  it('opens a zulip:// link sent to the running app, switching to the account on that server', async () => {
    // The same realm under another name is another server to the app: a second account.
    const other = realm.user('emma');
    const second = await app.host.services.addAccount({
      site: `http://localhost:${realm.port}`,
      email: other.email,
      apiKey: other.api_key,
      allowWeakEncryption: true,
    });
    await app.host.services.switchAccount(app.accountId);
    const target = oldMessage('general');
    app.host.services.shell.requestOpenLink(
      linkTo(`localhost:${realm.port}`, target).replace('tributary:', 'zulip:'),
    );
    await heading(target).waitFor();
    await expect.poll(() => app.host.services.listAccounts().activeAccountId).toBe(second.id);
    await messageWithText(page, target.content).first().waitFor();
  });

  it('opens sign-in for a server without an account, with its address filled in', async () => {
    app.host.services.shell.requestOpenLink('tributary://chat.example.com/#narrow/channel/1-x');
    await expect
      .poll(() =>
        page
          .getByRole('textbox', { name: /server/i })
          .first()
          .inputValue(),
      )
      .toBe('https://chat.example.com');
  });
});

describe('Settings > Desktop (browser mode)', () => {
  it('keeps a manual proxy in main’s preferences and marks the desktop-only options', async () => {
    page = await openApp(browser, app);
    await page.getByRole('button', { name: 'Settings', exact: true }).click();
    await page
      .getByRole('navigation', { name: 'Settings sections' })
      .getByRole('button', { name: 'Desktop' })
      .click();
    const screen = page.getByRole('region', { name: 'Desktop' });
    await screen.getByText('running in browser mode').waitFor();
    expect(
      await screen.getByRole('checkbox', { name: /Start Tributary when I log in/ }).isDisabled(),
    ).toBe(true);
    expect(await screen.getByRole('button', { name: 'Zoom in' }).isDisabled()).toBe(true);
    expect(await screen.getByText('Desktop app only').count()).toBeGreaterThanOrEqual(2);

    await screen.getByRole('radio', { name: 'Manual proxy' }).check();
    await screen.getByRole('textbox', { name: 'Proxy URL' }).fill('http://proxy.example.com:3128');
    await screen.getByRole('textbox', { name: 'No proxy for' }).fill('localhost, 127.0.0.1');
    await screen.getByRole('button', { name: 'Save proxy' }).click();
    await expect
      .poll(() => {
        try {
          return JSON.parse(readFileSync(join(app.dataDir, 'desktop-preferences.json'), 'utf8'))
            .proxy;
        } catch {
          return null;
        }
      })
      .toEqual({
        mode: 'manual',
        url: 'http://proxy.example.com:3128',
        bypass: 'localhost, 127.0.0.1',
      });
    await page.screenshot({ path: join(tmpdir(), 'tributary-desktop-settings.png') });
    expect(await screen.getByRole('button', { name: 'Save proxy' }).isDisabled()).toBe(true);
    await app.host.services.shell.handlers.setDesktopPreferences({
      proxy: { mode: 'system', url: '', bypass: '' },
    });
    // A change made in main (another window, the menu) reaches the open screen.
    await expect
      .poll(() => screen.getByRole('radio', { name: /system proxy variables/ }).isChecked())
      .toBe(true);
  });
});

describe('menu commands (browser mode runs them as the desktop menu sends them)', () => {
  it('Help > Keyboard Shortcuts shows the page’s overlay; Settings… opens Settings > Desktop', async () => {
    page = await openApp(browser, app);
    app.host.services.shell.sendCommand('showShortcuts');
    await page.getByRole('dialog', { name: 'Keyboard shortcuts' }).waitFor();
    await page.keyboard.press('Escape');
    app.host.services.shell.sendCommand('openDesktopSettings');
    await page
      .getByRole('region', { name: 'Desktop' })
      .getByRole('heading', { name: 'Desktop', exact: true })
      .waitFor();
  });
});
