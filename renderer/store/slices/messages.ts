// Messages by id. Each stored message is an immutable object replaced only when that message
// changes (edit, move, flag, reaction, submessage), so `useMessage(id)` re-renders for that message alone.
// The Map itself is mutated in place (see sliceDraft.ts).
import type {
  Message,
  MessageFlag,
  MessageWithFlags,
  Reaction,
  Submessage,
} from '../../../shared/api/types';
import type { ServerEvent, UpdateMessageEvent, ServerEventType } from '../../../shared/api/events';
import { unresolvedTopicName } from '../../../shared/narrow';
import type { EventContext } from '../context';
import type { SliceDraft } from '../sliceDraft';
import {
  emptyConversationIndex,
  indexMessage,
  reindexMessage,
  unindexMessage,
  type ConversationIndex,
} from '../conversation-index';

export type StoredMessage = MessageWithFlags;

export interface MessagesState {
  readonly version: number;
  readonly byId: Map<number, StoredMessage>;
  /** Highest message id a message event has delivered; a higher id cannot be a duplicate. */
  readonly newestEventId: number;
  /** The stored messages by channel and topic, and by DM conversation (kept with byId). */
  readonly conversations: ConversationIndex;
}

export function emptyMessages(): MessagesState {
  return { version: 0, byId: new Map(), newestEventId: 0, conversations: emptyConversationIndex() };
}

function withFlags(message: StoredMessage, flags: MessageFlag[]): StoredMessage {
  return { ...message, flags } as StoredMessage;
}

function sameReaction(a: Reaction, b: Reaction): boolean {
  return (
    a.user_id === b.user_id && a.emoji_code === b.emoji_code && a.reaction_type === b.reaction_type
  );
}

/** Is this edit a move (topic and/or channel change) rather than only a content edit? */
export function isMoveEvent(event: UpdateMessageEvent): boolean {
  return (
    (event.new_stream_id !== undefined && event.new_stream_id !== event.stream_id) ||
    (event.subject !== undefined && event.subject !== event.orig_subject)
  );
}

function applyUpdateMessage(
  d: SliceDraft<MessagesState>,
  ev: UpdateMessageEvent,
  ctx: EventContext,
) {
  const byId = d.read.byId;
  const edited = byId.get(ev.message_id);
  if (edited && (ev.content !== undefined || ev.rendered_content !== undefined)) {
    const next = { ...edited, flags: ev.flags ?? edited.flags } as StoredMessage;
    // The event's `content` is always the raw markup; a message fetched or delivered with
    // apply_markdown holds HTML in `content` (content_type text/html), so it takes the HTML.
    const html = edited.content_type === 'text/html';
    if (html && ev.rendered_content !== undefined) next.content = ev.rendered_content;
    else if (!html && ev.content !== undefined) next.content = ev.content;
    if (ev.rendered_content !== undefined) next.rendered_content = ev.rendered_content;
    if (ev.is_me_message !== undefined) next.is_me_message = ev.is_me_message;
    if (!ev.rendering_only) next.last_edit_timestamp = ev.edit_timestamp;
    d.write.byId.set(ev.message_id, next);
  } else if (edited && ev.flags && ev.flags.join() !== edited.flags.join()) {
    d.write.byId.set(ev.message_id, withFlags(edited, ev.flags));
  }

  if (!isMoveEvent(ev)) return;
  const newStreamId = ev.new_stream_id ?? ev.stream_id;
  const newChannelName =
    newStreamId !== undefined ? ctx.channels.read.channels.get(newStreamId)?.name : undefined;
  const ids = ev.message_ids.includes(ev.message_id)
    ? ev.message_ids
    : [...ev.message_ids, ev.message_id];
  for (const id of ids) {
    const m = byId.get(id);
    if (!m || m.type !== 'stream') continue;
    const next = { ...m } as StoredMessage & { type: 'stream' };
    if (newStreamId !== undefined) next.stream_id = newStreamId;
    if (newChannelName !== undefined) next.display_recipient = newChannelName;
    if (ev.subject !== undefined) {
      next.subject = ev.subject;
      if (ev.topic_links) next.topic_links = ev.topic_links;
    }
    // Resolving or unresolving a topic does not count as a move (chat-api §2.2).
    if (!isResolveOnly(ev)) next.last_moved_timestamp = ev.edit_timestamp;
    d.write.byId.set(id, next);
    reindexMessage(d.read.conversations, m, next);
  }
}

function isResolveOnly(ev: UpdateMessageEvent): boolean {
  if (ev.new_stream_id !== undefined && ev.new_stream_id !== ev.stream_id) return false;
  if (ev.subject === undefined || ev.orig_subject === undefined) return false;
  return unresolvedTopicName(ev.subject) === unresolvedTopicName(ev.orig_subject);
}

