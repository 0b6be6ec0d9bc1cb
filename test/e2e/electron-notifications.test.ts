// Notifications, the badge and the tray in the desktop app itself, where the Electron runtime is
// installed (skipped elsewhere, like electron.test.ts): main shows a system notification for a
// direct message (recorded by wrapping Notification.prototype.show in the main process, which still
// shows it), the dock/launcher count and the window title follow the unread count, and the tray's
// minimise preference is offered and kept.
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { _electron, type ElectronApplication, type Page } from 'playwright-core';
import { ensureBuilt, realmClient, startRealm, type Realm } from './support/app';
import { credentialsPath } from '../../server/seed/credentials';
import type { PageWindow } from './support/ui';

declare const window: PageWindow;

const ELECTRON = join(process.cwd(), 'node_modules/electron/dist/electron');
const hasElectron = existsSync(ELECTRON);

describe.skipIf(!hasElectron)('desktop notifications, badge and tray (Electron)', () => {
  let realm: Realm;
  let app: ElectronApplication;
  let page: Page;
  let dataDir: string;

  beforeAll(async () => {
    await ensureBuilt();
    realm = await startRealm();
    dataDir = mkdtempSync(join(tmpdir(), 'tributary-e2e-electron-notify-'));
    app = await _electron.launch({
      executablePath: ELECTRON,
      args: [
        join(process.cwd(), 'dist/electron/main.cjs'),
        '--no-sandbox',
        '--data',
        dataDir,
        '--local-realm',
        realm.url,
        '--local-realm-credentials',
        credentialsPath(realm.dir),
      ],
    });
    await app.evaluate(({ app: electronApp, Notification }) => {
      const shown: Array<{ title: string; body: string }> = [];
      (globalThis as { __shown?: typeof shown }).__shown = shown;
      // Linux has a launcher badge only under Unity: what main asks for is what is checked.
      const setBadgeCount = electronApp.setBadgeCount.bind(electronApp);
      electronApp.setBadgeCount = (count?: number) => {
        (globalThis as { __badge?: number }).__badge = count;
        return setBadgeCount(count);
      };
      const show = Notification.prototype.show;
      Notification.prototype.show = function (this: Electron.Notification) {
        shown.push({ title: this.title, body: this.body });
        return show.call(this);
      };
    });
    page = await app.firstWindow();
    await page.getByRole('navigation', { name: 'Conversations' }).waitFor();
  });

  afterAll(async () => {
    await app?.close();
    await realm?.close();
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  });

  const shown = () =>
    app.evaluate(
      () => (globalThis as { __shown?: Array<{ title: string; body: string }> }).__shown ?? [],
    );

  it('shows a system notification from main for a direct message', async () => {
    const owner = realm.user('owner');
    const res = await realmClient(realm, 'emma').post('/messages', {
      type: 'direct',
      to: [owner.user_id],
      content: 'Hello from Emma to the desktop',
    });
    expect(res.status).toBe(200);
    await expect
      .poll(async () => (await shown()).find((n) => n.body === 'Hello from Emma to the desktop'), {
        timeout: 15_000,
      })
      .toEqual({ title: 'Emma Member (to you)', body: 'Hello from Emma to the desktop' });
  });

  it('the badge count and the window title follow the unread count', async () => {
    await expect.poll(() => page.title()).toMatch(/^\(\d+\) Tributary$/);
    const count = Number(/^\((\d+)\)/.exec(await page.title())![1]);
    const badge = () => app.evaluate(() => (globalThis as { __badge?: number }).__badge);
    // Windows shows an overlay on the taskbar button instead of a count.
    if (process.platform !== 'win32') await expect.poll(badge).toBe(count);
    const windowTitle = await app.evaluate(({ BrowserWindow }) =>
      BrowserWindow.getAllWindows()[0].getTitle(),
    );
    expect(windowTitle).toBe(`(${count}) Tributary`);
  });

  it('offers minimise to tray and keeps the choice', async () => {
    const before = await page.evaluate(() => window.tributary.getDesktopPreferences({}));
    expect(before).toMatchObject({
      supports: { tray: true },
      preferences: { minimizeToTray: false },
    });
    await page.getByRole('button', { name: 'Settings', exact: true }).click();
    await page.getByRole('button', { name: 'Notifications', exact: true }).click();
    await page.getByRole('checkbox', { name: 'Minimise to the tray (this computer only)' }).click();
    await expect
      .poll(() => page.evaluate(() => window.tributary.getDesktopPreferences({})))
      .toMatchObject({ supports: { tray: true }, preferences: { minimizeToTray: true } });
  });
});
