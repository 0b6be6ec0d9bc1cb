// What the Recent conversations table lists: topics and direct-message conversations by their
// newest stored message, read from the store's conversation index (messages.conversations) rather
// than from every stored message, with what each row shows (the time of its newest message, its
// participants, whether the user took part, whether it is muted and the topic's visibility policy);
// the filters and the column sorts of the public web app's table; and the filters kept per account
// across launches (the web app keeps them in local storage).
//
// It scales to thousands of conversations: a row is computed again only when its conversation's
// messages changed (its id set's size or newest id), and an unchanged row keeps its object, so the
// table's memoized rows re-render only for the conversations that changed. The same array comes
// back until a row or the order changes.
import type { AccountState } from '../../store';
import { isTopicMuted, topicVisibility } from '../../store';
import { dmNarrow, narrowKey, topicNarrow, type Narrow } from '../../../shared/narrow';
import type { MessageIdSet } from '../../store/message-id-set';
import type { VisibilityPolicy } from '../../../shared/api/types';
import { readKept, writeKept } from '../../lib/kept-choice';

export interface RecentConversation {
  narrowKey: string;
  narrow: Narrow;
  /** A channel topic's channel and topic; a direct message has neither. */
  streamId?: number;
  topic?: string;
  /** A direct message's other people (the user alone in notes to self). */
  dmUserIds?: number[];
  lastId: number;
  /** Unix seconds of the newest stored message. */
  lastTimestamp: number;
  /** Senders of the stored messages, the most recent first (the public web app's avatars). */
  senders: number[];
  /** The user sent one of the stored messages. */
  participated: boolean;
  /** A muted topic (or a topic of a muted channel), or a conversation only with muted users. */
  muted: boolean;
  /** A channel topic's visibility policy (0 none, 1 muted, 2 unmuted, 3 followed); 0 for DMs. */
  policy: VisibilityPolicy;
  /** A channel topic's channel is muted (its topics are muted unless unmuted or followed). */
  channelMuted: boolean;
}

const NONE: RecentConversation[] = [];

/** A row with the state of the id set it was computed from. */
type KeptRow = { size: number; newest: number; row: RecentConversation };
interface Memo {
  inputs: unknown[];
  /** Rows by narrow key. */
  rows: Map<string, KeptRow>;
  result: RecentConversation[];
}
const memo = new Map<string, Memo>();

/** Senders of a conversation's stored messages, the most recent first, and its newest time. */
function scan(account: AccountState, ids: MessageIdSet) {
  const byId = account.messages.byId;
  const sorted = [...ids].sort((a, b) => b - a);
  const senders: number[] = [];
  const seen = new Set<number>();
  for (const id of sorted) {
    const sender = byId.get(id)?.sender_id;
    if (sender === undefined || seen.has(sender)) continue;
    seen.add(sender);
    senders.push(sender);
  }
  const lastTimestamp = byId.get(sorted[0] ?? 0)?.timestamp ?? 0;
  return { senders, lastTimestamp, participated: seen.has(account.selfUserId) };
}

function sameRow(a: RecentConversation, b: RecentConversation): boolean {
  return (
    a.lastId === b.lastId &&
    a.lastTimestamp === b.lastTimestamp &&
    a.participated === b.participated &&
    a.muted === b.muted &&
    a.policy === b.policy &&
    a.channelMuted === b.channelMuted &&
    a.senders.length === b.senders.length &&
    a.senders.every((id, i) => id === b.senders[i])
  );
}

export function selectRecentConversations(account: AccountState | undefined): RecentConversation[] {
  if (!account) return NONE;
  const inputs = [account.messages, account.userTopics, account.channels, account.mutedUsers];
  const hit = memo.get(account.accountId);
  if (hit && hit.inputs.every((v, i) => v === inputs[i])) return hit.result;
  const previous = hit?.rows ?? new Map<string, KeptRow>();
  const rows = new Map<string, KeptRow>();
  const keep = (key: string, ids: MessageIdSet, make: () => RecentConversation) => {
    const old = previous.get(key);
    let row: RecentConversation;
    if (old && old.size === ids.size && old.newest === ids.newest) {
      // Same messages: only the muting may have changed.
      const { muted, policy, channelMuted } = make();
      row = { ...old.row, muted, policy, channelMuted };
      if (sameRow(old.row, row)) row = old.row;
    } else {
      row = make();
      if (old && sameRow(old.row, row)) row = old.row;
    }
    rows.set(key, { size: ids.size, newest: ids.newest, row });
  };

  const { channels, dms } = account.messages.conversations;
  const mutedUsers = account.mutedUsers.byUser;
  for (const [streamId, topics] of channels) {
    const channelMuted = account.channels.subscriptions.get(streamId)?.is_muted ?? false;
    for (const [topic, ids] of topics) {
      if (ids.size === 0) continue;
      const narrow = topicNarrow(streamId, topic);
      const key = narrowKey(narrow);
      keep(key, ids, () => {
        const policy = topicVisibility(account.userTopics, streamId, topic);
        return {
          narrowKey: key,
          narrow,
          streamId,
          topic,
          lastId: ids.newest,
          ...scan(account, ids),
          muted: isTopicMuted(policy, channelMuted),
          policy,
          channelMuted,
        };
      });
    }
  }
  for (const [participants, ids] of dms) {
    if (ids.size === 0) continue;
    const others = participants
      .split(',')
      .map(Number)
      .filter((id) => id !== account.selfUserId);
    // Sorted, as the participants are: also the unreads' key once joined.
    const dmUserIds = others.length ? others : [account.selfUserId];
    const narrow = dmNarrow(dmUserIds);
    const key = narrowKey(narrow);
    keep(key, ids, () => ({
      narrowKey: key,
      narrow,
      dmUserIds,
      lastId: ids.newest,
      ...scan(account, ids),
      // As in the public web app: a conversation only with muted users is muted.
      muted: others.length > 0 && others.every((id) => mutedUsers.has(id)),
      policy: 0,
      channelMuted: false,
    }));
  }
  let result = [...rows.values()].map((r) => r.row).sort((a, b) => b.lastId - a.lastId);
  if (hit && hit.result.length === result.length && hit.result.every((r, i) => r === result[i]))
    result = hit.result;
  memo.set(account.accountId, { inputs, rows, result });
  return result;
}