function applyFlagChange(
  d: SliceDraft<MessagesState>,
  ids: readonly number[] | 'all',
  flag: MessageFlag,
  add: boolean,
) {
  const byId = d.read.byId;
  const update = (id: number, m: StoredMessage) => {
    const has = m.flags.includes(flag);
    if (has === add) return;
    const flags = add ? [...m.flags, flag] : m.flags.filter((f) => f !== flag);
    d.write.byId.set(id, withFlags(m, flags));
  };
  if (ids === 'all') {
    for (const [id, m] of byId) update(id, m);
    return;
  }
  for (const id of ids) {
    const m = byId.get(id);
    if (m) update(id, m);
  }
}

/** The event types handleMessagesEvent reacts to (the dispatcher calls it for these only). */
export const messagesEventTypes: readonly ServerEventType[] = [
  'message',
  'update_message',
  'delete_message',
  'update_message_flags',
  'reaction',
  'submessage',
  'stream',
];

export function handleMessagesEvent(
  d: SliceDraft<MessagesState>,
  ev: ServerEvent,
  ctx: EventContext,
): void {
  switch (ev.type) {
    case 'message': {
      // The event's message object becomes the stored record (the event is ours once it has crossed
      // IPC), so only the flags are attached instead of copying every field: at 100,000s of events
      // the copy would dominate. A duplicate event simply replaces the record: idempotent.
      const stored = ev.message as StoredMessage;
      if (stored.flags !== ev.flags) stored.flags = ev.flags;
      const w = d.write;
      reindexMessage(w.conversations, w.byId.get(stored.id), stored);
      w.byId.set(stored.id, stored);
      if (stored.id > w.newestEventId) w.newestEventId = stored.id;
      return;
    }
    case 'update_message':
      applyUpdateMessage(d, ev, ctx);
      return;
    case 'delete_message': {
      const ids = ev.message_ids ?? (ev.message_id !== undefined ? [ev.message_id] : []);
      for (const id of ids) {
        const m = d.read.byId.get(id);
        if (!m) continue;
        d.write.byId.delete(id);
        unindexMessage(d.read.conversations, m);
      }
      return;
    }
    case 'update_message_flags':
      applyFlagChange(d, ev.op === 'add' && ev.all ? 'all' : ev.messages, ev.flag, ev.op === 'add');
      return;
    case 'stream':
      // A renamed channel: its messages carry the name in display_recipient. Rare, so a full scan.
      if (ev.op === 'update' && ev.property === 'name' && typeof ev.value === 'string') {
        for (const [id, m] of d.read.byId) {
          if (
            m.type === 'stream' &&
            m.stream_id === ev.stream_id &&
            m.display_recipient !== ev.value
          ) {
            d.write.byId.set(id, { ...m, display_recipient: ev.value });
          }
        }
      }
      return;
    case 'reaction': {
      const m = d.read.byId.get(ev.message_id);
      if (!m) return;
      const reaction: Reaction = {
        emoji_name: ev.emoji_name,
        emoji_code: ev.emoji_code,
        reaction_type: ev.reaction_type,
        user_id: ev.user_id,
      };
      const present = m.reactions.some((r) => sameReaction(r, reaction));
      if (ev.op === 'add' && !present) {
        d.write.byId.set(m.id, { ...m, reactions: [...m.reactions, reaction] } as StoredMessage);
      } else if (ev.op === 'remove' && present) {
        const reactions = m.reactions.filter((r) => !sameReaction(r, reaction));
        d.write.byId.set(m.id, { ...m, reactions } as StoredMessage);
      }
      return;
    }
    case 'submessage': {
      // Widgets (polls, to-do lists) rebuild their state from the message's submessages.
      const m = d.read.byId.get(ev.message_id);
      const known = m?.submessages ?? [];
      if (!m || known.some((s) => s.id === ev.submessage_id)) return;
      const submessage: Submessage = {
        id: ev.submessage_id,
        message_id: ev.message_id,
        sender_id: ev.sender_id,
        msg_type: ev.msg_type,
        content: ev.content,
      };
      d.write.byId.set(m.id, { ...m, submessages: [...known, submessage] } as StoredMessage);
      return;
    }
    default:
      return;
  }
}

/**
 * Add fetched messages (a history page). A message already stored is kept as it is: events have
 * kept it current, and the page may have been computed before the latest edit.
 */
export function mergeMessages(d: SliceDraft<MessagesState>, messages: readonly Message[]): void {
  for (const m of messages) {
    if (d.read.byId.has(m.id)) continue;
    // A search's marked copies belong to its list (narrows.ts), never to the message itself.
    const plain =
      m.match_content !== undefined || m.match_subject !== undefined
        ? (({ match_content: _c, match_subject: _s, ...rest }) => rest)(m)
        : m;
    const stored = (plain.flags ? plain : { ...plain, flags: [] }) as StoredMessage;
    d.write.byId.set(m.id, stored);
    indexMessage(d.read.conversations, stored);
  }
}
