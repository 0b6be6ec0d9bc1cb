// Derived views of an account's state. Derived values are memoized on the identity of the slices
// they read, so a selector returns the same object until one of those slices changes (which is
// what keeps zustand hooks from re-rendering, and from looping on a fresh object every call).
import { messageMatchesNarrow, narrowFromKey, type MatchableMessage } from '../../shared/narrow';
import type { AccountState } from './account';
import type { ChatState } from './store';
import type { ChannelsState } from './slices/channels';
import type { OutboxEntry, OutboxState } from './slices/outbox';
import type { UnreadsState } from './slices/unreads';
import type { UsersState } from './slices/users';
import { narrowMatchContext } from './match-context';
import { isTopicMuted, topicVisibility, type UserTopicsState } from './slices/userTopics';

export function selectActiveAccount(state: ChatState): AccountState | undefined {
  return state.activeAccountId === null ? undefined : state.accounts[state.activeAccountId];
}

export interface TopicUnreads {
  readonly topic: string;
  readonly count: number;
  /** Muted (by the topic, or by its channel without an unmute/follow): left out of totals. */
  readonly muted: boolean;
  /** Some of its unread messages mention the user. */
  readonly mentioned: boolean;
}

export interface ChannelUnreads {
  readonly streamId: number;
  /** Unreads in topics that are not muted. */
  readonly count: number;
  /** Every unread, muted topics included. */
  readonly countIncludingMuted: number;
  readonly channelMuted: boolean;
  readonly topics: ReadonlyMap<string, TopicUnreads>;
}

export interface UnreadCounts {
  /** Every unread, excluding muted channels and topics (like unread_msgs.count). */
  readonly total: number;
  readonly channels: ReadonlyMap<number, ChannelUnreads>;
  /** DM conversation key -> count. */
  readonly dms: ReadonlyMap<string, number>;
  readonly dmTotal: number;
  /** DM conversation keys with an unread message that mentions the user. */
  readonly dmsMentioned: ReadonlySet<string>;
  readonly mentions: number;
  /** The server truncated the unread data; counts are lower bounds. */
  readonly incomplete: boolean;
}

interface UnreadInputs {
  unreads: UnreadsState;
  channels: ChannelsState;
  userTopics: UserTopicsState;
}

const unreadMemo = new WeakMap<UnreadsState, { inputs: UnreadInputs; counts: UnreadCounts }>();

export function computeUnreadCounts({ unreads, channels, userTopics }: UnreadInputs): UnreadCounts {
  const channelCounts = new Map<number, ChannelUnreads>();
  let total = 0;
  // From the mentions (few) rather than from every unread id (20,000 in a large organization).
  const mentionedTopics = new Map<number, Set<string>>();
  const dmsMentioned = new Set<string>();
  for (const id of unreads.mentions) {
    const loc = unreads.locations.get(id);
    if (!loc) continue;
    if (loc.kind === 'dm') dmsMentioned.add(loc.key);
    else {
      let topics = mentionedTopics.get(loc.streamId);
      if (!topics) mentionedTopics.set(loc.streamId, (topics = new Set()));
      topics.add(loc.topic);
    }
  }
  for (const [streamId, topics] of unreads.streams) {
    const channelMuted = channels.subscriptions.get(streamId)?.is_muted ?? false;
    const topicCounts = new Map<string, TopicUnreads>();
    let count = 0;
    let countIncludingMuted = 0;
    for (const [topic, { ids }] of topics) {
      const policy = topicVisibility(userTopics, streamId, topic);
      const muted = isTopicMuted(policy, channelMuted);
      const mentioned = mentionedTopics.get(streamId)?.has(topic) ?? false;
      topicCounts.set(topic, { topic, count: ids.size, muted, mentioned });
      countIncludingMuted += ids.size;
      if (!muted) count += ids.size;
    }
    channelCounts.set(streamId, {
      streamId,
      count,
      countIncludingMuted,
      channelMuted,
      topics: topicCounts,
    });
    total += count;
  }
  const dms = new Map<string, number>();
  let dmTotal = 0;
  for (const [key, { ids }] of unreads.dms) {
    dms.set(key, ids.size);
    dmTotal += ids.size;
  }
  return {
    total: total + dmTotal,
    channels: channelCounts,
    dms,
    dmTotal,
    dmsMentioned,
    mentions: unreads.mentions.size,
    incomplete: unreads.oldUnreadsMissing,
  };
}