/**
 * Which topics the table lists, the public web app's filter menu: only followed topics, the
 * standard view (unmuted topics), or all topics (muted channels and topics too).
 */
export type TopicsShown = 'followed' | 'standard' | 'all';

/** The table's filters, as the public web app's Recent conversations view has them. */
export interface RecentFilters {
  unread: boolean;
  participated: boolean;
  topics: TopicsShown;
  /** Direct-message conversations are listed (on at first, as in the public web app). */
  includeDms: boolean;
  /** Words every one of which the channel, topic or people's names must contain. */
  text: string;
}

export const DEFAULT_FILTERS: RecentFilters = {
  unread: false,
  participated: false,
  topics: 'standard',
  includeDms: true,
  text: '',
};

/** The rows the filters let through, in order. `unread` and `title` read what the row shows. */
export function filterRecent(
  rows: readonly RecentConversation[],
  filters: RecentFilters,
  unread: (row: RecentConversation) => number,
  title: (row: RecentConversation) => string,
): RecentConversation[] {
  const words = filters.text.toLowerCase().split(/\s+/).filter(Boolean);
  return rows.filter((row) => {
    const dm = row.streamId === undefined;
    if (dm && !filters.includeDms) return false;
    // As in the public web app, a conversation only with muted people is never listed, and the
    // topic menu's choice is about channel topics only.
    if (dm && row.muted) return false;
    if (!dm && filters.topics === 'standard' && row.muted) return false;
    if (!dm && filters.topics === 'followed' && row.policy !== 3) return false;
    if (filters.participated && !row.participated) return false;
    if (filters.unread && unread(row) === 0) return false;
    if (words.length === 0) return true;
    const text = title(row).toLowerCase();
    return words.every((w) => text.includes(w));
  });
}

const FILTERS_KEY = 'tributary:recent-filters:';

/**
 * The filters this account last chose (not the text), kept across launches as the public web app
 * keeps them in local storage; the defaults where nothing (or something unreadable) is kept.
 */
export function readFilters(accountId: string): RecentFilters {
  return readKept(FILTERS_KEY + accountId, acceptFilters, DEFAULT_FILTERS);
}

function acceptFilters(kept: unknown): RecentFilters | undefined {
  if (!kept || typeof kept !== 'object') return undefined;
  const k = kept as Record<string, unknown>;
  const flag = (name: 'unread' | 'participated' | 'includeDms') =>
    typeof k[name] === 'boolean' ? k[name] : DEFAULT_FILTERS[name];
  return {
    unread: flag('unread'),
    participated: flag('participated'),
    includeDms: flag('includeDms'),
    topics: k.topics === 'followed' || k.topics === 'all' ? k.topics : 'standard',
    text: '',
  };
}

export function writeFilters(accountId: string, filters: RecentFilters): void {
  const { text: _text, ...kept } = filters;
  writeKept(FILTERS_KEY + accountId, kept);
}

/** The columns the public web app's table sorts by: channel, topic, unread count, time. */
export type SortColumn = 'channel' | 'topic' | 'unread' | 'time';
export interface RecentSort {
  column: SortColumn;
  descending: boolean;
}
/** Newest first, as the table opens. */
export const DEFAULT_SORT: RecentSort = { column: 'time', descending: true };

/**
 * A click on a column's header, as in the public web app: another column sorts ascending; the
 * sorted column turns around.
 */
export function nextSort(sort: RecentSort, column: SortColumn): RecentSort {
  return sort.column === column
    ? { column, descending: !sort.descending }
    : { column, descending: false };
}

/**
 * The rows in the order of a column, as the public web app sorts them: the channel column puts
 * direct messages before channels (then by name), the topic column compares topics or people,
 * the unread column counts; names compare without case. Rows that compare equal stay newest first.
 * `rows` come newest first; the time sort is that order (or its reverse).
 */
export function sortRecent(
  rows: RecentConversation[],
  sort: RecentSort,
  labels: {
    unread: (row: RecentConversation) => number;
    channel: (row: RecentConversation) => string;
    title: (row: RecentConversation) => string;
  },
): RecentConversation[] {
  if (sort.column === 'time') return sort.descending ? rows : [...rows].reverse();
  const key = (row: RecentConversation): string | number => {
    if (sort.column === 'unread') return labels.unread(row);
    if (sort.column === 'topic') return (row.topic ?? labels.title(row)).toLowerCase();
    // "Direct messages" before channels, as "private" sorts before "stream" there.
    return row.streamId === undefined
      ? `0${labels.title(row).toLowerCase()}`
      : `1${labels.channel(row).toLowerCase()}`;
  };
  const keyed = rows.map((row) => ({ row, key: key(row) }));
  const sign = sort.descending ? -1 : 1;
  keyed.sort((a, b) => {
    if (a.key === b.key) return b.row.lastId - a.row.lastId;
    return (a.key < b.key ? -1 : 1) * sign;
  });
  return keyed.map((k) => k.row);
}

// Also the first screen's (renderer/first-screen.ts), which bundles lib/format.ts alone.
export { lastActiveLabel } from '../../lib/format';
