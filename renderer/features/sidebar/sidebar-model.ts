// What the sidebar lists, derived from an account's state: channels in pinned / active / muted
// sections with unread counts, each channel's topics (from the server's topic list, unreads and
// loaded messages) with their
// visibility policy, and direct-message conversations (the snapshot's recent conversations, then
// loaded messages and unreads).
import type { AccountState, UnreadCounts } from '../../store';
import { dmConversationKey, isTopicResolved } from '../../../shared/narrow';
import type { Subscription, VisibilityPolicy } from '../../../shared/api/types';

export interface ChannelItem {
  sub: Subscription;
  unread: number;
  muted: boolean;
}

export interface TopicItem {
  name: string;
  unread: number;
  resolved: boolean;
  policy: VisibilityPolicy;
  /** Muted by the topic, or by its channel without unmute/follow. */
  muted: boolean;
  lastId: number;
}

export interface DmItem {
  key: string;
  userIds: number[];
  unread: number;
  lastId: number;
}

export interface ChannelSections {
  pinned: ChannelItem[];
  active: ChannelItem[];
  muted: ChannelItem[];
}

export function channelSections(
  account: AccountState | undefined,
  counts: UnreadCounts,
): ChannelSections {
  const out: ChannelSections = { pinned: [], active: [], muted: [] };
  if (!account) return out;
  for (const sub of account.channels.subscriptions.values()) {
    const c = counts.channels.get(sub.stream_id);
    const item = { sub, unread: c?.count ?? 0, muted: sub.is_muted };
    if (sub.pin_to_top) out.pinned.push(item);
    else if (sub.is_muted) out.muted.push(item);
    else out.active.push(item);
  }
  const byName = (a: ChannelItem, b: ChannelItem) => a.sub.name.localeCompare(b.sub.name);
  out.pinned.sort(byName);
  out.active.sort(byName);
  out.muted.sort(byName);
  return out;
}

/**
 * Remembers the last result per key while the slices it was computed from are the same objects
 * (slice wrappers are replaced on every change), so events that touch neither messages nor unreads
 * (typing, presence, settings) do not rescan the stored messages.
 */
function memoBySlices<R>() {
  const cache = new Map<string, { inputs: readonly unknown[]; result: R }>();
  return (key: string, inputs: readonly unknown[], compute: () => R): R => {
    const hit = cache.get(key);
    if (hit && hit.inputs.length === inputs.length && hit.inputs.every((v, i) => v === inputs[i]))
      return hit.result;
    const result = compute();
    cache.set(key, { inputs, result });
    return result;
  };
}

const topicsMemo = memoBySlices<TopicItem[]>();
const dmsMemo = memoBySlices<DmItem[]>();

/** A channel's topics as the server lists them (GET /users/me/{stream_id}/topics). */
export type ServerTopic = { name: string; max_id: number };
const NO_SERVER_TOPICS: readonly ServerTopic[] = [];

export function topicsOf(
  account: AccountState | undefined,
  counts: UnreadCounts,
  streamId: number,
  serverTopics: readonly ServerTopic[] = NO_SERVER_TOPICS,
): TopicItem[] {
  if (!account) return [];
  return topicsMemo(
    `${account.accountId}:${streamId}`,
    [account.messages, account.unreads, account.userTopics, account.channels, counts, serverTopics],
    () => computeTopics(account, counts, streamId, serverTopics),
  );
}

function computeTopics(
  account: AccountState,
  counts: UnreadCounts,
  streamId: number,
  serverTopics: readonly ServerTopic[],
): TopicItem[] {
  const topics = new Map<string, TopicItem>();
  const channelMuted = account.channels.subscriptions.get(streamId)?.is_muted ?? false;
  const policyOf = (name: string): VisibilityPolicy =>
    account.userTopics.byChannel.get(streamId)?.get(name.toLowerCase())?.visibility_policy ?? 0;
  const put = (name: string, lastId: number) => {
    const key = name.toLowerCase();
    const t = topics.get(key);
    if (t) {
      if (lastId > t.lastId) topics.set(key, { ...t, lastId });
      return;
    }
    const policy = policyOf(name);
    topics.set(key, {
      name,
      unread: 0,
      resolved: isTopicResolved(name),
      policy,
      muted: policy === 1 || (channelMuted && policy !== 2 && policy !== 3),
      lastId,
    });
  };
  // The server's list covers history not loaded here; loaded messages add what arrived since.
  for (const t of serverTopics) put(t.name, t.max_id);
  for (const m of account.messages.byId.values())
    if (m.type === 'stream' && m.stream_id === streamId) put(m.subject, m.id);
  const unreadTopics = counts.channels.get(streamId)?.topics;
  const unreadBucket = account.unreads.streams.get(streamId);
  if (unreadTopics) {
    for (const t of unreadTopics.values()) {
      const ids = unreadBucket?.get(t.topic)?.ids;
      put(t.topic, ids ? Math.max(...ids) : 0);
      const key = t.topic.toLowerCase();
      const item = topics.get(key)!;
      topics.set(key, { ...item, unread: item.unread + t.count });
    }
  }
  return [...topics.values()].sort((a, b) => b.lastId - a.lastId);
}

export function dmConversations(account: AccountState | undefined, counts: UnreadCounts): DmItem[] {
  if (!account) return [];
  return dmsMemo(
    account.accountId,
    [account.messages, account.unreads, account.recentConversations, counts],
    () => computeDms(account, counts),
  );
}

function computeDms(account: AccountState, counts: UnreadCounts): DmItem[] {
  const self = account.selfUserId;
  const convs = new Map<string, DmItem>();
  const seen = (participantIds: readonly number[], lastId: number) => {
    const key = dmConversationKey(participantIds, self);
    const c = convs.get(key);
    if (!c) convs.set(key, { key, userIds: key.split(',').map(Number), unread: 0, lastId });
    else c.lastId = Math.max(c.lastId, lastId);
  };
  // The snapshot's recent conversations first: they list conversations whose messages are not
  // loaded (the user_ids there exclude the user; none means notes to self).
  for (const r of account.recentConversations) seen(r.user_ids, r.max_message_id);
  for (const m of account.messages.byId.values()) {
    if (m.type !== 'private') continue;
    seen(
      m.display_recipient.map((r) => r.id),
      m.id,
    );
  }
  for (const [key, n] of counts.dms) {
    const bucket = account.unreads.dms.get(key);
    const last = bucket ? Math.max(...bucket.ids) : 0;
    const c = convs.get(key);
    if (c) {
      c.unread = n;
      c.lastId = Math.max(c.lastId, last);
    } else convs.set(key, { key, userIds: key.split(',').map(Number), unread: n, lastId: last });
  }
  return [...convs.values()].sort((a, b) => b.lastId - a.lastId);
}
