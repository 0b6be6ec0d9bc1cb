// Unread messages, indexed by conversation. Seeded from register's unread_msgs and kept current by
// message, flag, move and delete events. The index stores each unread message's location itself, so
// a move or a re-unread can be applied even when the message is not in the messages slice (most
// unreads never are). Counts (with muted channels and topics excluded) are derived in selectors.ts.
import type { Message, MessageFlag, UnreadMessages } from '../../../shared/api/types';
import type { ServerEvent, ServerEventType } from '../../../shared/api/events';
import { dmConversationKey } from '../../../shared/narrow';
import type { EventContext } from '../context';
import type { SliceDraft } from '../sliceDraft';
import { MessageIdSet } from '../message-id-set';

export type UnreadLocation =
  | { readonly kind: 'stream'; readonly streamId: number; readonly topic: string }
  | { readonly kind: 'dm'; readonly key: string };

/** The unread ids of one conversation, with the (shared) location object of its messages. */
export interface UnreadBucket {
  readonly loc: UnreadLocation;
  /** Also knows its newest id, which orders the sidebar's topics and conversations. */
  readonly ids: MessageIdSet;
}

export interface UnreadsState {
  readonly version: number;
  /** message id -> its conversation (the bucket's shared location object) */
  readonly locations: Map<number, UnreadLocation>;
  /** channel id -> topic -> unread bucket */
  readonly streams: Map<number, Map<string, UnreadBucket>>;
  /** DM conversation key (see dmConversationKey) -> unread bucket */
  readonly dms: Map<string, UnreadBucket>;
  /** Unread messages that mention the user (personally, by wildcard or by group). */
  readonly mentions: Set<number>;
  /** The server truncated unread_msgs; counts are lower bounds. */
  readonly oldUnreadsMissing: boolean;
}

const MENTION_FLAGS: readonly MessageFlag[] = [
  'mentioned',
  'stream_wildcard_mentioned',
  'topic_wildcard_mentioned',
  'wildcard_mentioned',
];

export function isMentionFlags(flags: readonly MessageFlag[]): boolean {
  for (let i = 0; i < flags.length; i++) if (MENTION_FLAGS.includes(flags[i])) return true;
  return false;
}

export function emptyUnreads(): UnreadsState {
  return {
    version: 0,
    locations: new Map(),
    streams: new Map(),
    dms: new Map(),
    mentions: new Set(),
    oldUnreadsMissing: false,
  };
}

function bucketFor(s: UnreadsState, loc: UnreadLocation): UnreadBucket {
  if (loc.kind === 'stream') {
    let topics = s.streams.get(loc.streamId);
    if (!topics) s.streams.set(loc.streamId, (topics = new Map()));
    let bucket = topics.get(loc.topic);
    if (!bucket) topics.set(loc.topic, (bucket = { loc, ids: new MessageIdSet() }));
    return bucket;
  }
  let bucket = s.dms.get(loc.key);
  if (!bucket) s.dms.set(loc.key, (bucket = { loc, ids: new MessageIdSet() }));
  return bucket;
}

function addUnread(s: UnreadsState, id: number, loc: UnreadLocation): void {
  const old = s.locations.get(id);
  if (old) removeFromIndex(s, id, old);
  // Location objects are shared per conversation: one allocation per conversation, not per message.
  const bucket = bucketFor(s, loc);
  bucket.ids.add(id);
  s.locations.set(id, bucket.loc);
}

/** Hot path for new channel messages: no location object unless the topic is new. */
function addChannelUnread(s: UnreadsState, id: number, streamId: number, topic: string): void {
  const bucket = s.streams.get(streamId)?.get(topic);
  if (bucket && !s.locations.has(id)) {
    bucket.ids.add(id);
    s.locations.set(id, bucket.loc);
    return;
  }
  addUnread(s, id, { kind: 'stream', streamId, topic });
}

