// What the sidebar lists, derived from an account's state: channels in pinned / active / muted
// sections, each channel's topics (from the server's topic list, the stored messages and the
// unreads) with their visibility policy, and direct-message conversations (the snapshot's recent
// conversations, then stored messages and unreads).
//
// Every selector here reads the store's per-conversation indexes (messages.conversations, the
// unreads buckets), never the stored messages one by one, so its cost does not grow with the
// number of messages held. Each returns the same object until what it lists changes, so the
// components selecting them re-render only then.
import { isTopicMuted, topicVisibility, type AccountState } from '../../store';
import { dmConversationKey, isTopicResolved } from '../../../shared/narrow';
import type { Subscription, VisibilityPolicy } from '../../../shared/api/types';

export interface ChannelSections {
  pinned: Subscription[];
  active: Subscription[];
  muted: Subscription[];
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
  /** The unreads' conversation key (dmConversationKey): the other participants, or self alone. */
  key: string;
  userIds: readonly number[];
  unread: number;
  lastId: number;
}

/** A channel's topics as the server lists them (GET /users/me/{stream_id}/topics). */
export type ServerTopic = { name: string; max_id: number };

const NO_SECTIONS: ChannelSections = { pinned: [], active: [], muted: [] };
const sectionsMemo = new WeakMap<AccountState['channels'], ChannelSections>();

/** Subscribed channels by section, sorted by name; the same object until subscriptions change. */
export function selectChannelSections(account: AccountState | undefined): ChannelSections {
  if (!account) return NO_SECTIONS;
  const hit = sectionsMemo.get(account.channels);
  if (hit) return hit;
  const out: ChannelSections = { pinned: [], active: [], muted: [] };
  for (const sub of account.channels.subscriptions.values()) {
    if (sub.pin_to_top) out.pinned.push(sub);
    else if (sub.is_muted) out.muted.push(sub);
    else out.active.push(sub);
  }
  const byName = (a: Subscription, b: Subscription) => a.name.localeCompare(b.name);
  out.pinned.sort(byName);
  out.active.sort(byName);
  out.muted.sort(byName);
  sectionsMemo.set(account.channels, out);
  return out;
}

/**
 * Remembers the last result per key: while the inputs are the same objects it is returned as is;
 * when they changed it is recomputed, and the previous result is still returned if it lists the
 * same items (a message in another channel changes the messages slice, not this channel's topics).
 */
function memoList<T>(same: (a: T, b: T) => boolean) {
  const cache = new Map<string, { inputs: readonly unknown[]; result: T[] }>();
  return (key: string, inputs: readonly unknown[], compute: () => T[]): T[] => {
    const hit = cache.get(key);
    if (hit && hit.inputs.length === inputs.length && hit.inputs.every((v, i) => v === inputs[i]))
      return hit.result;
    let result = compute();
    if (
      hit &&
      hit.result.length === result.length &&
      hit.result.every((v, i) => same(v, result[i]))
    )
      result = hit.result;
    cache.set(key, { inputs, result });
    return result;
  };
}

const topicsMemo = memoList<TopicItem>(
  (a, b) =>
    a.name === b.name &&
    a.unread === b.unread &&
    a.policy === b.policy &&
    a.muted === b.muted &&
    a.lastId === b.lastId,
);
const dmsMemo = memoList<DmItem>(
  (a, b) => a.key === b.key && a.unread === b.unread && a.lastId === b.lastId,
);

const NO_SERVER_TOPICS: readonly ServerTopic[] = [];
// One empty list each, so a selector without an account returns the same value every time.
const NO_TOPICS: TopicItem[] = [];
const NO_DMS: DmItem[] = [];

/**
 * A channel's topics, newest first: the server's list (history not loaded here), the stored
 * messages' topics (what arrived since) and the unread ones. Topics differing only in case are one.
 */
export function selectChannelTopics(
  account: AccountState | undefined,
  streamId: number,
  serverTopics: readonly ServerTopic[] = NO_SERVER_TOPICS,
): TopicItem[] {
  if (!account) return NO_TOPICS;
  // Keyed apart by whether the server's list is given, so callers without it (the `n` shortcut,
  // the switcher) do not replace the sidebar's remembered list.
  const scope = serverTopics === NO_SERVER_TOPICS ? 'local' : 'server';
  return topicsMemo(
    `${account.accountId}:${streamId}:${scope}`,
    [account.messages, account.unreads, account.userTopics, account.channels, serverTopics],
    () => computeTopics(account, streamId, serverTopics),
  );
}

