// Main's side of notifications and the unread badge (shared/ipc/notifications.ts); minimise-to-tray is
// one of the desktop preferences (electron/shell/desktop-preferences.ts).
// The runtime attaches what it has: Electron attaches a system notifier, the window focus and the
// badge/tray (electron/shell/tray-and-badge.ts); browser mode attaches nothing, so the page shows
// notifications itself and the badge is only the page's title.
import type { MethodHandlers, PushSink } from '../../shared/ipc/contract';
import type {
  NotificationShown,
  notificationsMethods,
  NotificationTargetPayload,
} from '../../shared/ipc/notifications';

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
}

type Handlers = Pick<MethodHandlers, keyof typeof notificationsMethods>;

export class DesktopBridge {
  private runtime: DesktopRuntime | null = null;
  /** Shown notifications by tag: kept referenced so their click handlers survive garbage collection. */
  private readonly shown = new Map<string, SystemNotification>();
  private unreadCount = 0;

  constructor(private readonly options: { push: PushSink }) {}

  attach(runtime: DesktopRuntime): void {
    this.runtime = runtime;
    runtime.setUnreadCount(this.unreadCount);
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
    };
  }
}
