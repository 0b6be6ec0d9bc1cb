// Notifications, the unread badge and the tray in the main process, with Electron mocked as in
// shell.test.ts: system notifications and their clicks, the badge per platform (dock count, Windows
// overlay, macOS tray title), the tray's menu (show, accounts, quit), minimise-to-tray as a stored
// preference, browser mode's answer that the page shows notifications, and the generated icons.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

const electron = vi.hoisted(() => {
  type Listener = () => void;
  const notifications: Array<{
    options: Record<string, unknown>;
    listeners: Record<string, Listener>;
    shown: boolean;
    closed: boolean;
  }> = [];
  class Notification {
    static isSupported = () => true;
    listeners: Record<string, Listener> = {};
    shown = false;
    closed = false;
    constructor(readonly options: Record<string, unknown>) {
      notifications.push(this);
    }
    on(event: string, listener: Listener) {
      this.listeners[event] = listener;
      return this;
    }
    show() {
      this.shown = true;
    }
    close() {
      this.closed = true;
      this.listeners.close?.();
    }
  }
  const trays: Tray[] = [];
  class Tray {
    tooltip = '';
    title = '';
    image: unknown;
    menu: Array<Record<string, unknown>> = [];
    listeners: Record<string, Listener> = {};
    destroyed = false;
    constructor(image: unknown) {
      this.image = image;
      trays.push(this);
    }
    setToolTip(text: string) {
      this.tooltip = text;
    }
    setTitle(text: string) {
      this.title = text;
    }
    setImage(image: unknown) {
      this.image = image;
    }
    setContextMenu(menu: { items: Array<Record<string, unknown>> }) {
      this.menu = menu.items;
    }
    on(event: string, listener: Listener) {
      this.listeners[event] = listener;
    }
    destroy() {
      this.destroyed = true;
    }
  }
  const images: Array<{ representations: Array<{ width: number; buffer: Buffer }> }> = [];
  const nativeImage = {
    createEmpty: () => {
      const image = {
        representations: [] as Array<{ width: number; buffer: Buffer }>,
        addRepresentation(rep: { width: number; buffer: Buffer }) {
          image.representations.push(rep);
        },
      };
      images.push(image);
      return image;
    },
  };
  return {
    notifications,
    trays,
    images,
    Notification,
    Tray,
    nativeImage,
    app: { setBadgeCount: vi.fn(), quit: vi.fn() },
    Menu: { buildFromTemplate: (items: Array<Record<string, unknown>>) => ({ items }) },
  };
});
vi.mock('electron', () => ({
  app: electron.app,
  Menu: electron.Menu,
  Notification: electron.Notification,
  Tray: electron.Tray,
  nativeImage: electron.nativeImage,
}));

import { DesktopBridge } from '../../electron/notifications/desktop-bridge';
import { installTrayAndBadge } from '../../electron/shell/tray-and-badge';
import { DesktopShell } from '../../electron/shell/desktop-shell';
import { appIconBitmap, unreadOverlayBitmap } from '../../electron/shell/tray-icon';
import { createDispatcher } from '../../electron/ipc/dispatch';
import type { MethodHandlers, PushName } from '../../shared/ipc/contract';
import type { AccountsChanged } from '../../shared/ipc/accounts';

let dir: string;
let pushes: Array<[PushName, unknown]>;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'tributary-notify-'));
  pushes = [];
  electron.notifications.splice(0);
  electron.trays.splice(0);
  electron.app.setBadgeCount.mockClear();
  electron.app.quit.mockClear();
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

const push = (channel: PushName, payload: unknown) => {
  pushes.push([channel, payload]);
};
const bridge = () => new DesktopBridge({ push });
/** The desktop preferences (minimise to tray among them), stored in the data folder. */
const preferences = () => new DesktopShell({ dataDir: dir, push });

const TARGET = { kind: 'topic' as const, streamId: 3, topic: 'lunch', messageId: 42 };

function accounts(active = 'a1'): AccountsChanged {
  return {
    activeAccountId: active,
    accounts: ['a1', 'b2'].map((id, i) => ({
      id,
      site: `http://127.0.0.1:${9000 + i}`,
      email: `me@${id}.test`,
      userId: 1,
      realmName: i === 0 ? 'Acme' : 'Beta',
      featureLevel: 400,
      secretBackend: 'file-0600',
      connection: { status: 'live', queueId: 'q' },
    })) as AccountsChanged['accounts'],
  };
}