function computeTopics(
  account: AccountState,
  streamId: number,
  serverTopics: readonly ServerTopic[],
): TopicItem[] {
  const topics = new Map<string, TopicItem>();
  const channelMuted = account.channels.subscriptions.get(streamId)?.is_muted ?? false;
  const put = (name: string, lastId: number, unread: number) => {
    const key = name.toLowerCase();
    const t = topics.get(key);
    if (t) {
      if (lastId > t.lastId) t.lastId = lastId;
      t.unread += unread;
      return;
    }
    const policy = topicVisibility(account.userTopics, streamId, name);
    topics.set(key, {
      name,
      unread,
      resolved: isTopicResolved(name),
      policy,
      muted: isTopicMuted(policy, channelMuted),
      lastId,
    });
  };
  for (const t of serverTopics) put(t.name, t.max_id, 0);
  const stored = account.messages.conversations.channels.get(streamId);
  if (stored) for (const [name, ids] of stored) put(name, ids.newest, 0);
  const unread = account.unreads.streams.get(streamId);
  if (unread) for (const [name, { ids }] of unread) put(name, ids.newest, ids.size);
  return [...topics.values()].sort((a, b) => b.lastId - a.lastId);
}

/** Direct-message conversations, newest first, with their unread counts. */
export function selectDmConversations(account: AccountState | undefined): DmItem[] {
  if (!account) return NO_DMS;
  return dmsMemo(
    account.accountId,
    [account.messages, account.unreads, account.recentConversations],
    () => computeDms(account),
  );
}

/**
 * Conversation keys by the index's participant key, and user ids by conversation key: the same few
 * conversations come back on every recompute, so each string is parsed once.
 */
const keyOfParticipants = new Map<string, string>();
const userIdsOfKey = new Map<string, readonly number[]>();

function conversationKeyOf(participants: string, self: number): string {
  const cacheKey = `${self}:${participants}`;
  let key = keyOfParticipants.get(cacheKey);
  if (key === undefined) {
    key = dmConversationKey(participants.split(',').map(Number), self);
    keyOfParticipants.set(cacheKey, key);
  }
  return key;
}

function userIdsOf(key: string): readonly number[] {
  let ids = userIdsOfKey.get(key);
  if (!ids) userIdsOfKey.set(key, (ids = key.split(',').map(Number)));
  return ids;
}

function computeDms(account: AccountState): DmItem[] {
  const self = account.selfUserId;
  const convs = new Map<string, DmItem>();
  const seen = (key: string, lastId: number, unread: number) => {
    const c = convs.get(key);
    if (!c) convs.set(key, { key, userIds: userIdsOf(key), unread, lastId });
    else {
      if (lastId > c.lastId) c.lastId = lastId;
      c.unread += unread;
    }
  };
  // The snapshot's recent conversations list conversations whose messages are not loaded (their
  // user_ids exclude the user; none means notes to self).
  for (const r of account.recentConversations)
    seen(dmConversationKey(r.user_ids, self), r.max_message_id, 0);
  for (const [participants, ids] of account.messages.conversations.dms)
    seen(conversationKeyOf(participants, self), ids.newest, 0);
  for (const [key, { ids }] of account.unreads.dms) seen(key, ids.newest, ids.size);
  return [...convs.values()].sort((a, b) => b.lastId - a.lastId);
}

/**
 * Whether a channel's name matches the sidebar's filter as on the public web app: the query (case
 * and surrounding spaces ignored) starts the name or one of its words.
 */
export function channelMatchesFilter(name: string, query: string): boolean {
  const q = query.trim().toLowerCase();
  return !q || nameMatches(foldName(name), q);
}

/** A name lowercased, and its words, as the filter matches them. */
interface FoldedName {
  lower: string;
  words: string[];
}

function foldName(name: string): FoldedName {
  const lower = name.toLowerCase();
  return { lower, words: lower.split(/[\s\-_/]+/) };
}

function nameMatches(name: FoldedName, q: string): boolean {
  return name.lower.startsWith(q) || name.words.some((word) => word.startsWith(q));
}

/** Each subscription's folded name, made once (not on every keystroke for every channel). */
const foldedNames = new WeakMap<Subscription, FoldedName>();

function foldedName(sub: Subscription): FoldedName {
  let folded = foldedNames.get(sub);
  if (!folded) foldedNames.set(sub, (folded = foldName(sub.name)));
  return folded;
}

const filteredMemo = new WeakMap<ChannelSections, { query: string; result: ChannelSections }>();

/** The sections with only the channels matching `query`; the same object for the same inputs. */
export function filterChannelSections(sections: ChannelSections, query: string): ChannelSections {
  if (!query.trim()) return sections;
  const hit = filteredMemo.get(sections);
  if (hit?.query === query) return hit.result;
  const q = query.trim().toLowerCase();
  const keep = (subs: Subscription[]) => subs.filter((s) => nameMatches(foldedName(s), q));
  const result = {
    pinned: keep(sections.pinned),
    active: keep(sections.active),
    muted: keep(sections.muted),
  };
  filteredMemo.set(sections, { query, result });
  return result;
}
