// `n`: the next unread conversation after the open one, as the web app picks it. Channels go in
// sidebar order (pinned, active, muted), each channel's topics in sidebar order (latest first);
// the search starts after the open topic, goes through the following channels, wraps around, and
// ends with the topics before the open one. Muted topics are skipped, and so are a muted channel's
// topics unless unmuted or followed. With no unread topic left, unread direct-message conversations
// follow, in sidebar order after the open one. `p` goes through those alone, Shift+N through the
// followed topics alone.
import type { AccountState } from '../store';
import { dmConversationKey, dmNarrow, topicNarrow, type Narrow } from '../../shared/narrow';
import { describeNarrow } from '../features/messages/narrow-info';
import {
  selectChannelSections,
  selectChannelTopics,
  selectDmConversations,
  type TopicItem,
} from '../features/sidebar/sidebar-model';

/** Items after `index` to the end, then from the start up to `index` (both exclusive). */
function wrappedAfter<T>(items: readonly T[], index: number): T[] {
  return [...items.slice(index + 1), ...items.slice(0, Math.max(0, index))];
}

/** Unread and not muted; with `followedOnly` (Shift+N), also followed. */
const unreadFilter =
  (followedOnly: boolean) =>
  (t: TopicItem): boolean =>
    t.unread > 0 && !t.muted && (!followedOnly || t.policy === 3);

function nextUnreadTopic(
  account: AccountState,
  open: Narrow | null,
  followedOnly = false,
): Narrow | null {
  const isNext = unreadFilter(followedOnly);
  const sections = selectChannelSections(account);
  const channelIds = [...sections.pinned, ...sections.active, ...sections.muted].map(
    (sub) => sub.stream_id,
  );
  const firstIn = (streamId: number): Narrow | null => {
    const topic = selectChannelTopics(account, streamId).find(isNext);
    return topic ? topicNarrow(streamId, topic.name) : null;
  };
  const info = open ? describeNarrow(open, account) : undefined;
  const streamId = info?.streamId;
  const openIndex = streamId === undefined ? -1 : channelIds.indexOf(streamId);
  if (streamId === undefined || openIndex < 0) {
    for (const id of channelIds) {
      const next = firstIn(id);
      if (next) return next;
    }
    return null;
  }
  // In a channel view (no topic) its first unread topic counts as "after" the open position.
  const topics = selectChannelTopics(account, streamId);
  const openTopic = info?.topic?.toLowerCase();
  const at =
    openTopic === undefined ? -1 : topics.findIndex((t) => t.name.toLowerCase() === openTopic);
  const after = topics.slice(at + 1).find(isNext);
  if (after) return topicNarrow(streamId, after.name);
  for (const id of wrappedAfter(channelIds, openIndex)) {
    const next = firstIn(id);
    if (next) return next;
  }
  const before = topics.slice(0, Math.max(0, at)).find(isNext);
  return before ? topicNarrow(streamId, before.name) : null;
}

function nextUnreadDm(account: AccountState, open: Narrow | null): Narrow | null {
  const dms = selectDmConversations(account);
  // Compared by conversation key: a narrow may list the user among the participants.
  const openIds = open ? describeNarrow(open, account).dmUserIds : undefined;
  const openKey = openIds && dmConversationKey(openIds, account.selfUserId);
  const at = openKey === undefined ? -1 : dms.findIndex((d) => d.key === openKey);
  const next = wrappedAfter(dms, at).find((d) => d.unread > 0);
  return next ? dmNarrow(next.userIds) : null;
}

/** The conversation `n` opens from the open narrow (null outside a narrow), or null if none. */
export function nextUnreadConversation(
  account: AccountState | undefined,
  open: Narrow | null,
): Narrow | null {
  if (!account) return null;
  return nextUnreadTopic(account, open) ?? nextUnreadDm(account, open);
}

/** The followed topic Shift+N opens from the open narrow, or null if none is unread. */
export function nextUnreadFollowedTopic(
  account: AccountState | undefined,
  open: Narrow | null,
): Narrow | null {
  return account ? nextUnreadTopic(account, open, true) : null;
}

/** The direct-message conversation `p` opens from the open narrow, or null if none is unread. */
export function nextUnreadDmConversation(
  account: AccountState | undefined,
  open: Narrow | null,
): Narrow | null {
  return account ? nextUnreadDm(account, open) : null;
}