function fakeWindow() {
  const listeners: Record<string, () => void> = {};
  return {
    listeners,
    on: vi.fn((event: string, listener: () => void) => (listeners[event] = listener)),
    isDestroyed: () => false,
    isMinimized: vi.fn(() => true),
    restore: vi.fn(),
    show: vi.fn(),
    focus: vi.fn(),
    hide: vi.fn(),
    setOverlayIcon: vi.fn(),
  };
}

function shell(platform: NodeJS.Platform = 'linux') {
  const desktop = bridge();
  const prefs = preferences();
  const services = {
    desktop,
    listAccounts: vi.fn(() => accounts()),
    switchAccount: vi.fn((id: string) => accounts(id)),
    minimizeToTray: () => prefs.state().preferences.minimizeToTray,
  };
  const installed = installTrayAndBadge(services, platform);
  const window = fakeWindow();
  installed.attachWindow(window as never);
  return { desktop, prefs, services, installed, window, tray: electron.trays[0] };
}

describe('browser mode (nothing attached)', () => {
  it('answers that the page shows notifications, and keeps the count for a later runtime', () => {
    const desktop = bridge();
    expect(
      desktop.handlers.showNotification({
        accountId: 'a1',
        title: 't',
        body: 'b',
        tag: 'x',
        target: TARGET,
      }),
    ).toEqual({
      shownBy: 'page',
    });
    desktop.handlers.setUnreadBadge({ count: 5 });
    expect(desktop.currentUnreadCount).toBe(5);
    // No tray in browser mode: the preference is offered only where a tray exists.
    expect(preferences().state().supports.tray).toBe(false);
  });

  it('refuses a malformed notification payload before any handler runs', async () => {
    const dispatch = createDispatcher(bridge().handlers as unknown as MethodHandlers);
    const bad = await dispatch('showNotification', {
      accountId: 'a1',
      title: 't',
      body: 'b',
      tag: 'x',
      target: { kind: 'topic', streamId: 'three' },
    });
    expect(bad).toMatchObject({ ok: false, error: { code: 'INVALID_PAYLOAD' } });
    const good = await dispatch('showNotification', {
      accountId: 'a1',
      title: 't',
      body: 'b',
      tag: 'x',
      target: TARGET,
    });
    expect(good).toEqual({ ok: true, value: { shownBy: 'page' } });
  });
});

describe('system notifications (Electron)', () => {
  it('shows a silent system notification; a click focuses the window and opens the conversation', () => {
    const { desktop, window } = shell();
    const answer = desktop.handlers.showNotification({
      accountId: 'a1',
      title: 'Olivia Owner (to you)',
      body: 'hello',
      tag: 'message-42',
      target: TARGET,
    });
    expect(answer).toEqual({ shownBy: 'main' });
    const [shown] = electron.notifications;
    expect(shown.options).toEqual({ title: 'Olivia Owner (to you)', body: 'hello', silent: true });
    expect(shown.shown).toBe(true);
    expect(desktop.openNotifications).toBe(1);
    shown.listeners.click();
    expect(window.restore).toHaveBeenCalled();
    expect(window.show).toHaveBeenCalled();
    expect(window.focus).toHaveBeenCalled();
    expect(pushes).toEqual([['notificationClicked', { accountId: 'a1', target: TARGET }]]);
    expect(desktop.openNotifications).toBe(0);
  });

  it('replaces a notification with the same tag and closes all at quit', () => {
    const { desktop } = shell();
    const show = (tag: string) =>
      desktop.handlers.showNotification({
        accountId: 'a1',
        title: 't',
        body: 'b',
        tag,
        target: TARGET,
      });
    show('m1');
    show('m1');
    show('m2');
    expect(electron.notifications.map((n) => n.closed)).toEqual([true, false, false]);
    expect(desktop.openNotifications).toBe(2);
    desktop.closeAll();
    expect(electron.notifications.every((n) => n.closed)).toBe(true);
  });
});