function removeFromIndex(s: UnreadsState, id: number, loc: UnreadLocation): void {
  if (loc.kind === 'stream') {
    const topics = s.streams.get(loc.streamId);
    const bucket = topics?.get(loc.topic);
    if (!topics || !bucket) return;
    bucket.ids.delete(id);
    if (bucket.ids.size === 0) topics.delete(loc.topic);
    if (topics.size === 0) s.streams.delete(loc.streamId);
  } else {
    const bucket = s.dms.get(loc.key);
    if (!bucket) return;
    bucket.ids.delete(id);
    if (bucket.ids.size === 0) s.dms.delete(loc.key);
  }
}

function removeUnread(d: SliceDraft<UnreadsState>, id: number): void {
  const loc = d.read.locations.get(id);
  if (!loc) return;
  const s = d.write;
  removeFromIndex(s, id, loc);
  s.locations.delete(id);
  s.mentions.delete(id);
}

export function locationOfMessage(m: Message, selfUserId: number): UnreadLocation {
  if (m.type === 'stream') return { kind: 'stream', streamId: m.stream_id, topic: m.subject };
  return {
    kind: 'dm',
    key: dmConversationKey(
      m.display_recipient.map((r) => r.id),
      selfUserId,
    ),
  };
}

/**
 * One conversation's unread ids from register: its bucket looked up once, not per id (a large
 * organization lists 20,000 ids, on the first sign-in's path). An id listed before goes through
 * addUnread, which moves it, as it did before.
 */
function addConversation(s: UnreadsState, ids: readonly number[], loc: UnreadLocation): void {
  let bucket = bucketFor(s, loc);
  for (const id of ids) {
    if (s.locations.has(id)) {
      addUnread(s, id, loc);
      // Moving it may have emptied and dropped this very bucket.
      bucket = bucketFor(s, loc);
      continue;
    }
    bucket.ids.add(id);
    s.locations.set(id, bucket.loc);
  }
}

export function unreadsFromRegister(unread: UnreadMessages, selfUserId: number): UnreadsState {
  const s = emptyUnreads();
  for (const entry of unread.streams) {
    const loc = { kind: 'stream', streamId: entry.stream_id, topic: entry.topic } as const;
    addConversation(s, entry.unread_message_ids, loc);
  }
  for (const entry of unread.pms) {
    const other = entry.other_user_id ?? entry.sender_id ?? selfUserId;
    const loc = { kind: 'dm', key: dmConversationKey([other], selfUserId) } as const;
    addConversation(s, entry.unread_message_ids, loc);
  }
  for (const entry of unread.huddles) {
    const ids = entry.user_ids_string.split(',').map(Number);
    const loc = { kind: 'dm', key: dmConversationKey(ids, selfUserId) } as const;
    addConversation(s, entry.unread_message_ids, loc);
  }
  // Mentions are a subset of the unreads above; ignore ids the server did not list as unread.
  for (const id of unread.mentions) if (s.locations.has(id)) s.mentions.add(id);
  return { ...s, oldUnreadsMissing: unread.old_unreads_missing ?? false };
}

/** The event types handleUnreadsEvent reacts to (the dispatcher calls it for these only). */
export const unreadsEventTypes: readonly ServerEventType[] = [
  'message',
  'update_message',
  'delete_message',
  'update_message_flags',
  'stream',
  'subscription',
];

/** Forget a channel's unreads (it was deleted, or the user left it). */
function dropChannelUnreads(d: SliceDraft<UnreadsState>, streamId: number): void {
  const topics = d.read.streams.get(streamId);
  if (!topics) return;
  for (const bucket of [...topics.values()]) for (const id of [...bucket.ids]) removeUnread(d, id);
}

