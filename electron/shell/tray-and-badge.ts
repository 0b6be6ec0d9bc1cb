// The desktop integration around the window: system notifications, the dock/taskbar badge (a count
// with app.setBadgeCount, a red overlay on Windows), a tray icon with the count and a menu (show,
// accounts, quit), and minimise-to-tray as a local preference. The renderer decides the count and
// what notifies; this only shows it (electron/notifications/desktop-bridge.ts carries the calls).
import { app, Menu, nativeImage, Notification, Tray } from 'electron';
import type { BrowserWindow, MenuItemConstructorOptions, NativeImage } from 'electron';
import type { AccountsChanged } from '../../shared/ipc/accounts';
import type { PushName } from '../../shared/ipc/contract';
import { APP_NAME } from '../../shared/notifications/badge';
import type { DesktopBridge } from '../notifications/desktop-bridge';
import { appIconBitmap, unreadOverlayBitmap } from './tray-icon';

export interface TrayAndBadgeServices {
  desktop: DesktopBridge;
  /** Whether minimising hides the window to the tray (a desktop preference, read when it happens). */
  minimizeToTray(): boolean;
  listAccounts(): AccountsChanged;
  switchAccount(accountId: string): AccountsChanged;
}

export interface TrayAndBadge {
  /** Follows the main window (minimise to tray, badge overlay); call again for a new window. */
  attachWindow(window: BrowserWindow): void;
  /** The tray's menu lists accounts: rebuilt when they change. */
  onPush(channel: PushName): void;
  destroy(): void;
}

function bitmapImage(draw: (size: number) => Buffer, sizes: number[]): NativeImage {
  const image = nativeImage.createEmpty();
  for (const size of sizes) {
    image.addRepresentation({
      scaleFactor: size / sizes[0],
      width: size,
      height: size,
      buffer: draw(size),
    });
  }
  return image;
}

export function trayTooltip(count: number): string {
  return count > 0 ? `${APP_NAME}: ${count} unread` : APP_NAME;
}

export function installTrayAndBadge(
  services: TrayAndBadgeServices,
  platform: NodeJS.Platform = process.platform,
): TrayAndBadge {
  let window: BrowserWindow | null = null;
  let count = 0;
  const icons = {
    plain: bitmapImage((s) => appIconBitmap(s), [16, 32]),
    unread: bitmapImage((s) => appIconBitmap(s, true), [16, 32]),
    overlay: bitmapImage(unreadOverlayBitmap, [16, 32]),
  };
  const tray = new Tray(icons.plain);
  tray.setToolTip(APP_NAME);

  const showWindow = () => {
    if (!window || window.isDestroyed()) return;
    if (window.isMinimized()) window.restore();
    window.show();
    window.focus();
  };

  const rebuildMenu = () => {
    const { accounts, activeAccountId } = services.listAccounts();
    const accountItems: MenuItemConstructorOptions[] = accounts.map((account) => ({
      label: `${account.realmName} (${account.email})`,
      type: 'radio',
      checked: account.id === activeAccountId,
      click: () => {
        services.switchAccount(account.id);
        showWindow();
      },
    }));
    const template: MenuItemConstructorOptions[] = [
      { label: `Show ${APP_NAME}`, click: showWindow },
      { type: 'separator' },
      ...(accountItems.length > 0
        ? [{ label: 'Accounts', enabled: false }, ...accountItems, { type: 'separator' as const }]
        : []),
      { label: 'Quit', click: () => app.quit() },
    ];
    tray.setContextMenu(Menu.buildFromTemplate(template));
  };

  const showCount = () => {
    tray.setImage(count > 0 ? icons.unread : icons.plain);
    tray.setToolTip(trayTooltip(count));
    // macOS shows the title beside the menu-bar icon; elsewhere it is ignored.
    if (platform === 'darwin') tray.setTitle(count > 0 ? String(count) : '');
    // Dock (macOS) and launcher (Linux Unity) badge; Windows has none, it gets the overlay.
    if (platform !== 'win32') app.setBadgeCount(count);
    else if (window && !window.isDestroyed())
      window.setOverlayIcon(count > 0 ? icons.overlay : null, count > 0 ? trayTooltip(count) : '');
  };

  // Windows and Linux open the window on a click; macOS opens the menu.
  tray.on('click', showWindow);
  rebuildMenu();

  services.desktop.attach({
    createNotification: Notification.isSupported()
      ? (options) => new Notification(options)
      : undefined,
    focusWindow: showWindow,
    setUnreadCount: (next) => {
      count = next;
      showCount();
    },
  });

  return {
    attachWindow(next) {
      window = next;
      // Minimising is not cancellable: the minimised window is hidden, and the tray shows it again.
      next.on('minimize', () => {
        if (services.minimizeToTray()) next.hide();
      });
      showCount();
    },
    onPush(channel) {
      if (channel === 'accounts') rebuildMenu();
    },
    destroy() {
      tray.destroy();
    },
  };
}