const EMPTY_COUNTS: UnreadCounts = {
  total: 0,
  channels: new Map(),
  dms: new Map(),
  dmTotal: 0,
  dmsMentioned: new Set(),
  mentions: 0,
  incomplete: false,
};

/** Unread counts of an account, recomputed only when unreads, subscriptions or user topics change. */
export function selectUnreadCounts(account: AccountState | undefined): UnreadCounts {
  if (!account) return EMPTY_COUNTS;
  const { unreads, channels, userTopics } = account;
  const hit = unreadMemo.get(unreads);
  if (hit && hit.inputs.channels === channels && hit.inputs.userTopics === userTopics)
    return hit.counts;
  const counts = computeUnreadCounts({ unreads, channels, userTopics });
  unreadMemo.set(unreads, { inputs: { unreads, channels, userTopics }, counts });
  return counts;
}

/** A local echo in the shape narrow matching reads. */
function echoAsMatchable(entry: OutboxEntry, account: AccountState): MatchableMessage {
  const d = entry.destination;
  if (d.type === 'stream') {
    return {
      id: Number.MAX_SAFE_INTEGER,
      type: 'stream',
      sender_id: account.selfUserId,
      stream_id: d.streamId,
      subject: d.topic,
      display_recipient: account.channels.channels.get(d.streamId)?.name ?? '',
      flags: ['read'],
    };
  }
  const ids = [...new Set([...d.to, account.selfUserId])];
  return {
    id: Number.MAX_SAFE_INTEGER,
    type: 'private',
    sender_id: account.selfUserId,
    subject: '',
    display_recipient: ids.map((id) => ({ id, email: account.users.users.get(id)?.email ?? '' })),
    flags: ['read'],
  };
}

/** Per outbox: the slices matching read when the lists were computed, and each narrow's list. */
interface OutboxMatches {
  channels: ChannelsState;
  users: UsersState;
  userTopics: UserTopicsState;
  perNarrow: Map<string, readonly OutboxEntry[]>;
}
const outboxMemo = new WeakMap<OutboxState, OutboxMatches>();
const NO_ENTRIES: readonly OutboxEntry[] = [];

/**
 * Local echoes that belong at the end of a narrow's list, oldest first. Matched with the same
 * context as stored messages: muting a channel or topic moves its echoes out of `in:home` and into
 * `is:muted` as it does for the messages around them.
 */
export function selectOutboxForNarrow(
  account: AccountState | undefined,
  narrowKey: string,
): readonly OutboxEntry[] {
  if (!account || account.outbox.byLocalId.size === 0) return NO_ENTRIES;
  const { channels, users, userTopics } = account;
  let memo = outboxMemo.get(account.outbox);
  if (
    !memo ||
    memo.channels !== channels ||
    memo.users !== users ||
    memo.userTopics !== userTopics
  ) {
    memo = { channels, users, userTopics, perNarrow: new Map() };
    outboxMemo.set(account.outbox, memo);
  }
  const cached = memo.perNarrow.get(narrowKey);
  if (cached) return cached;
  const narrow = narrowFromKey(narrowKey);
  const ctx = narrowMatchContext(account, account.selfUserId);
  const entries = [...account.outbox.byLocalId.values()]
    .filter((e) => messageMatchesNarrow(echoAsMatchable(e, account), narrow, ctx) !== false)
    .sort((a, b) => a.createdAt - b.createdAt);
  memo.perNarrow.set(narrowKey, entries);
  return entries;
}

/** User ids typing in a conversation at `now` (expired entries filtered out). */
export function typingUsersAt(
  typers: ReadonlyMap<number, number> | undefined,
  now: number,
): number[] {
  if (!typers) return [];
  return [...typers].filter(([, expiresAt]) => expiresAt > now).map(([userId]) => userId);
}