describe('unread badge and tray', () => {
  it('Linux and macOS: the dock/launcher count, the tray tooltip and icon with a dot', () => {
    const { desktop, tray } = shell('linux');
    const plain = tray.image;
    desktop.handlers.setUnreadBadge({ count: 3 });
    expect(electron.app.setBadgeCount).toHaveBeenLastCalledWith(3);
    expect(tray.tooltip).toBe('Tributary: 3 unread');
    expect(tray.image).not.toBe(plain);
    desktop.handlers.setUnreadBadge({ count: 0 });
    expect(electron.app.setBadgeCount).toHaveBeenLastCalledWith(0);
    expect(tray.tooltip).toBe('Tributary');
    expect(tray.image).toBe(plain);
  });

  it('macOS also shows the count beside the menu-bar icon', () => {
    const { desktop, tray } = shell('darwin');
    desktop.handlers.setUnreadBadge({ count: 12 });
    expect(tray.title).toBe('12');
  });

  it('Windows: an overlay on the taskbar button instead of a badge count', () => {
    const { desktop, window } = shell('win32');
    desktop.handlers.setUnreadBadge({ count: 2 });
    expect(electron.app.setBadgeCount).not.toHaveBeenCalled();
    const [image, description] = window.setOverlayIcon.mock.calls.at(-1)!;
    expect(image).not.toBeNull();
    expect(description).toBe('Tributary: 2 unread');
    desktop.handlers.setUnreadBadge({ count: 0 });
    expect(window.setOverlayIcon.mock.calls.at(-1)).toEqual([null, '']);
  });

  it('the tray menu: show, the accounts (switching one), quit; rebuilt when accounts change', () => {
    const { services, installed, tray, window } = shell();
    const labels = tray.menu.map((item) => item.label ?? item.type);
    expect(labels).toEqual([
      'Show Tributary',
      'separator',
      'Accounts',
      'Acme (me@a1.test)',
      'Beta (me@b2.test)',
      'separator',
      'Quit',
    ]);
    expect(tray.menu[3].checked).toBe(true);
    (tray.menu[4].click as () => void)();
    expect(services.switchAccount).toHaveBeenCalledWith('b2');
    expect(window.focus).toHaveBeenCalled();
    (tray.menu[0].click as () => void)();
    expect(window.show).toHaveBeenCalledTimes(2);
    (tray.menu.at(-1)!.click as () => void)();
    expect(electron.app.quit).toHaveBeenCalled();
    services.listAccounts.mockClear();
    installed.onPush('presence');
    expect(services.listAccounts).not.toHaveBeenCalled();
    installed.onPush('accounts');
    expect(services.listAccounts).toHaveBeenCalled();
  });

  it('minimise to tray: a stored preference; minimising hides the window only when it is on', () => {
    const { prefs, window } = shell();
    expect(prefs.state().preferences.minimizeToTray).toBe(false);
    window.listeners.minimize();
    expect(window.hide).not.toHaveBeenCalled();
    expect(prefs.update({ minimizeToTray: true }).preferences.minimizeToTray).toBe(true);
    window.listeners.minimize();
    expect(window.hide).toHaveBeenCalledTimes(1);
    // Kept on this computer with the other desktop preferences, read again at the next start.
    expect(JSON.parse(readFileSync(join(dir, 'desktop-preferences.json'), 'utf8'))).toMatchObject({
      minimizeToTray: true,
    });
    expect(preferences().state().preferences.minimizeToTray).toBe(true);
  });
});

describe('generated icons', () => {
  it('draws the tile opaque inside, transparent at the rounded corners, the dot red', () => {
    const size = 32;
    const pixel = (bitmap: Buffer, x: number, y: number, width = size) => [
      ...bitmap.subarray((y * width + x) * 4, (y * width + x) * 4 + 4),
    ];
    const plain = appIconBitmap(size);
    expect(plain.length).toBe(size * size * 4);
    expect(pixel(plain, 0, 0)[3]).toBe(0);
    expect(pixel(plain, 16, 28)[3]).toBe(255);
    // The stream below the junction is white.
    expect(pixel(plain, 16, 22)).toEqual([255, 255, 255, 255]);
    const dotted = appIconBitmap(size, true);
    const [b, g, r, a] = pixel(dotted, 25, 7);
    expect(a).toBe(255);
    expect(r).toBeGreaterThan(200);
    expect(g).toBeLessThan(80);
    expect(b).toBeLessThan(80);
    const overlay = unreadOverlayBitmap(16);
    expect(pixel(overlay, 8, 8, 16)[3]).toBe(255);
    expect(pixel(overlay, 0, 0, 16)[3]).toBe(0);
  });
});