export function handleUnreadsEvent(
  d: SliceDraft<UnreadsState>,
  ev: ServerEvent,
  ctx: EventContext,
): void {
  switch (ev.type) {
    case 'message': {
      const m = ev.message;
      // The user's own messages are never unread, whatever flags a server sends with them.
      if (ev.flags.includes('read') || m.sender_id === ctx.selfUserId) return;
      // A duplicate delivery of a message the user has read since must not make it unread again
      // (this slice runs before the messages slice, so `known` is the state before this event).
      // Ids above the newest delivered one are new: skip the lookup, the common case.
      const maybeDuplicate = m.id <= ctx.messages.read.newestEventId;
      if (maybeDuplicate && ctx.messages.read.byId.get(m.id)?.flags.includes('read')) return;
      const s = d.write;
      if (m.type === 'stream') addChannelUnread(s, m.id, m.stream_id, m.subject);
      else addUnread(s, m.id, locationOfMessage(m, ctx.selfUserId));
      if (isMentionFlags(ev.flags)) s.mentions.add(m.id);
      return;
    }
    case 'update_message': {
      // A content edit can add or remove a mention of the user.
      if (d.read.locations.has(ev.message_id) && ev.flags) {
        const mentioned = isMentionFlags(ev.flags);
        if (mentioned !== d.read.mentions.has(ev.message_id)) {
          if (mentioned) d.write.mentions.add(ev.message_id);
          else d.write.mentions.delete(ev.message_id);
        }
      }
      const newStreamId = ev.new_stream_id ?? ev.stream_id;
      if (ev.new_stream_id === undefined && ev.subject === undefined) return;
      for (const id of ev.message_ids) {
        const loc = d.read.locations.get(id);
        if (!loc || loc.kind !== 'stream') continue;
        const moved: UnreadLocation = {
          kind: 'stream',
          streamId: newStreamId ?? loc.streamId,
          topic: ev.subject ?? loc.topic,
        };
        if (moved.streamId === loc.streamId && moved.topic === loc.topic) continue;
        addUnread(d.write, id, moved);
      }
      return;
    }
    case 'delete_message': {
      const ids = ev.message_ids ?? (ev.message_id !== undefined ? [ev.message_id] : []);
      for (const id of ids) removeUnread(d, id);
      return;
    }
    case 'stream': {
      // A deleted (or archived, for older clients) channel takes its unreads with it.
      if (ev.op !== 'delete') return;
      const streamIds = ev.stream_ids ?? ev.streams?.map((c) => c.stream_id) ?? [];
      for (const streamId of streamIds) dropChannelUnreads(d, streamId);
      return;
    }
    case 'subscription': {
      // Leaving a channel takes its unreads out of every count, as register's unread_msgs only
      // covers subscribed channels. Subscribing again brings them back with the next snapshot.
      if (ev.op !== 'remove') return;
      for (const sub of ev.subscriptions) dropChannelUnreads(d, sub.stream_id);
      return;
    }
    case 'update_message_flags': {
      if (ev.flag !== 'read') return;
      if (ev.op === 'add') {
        if (ev.all) {
          if (d.read.locations.size === 0) return;
          const s = d.write;
          s.locations.clear();
          s.streams.clear();
          s.dms.clear();
          s.mentions.clear();
          return;
        }
        for (const id of ev.messages) removeUnread(d, id);
        return;
      }
      // Marked unread again: locate each message from the event's details, else from the store.
      for (const id of ev.messages) {
        if (d.read.locations.has(id)) continue;
        const detail = ev.message_details?.[String(id)];
        const stored = ctx.messages.read.byId.get(id);
        let loc: UnreadLocation | undefined;
        let mentioned = false;
        if (detail) {
          mentioned = !!detail.mentioned;
          if (detail.type === 'stream' && detail.stream_id !== undefined) {
            loc = { kind: 'stream', streamId: detail.stream_id, topic: detail.topic ?? '' };
          } else if (detail.type === 'private') {
            loc = { kind: 'dm', key: dmConversationKey(detail.user_ids ?? [], ctx.selfUserId) };
          }
        } else if (stored) {
          loc = locationOfMessage(stored, ctx.selfUserId);
          mentioned = isMentionFlags(stored.flags);
        }
        if (!loc) continue;
        const s = d.write;
        addUnread(s, id, loc);
        if (mentioned) s.mentions.add(id);
      }
      return;
    }
    default:
      return;
  }
}
