// Main's side of notifications, the unread badge and the tray preferences (shared/ipc/notifications.ts).
// The runtime attaches what it has: Electron attaches a system notifier, the window focus and the
// badge/tray (electron/shell/desktop-shell.ts); browser mode attaches nothing, so the page shows
// notifications itself and the badge is only the page's title.
import { join } from 'node:path';
import type { MethodHandlers, PushSink } from '../../shared/ipc/contract';
import type {
  DesktopPreferences,
  NotificationShown,
  notificationsMethods,
  NotificationTargetPayload,
} from '../../shared/ipc/notifications';
import { readJsonFile, writeJsonFile } from '../storage/json-file';

export const DESKTOP_PREFERENCES_FILE = 'desktop-preferences.json';

/** One system notification (Electron's Notification, or a test double). */
export interface SystemNotification {
  on(event: 'click' | 'close', listener: () => void): unknown;
  show(): void;
  close(): void;
}

export interface SystemNotificationOptions {
  title: string;
  body: string;
  /** The renderer plays the user's notification sound itself; the system's would be a second one. */
  silent: boolean;
}

export interface DesktopRuntime {
  /** Absent where the system has no notifications: the page then shows them itself. */
  createNotification?(options: SystemNotificationOptions): SystemNotification;
  /** Brings the window forward (restoring it from the tray or the taskbar). */
  focusWindow(): void;
  setUnreadCount(count: number): void;
  /** Called when the preferences change (the shell re-reads minimise-to-tray). */
  preferencesChanged?(preferences: DesktopPreferences): void;
}

type Handlers = Pick<MethodHandlers, keyof typeof notificationsMethods>;

export class DesktopBridge {
  private runtime: DesktopRuntime | null = null;
  /** Shown notifications by tag: kept referenced so their click handlers survive garbage collection. */
  private readonly shown = new Map<string, SystemNotification>();
  private preferences: { minimizeToTray: boolean };
  private readonly file: string;
  private unreadCount = 0;

  constructor(private readonly options: { dataDir: string; push: PushSink }) {
    this.file = join(options.dataDir, DESKTOP_PREFERENCES_FILE);
    const stored = readJsonFile<Partial<{ minimizeToTray: boolean }>>(this.file, {});
    this.preferences = { minimizeToTray: stored.minimizeToTray === true };
  }

  attach(runtime: DesktopRuntime): void {
    this.runtime = runtime;
    runtime.setUnreadCount(this.unreadCount);
  }

  get currentPreferences(): DesktopPreferences {
    return { trayAvailable: this.runtime !== null, ...this.preferences };
  }

  get currentUnreadCount(): number {
    return this.unreadCount;
  }

  show(
    accountId: string,
    note: { title: string; body: string; tag: string; target: NotificationTargetPayload },
  ): NotificationShown {
    const runtime = this.runtime;
    if (!runtime?.createNotification) return { shownBy: 'page' };
    const tag = `${accountId}:${note.tag}`;
    this.shown.get(tag)?.close();
    const notification = runtime.createNotification({
      title: note.title,
      body: note.body,
      silent: true,
    });
    this.shown.set(tag, notification);
    const forget = () => {
      if (this.shown.get(tag) === notification) this.shown.delete(tag);
    };
    notification.on('click', () => {
      forget();
      runtime.focusWindow();
      this.options.push('notificationClicked', { accountId, target: note.target });
    });
    notification.on('close', forget);
    notification.show();
    return { shownBy: 'main' };
  }

  /** Notifications still on screen (tests, and closing them at quit). */
  get openNotifications(): number {
    return this.shown.size;
  }

  closeAll(): void {
    for (const notification of this.shown.values()) notification.close();
    this.shown.clear();
  }

  get handlers(): Handlers {
    return {
      showNotification: ({ accountId, title, body, tag, target }) =>
        this.show(accountId, { title, body, tag, target }),
      setUnreadBadge: ({ count }) => {
        this.unreadCount = count;
        this.runtime?.setUnreadCount(count);
        return null;
      },
      getDesktopPreferences: () => this.currentPreferences,
      setDesktopPreferences: ({ minimizeToTray }) => {
        if (minimizeToTray !== undefined)
          this.preferences = { ...this.preferences, minimizeToTray };
        writeJsonFile(this.file, this.preferences);
        this.runtime?.preferencesChanged?.(this.currentPreferences);
        return this.currentPreferences;
      },
    };
  }
}
