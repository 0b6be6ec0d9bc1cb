// Desktop notifications, the unread badge and the tray. The renderer decides what notifies
// (shared/notifications) and asks main to show it: Electron's main process shows a system
// notification; the browser-mode host cannot, so it answers that the page shows it itself with the
// Web Notifications API. A click focuses the window and opens the conversation (main pushes
// `notificationClicked`). The renderer also reports the unread count for the dock/taskbar and tray.
import * as z from 'zod';
import { forAccount, messageId, payload, streamId, userId } from './common';
import { method, push } from './define';

export const notificationTargetSchema = z.discriminatedUnion('kind', [
  z.strictObject({
    kind: z.literal('topic'),
    streamId,
    topic: z.string().max(200),
    messageId,
  }),
  z.strictObject({
    kind: z.literal('dm'),
    userIds: z.array(userId).max(200),
    messageId,
  }),
  z.strictObject({ kind: z.literal('none') }),
]);

export type NotificationTargetPayload = z.infer<typeof notificationTargetSchema>;

export interface NotificationShown {
  /** main: a system notification is up; page: the page must show it (browser mode). */
  shownBy: 'main' | 'page';
}

export interface NotificationClicked {
  accountId: string;
  target: NotificationTargetPayload;
}

export const notificationsMethods = {
  showNotification: method<NotificationShown>()(
    forAccount({
      title: z.string().max(300),
      body: z.string().max(5000),
      tag: z.string().max(200),
      target: notificationTargetSchema,
    }),
  ),
  /** The unread count across all accounts (desktop_icon_count_display applied by the renderer). */
  setUnreadBadge: method<null>()(payload({ count: z.number().int().nonnegative().max(1e9) })),
} as const;

export const notificationsPushes = {
  notificationClicked: push<NotificationClicked>(),
} as const;
