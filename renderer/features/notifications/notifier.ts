// Desktop notifications for new messages, for every account: each event batch main pushes is read
// after the store has applied it, every new message goes through the decision table
// (shared/notifications/decide.ts), and what notifies is shown through main (a system
// notification in Electron) or, in browser mode, by the page with the Web Notifications API.
// Sounds play here in both runtimes.
import type { MessageEvent } from '../../../shared/api/events';
import {
  decideNotification,
  type NotificationDecision,
} from '../../../shared/notifications/decide';
import type { ChatStore } from '../../store';
import { topicVisibility } from '../../store/slices/userTopics';
import type { Api } from '../../bridge/api';
import { uiStore } from '../../store/ui-store';
import { messageText } from './message-text';
import { openNotificationTarget } from './open-target';
import { playNotificationSound } from './sounds';

/** The window has the person's attention: focused and not hidden. */
export function windowFocused(doc: Document = document): boolean {
  return doc.visibilityState === 'visible' && doc.hasFocus();
}

/** Names the account in a notification when several are signed in; null with one. */
export function accountLabel(accountId: string): string | null {
  const { accounts } = uiStore.getState();
  if (accounts.length < 2) return null;
  const account = accounts.find((a) => a.id === accountId);
  if (!account) return null;
  const sameRealm = accounts.filter((a) => a.realmName === account.realmName).length > 1;
  return sameRealm ? `${account.realmName} (${account.email})` : account.realmName;
}

function decide(
  store: ChatStore,
  accountId: string,
  event: MessageEvent,
): NotificationDecision | null {
  const chat = store.getState();
  const account = chat.accounts[accountId];
  if (!account) return null;
  const { message } = event;
  const { route } = uiStore.getState();
  const { text, hasAttachment } = messageText(message.content);
  const isStream = message.type === 'stream';
  return decideNotification({
    message,
    flags: event.flags,
    contentText: text,
    hasAttachment,
    selfUserId: account.selfUserId,
    settings: account.settings.user,
    subscription: isStream ? account.channels.subscriptions.get(message.stream_id) : undefined,
    channelName: isStream ? account.channels.channels.get(message.stream_id)?.name : undefined,
    topicPolicy: isStream
      ? topicVisibility(account.userTopics, message.stream_id, message.subject)
      : 0,
    senderMuted: account.mutedUsers.byUser.has(message.sender_id),
    view: {
      focused: windowFocused(),
      narrow: chat.activeAccountId === accountId && route.kind === 'narrow' ? route.narrow : null,
    },
    emptyTopicName:
      typeof account.settings.realm.realm_empty_topic_display_name === 'string'
        ? account.settings.realm.realm_empty_topic_display_name
        : undefined,
    accountLabel: accountLabel(accountId),
  });
}

/**
 * Shows a decided notification (and plays its sound). In browser mode the page shows it, and only
 * once the person has allowed notifications (Settings > Notifications asks).
 */
export async function presentNotification(
  api: Api,
  store: ChatStore,
  accountId: string,
  decision: NotificationDecision,
): Promise<void> {
  if (decision.sound) playNotificationSound(decision.sound);
  if (!decision.desktop) return;
  const { title, body, tag, target } = decision;
  const { shownBy } = await api.showNotification({ accountId, title, body, tag, target });
  if (shownBy !== 'page') return;
  if (typeof window.Notification !== 'function' || window.Notification.permission !== 'granted')
    return;
  const notification = new window.Notification(title, { body, tag: `${accountId}:${tag}` });
  notification.onclick = () => {
    notification.close();
    window.focus();
    openNotificationTarget(api, store, accountId, target);
  };
}

/** Starts notifying; returns the function that stops it. Subscribe after the store's own listener. */
export function startNotifier(api: Api, store: ChatStore): () => void {
  // Message ids only grow: one at or below the newest seen is a re-delivered event.
  const newestSeen = new Map<string, number>();
  const offEvents = api.on('events', ({ accountId, events }) => {
    for (const event of events) {
      if (event.type !== 'message') continue;
      if (event.message.id <= (newestSeen.get(accountId) ?? 0)) continue;
      newestSeen.set(accountId, event.message.id);
      const decision = decide(store, accountId, event);
      if (decision && (decision.desktop || decision.sound))
        void presentNotification(api, store, accountId, decision).catch(() => undefined);
    }
  });
  const offClicks = api.on('notificationClicked', ({ accountId, target }) =>
    openNotificationTarget(api, store, accountId, target),
  );
  return () => {
    offEvents();
    offClicks();
  };
}
