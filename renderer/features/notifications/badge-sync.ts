// The unread count across every account, each by its own desktop_icon_count_display, kept in the
// window title ("(3) Tributary") and sent to main for the dock/taskbar badge and the tray.
import { badgeCount, windowTitle, type AccountUnreads } from '../../../shared/notifications/badge';
import type { AccountState, ChatState, ChatStore } from '../../store';
import { selectUnreadCounts } from '../../store/selectors';
import type { Api } from '../../bridge/api';

function* followedTopicIds(account: AccountState): Generator<number> {
  for (const [streamId, topics] of account.unreads.streams) {
    const policies = account.userTopics.byChannel.get(streamId);
    if (!policies) continue;
    for (const [topic, bucket] of topics) {
      if (policies.get(topic.toLowerCase())?.visibility_policy === 3) yield* bucket.ids;
    }
  }
}

function* directIds(account: AccountState): Generator<number> {
  for (const bucket of account.unreads.dms.values()) yield* bucket.ids;
}

export function accountUnreads(account: AccountState): AccountUnreads {
  return {
    desktopIconCountDisplay: account.settings.user.desktop_icon_count_display as number | undefined,
    featureLevel: account.settings.featureLevel,
    allCount: selectUnreadCounts(account).total,
    directIds: directIds(account),
    mentionIds: account.unreads.mentions,
    followedTopicIds: followedTopicIds(account),
  };
}

/** Per account, the count and the slices it was computed from: most store updates change none. */
const memo = new WeakMap<AccountState['unreads'], { inputs: readonly unknown[]; count: number }>();

function accountCount(account: AccountState): number {
  const inputs = [account.userTopics, account.channels, account.settings];
  const hit = memo.get(account.unreads);
  if (hit && hit.inputs.every((input, i) => input === inputs[i])) return hit.count;
  const count = badgeCount([accountUnreads(account)]);
  memo.set(account.unreads, { inputs, count });
  return count;
}

export function unreadBadgeCount(state: ChatState): number {
  let total = 0;
  for (const account of Object.values(state.accounts)) total += accountCount(account);
  return total;
}

/** Keeps the title and main's badge in step with the store; returns the unsubscribe function. */
export function syncUnreadBadge(api: Api, store: ChatStore, doc: Document = document): () => void {
  let shown = -1;
  const update = (state: ChatState) => {
    const count = unreadBadgeCount(state);
    if (count === shown) return;
    shown = count;
    doc.title = windowTitle(count);
    void api.setUnreadBadge({ count }).catch(() => undefined);
  };
  update(store.getState());
  return store.subscribe(update);
}
