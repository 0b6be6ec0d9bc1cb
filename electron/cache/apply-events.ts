// Server events applied to the cached messages as they arrive, so the cache is always the server's
// current state: new messages, edits (content, rendering, topic and channel moves), deletions,
// reactions, flags and submessages. Every change is idempotent (a reaction already there, a flag
// already set, a message already gone change nothing), so an event main synthesized for an action
// done offline and the server's own event for it later leave the same state.
import type {
  DeleteMessageEvent,
  MessageEvent,
  ReactionEvent,
  ServerEvent,
  SubmessageEvent,
  UpdateMessageEvent,
  UpdateMessageFlagsEvent,
} from '../../shared/api/events';
import type { MessageWithFlags } from '../../shared/api/types';
import { flagBit, topicConversation } from './message-columns';
import type { MessageStore } from './message-store';

export interface ApplyContext {
  /** A channel's name, for messages moved to another channel (their display_recipient). */
  channelName?(streamId: number): string | undefined;
}

export function applyEvents(
  store: MessageStore,
  events: readonly ServerEvent[],
  ctx: ApplyContext = {},
): void {
  for (const event of events) {
    switch (event.type) {
      case 'message': {
        const { message, flags } = event as MessageEvent;
        store.addNew({ ...message, flags: flags ?? message.flags ?? [] } as MessageWithFlags);
        break;
      }
      case 'update_message':
        applyUpdate(store, event as UpdateMessageEvent, ctx);
        break;
      case 'delete_message': {
        const { message_ids, message_id } = event as DeleteMessageEvent;
        store.remove(message_ids ?? (message_id !== undefined ? [message_id] : []));
        break;
      }
      case 'reaction':
        applyReaction(store, event as ReactionEvent);
        break;
      case 'update_message_flags': {
        const flags = event as UpdateMessageFlagsEvent;
        const bit = flagBit(flags.flag);
        if (bit === 0) break;
        const on = flags.op === 'add';
        store.setFlag(on && flags.all ? 'all' : flags.messages, bit, on);
        break;
      }
      case 'submessage':
        applySubmessage(store, event as SubmessageEvent);
        break;
      default:
        break;
    }
  }
}

function applyUpdate(store: MessageStore, event: UpdateMessageEvent, ctx: ApplyContext): void {
  const edited = store.get(event.message_id);
  if (edited && event.rendered_content !== undefined) {
    const next: MessageWithFlags = { ...edited, content: event.rendered_content };
    if (!event.rendering_only) next.last_edit_timestamp = event.edit_timestamp;
    if (event.is_me_message !== undefined) next.is_me_message = event.is_me_message;
    if (Array.isArray(event.flags)) next.flags = event.flags;
    store.put([next]);
  } else if (edited && Array.isArray(event.flags) && !event.rendering_only) {
    store.put([{ ...edited, flags: event.flags }], false);
  }
  const moved = event.subject !== undefined || event.new_stream_id !== undefined;
  if (!moved) return;
  const ids = event.message_ids?.length ? event.message_ids : [event.message_id];
  let missing = false;
  const changed: MessageWithFlags[] = [];
  for (const id of ids) {
    const message = store.get(id);
    if (!message) missing = true;
    if (message?.type !== 'stream') continue;
    const streamId = event.new_stream_id ?? message.stream_id;
    changed.push({
      ...message,
      stream_id: streamId,
      display_recipient:
        streamId === message.stream_id
          ? message.display_recipient
          : (ctx.channelName?.(streamId) ?? message.display_recipient),
      subject: event.subject ?? message.subject,
      topic_links: event.topic_links ?? message.topic_links,
      last_moved_timestamp: event.edit_timestamp,
    });
  }
  store.put(changed);
  // The destination holds every moved message only if each was here; otherwise it has gaps now.
  const streamId = event.new_stream_id ?? event.stream_id;
  const topic = event.subject ?? event.orig_subject;
  if (missing && streamId !== undefined && topic !== undefined)
    store.dropSpans(topicConversation(streamId, topic));
}

function applyReaction(store: MessageStore, event: ReactionEvent): void {
  const message = store.get(event.message_id);
  if (!message) return;
  const same = (r: MessageWithFlags['reactions'][number]) =>
    r.user_id === event.user_id &&
    r.emoji_code === event.emoji_code &&
    r.reaction_type === event.reaction_type;
  const reactions = message.reactions ?? [];
  const present = reactions.some(same);
  if (event.op === 'add' && present) return;
  if (event.op === 'remove' && !present) return;
  const next =
    event.op === 'add'
      ? [
          ...reactions,
          {
            emoji_name: event.emoji_name,
            emoji_code: event.emoji_code,
            reaction_type: event.reaction_type,
            user_id: event.user_id,
          },
        ]
      : reactions.filter((r) => !same(r));
  store.put([{ ...message, reactions: next }], false);
}

function applySubmessage(store: MessageStore, event: SubmessageEvent): void {
  const message = store.get(event.message_id);
  if (!message) return;
  const submessages = message.submessages ?? [];
  if (submessages.some((s) => s.id === event.submessage_id)) return;
  store.put(
    [
      {
        ...message,
        submessages: [
          ...submessages,
          {
            id: event.submessage_id,
            message_id: event.message_id,
            sender_id: event.sender_id,
            msg_type: event.msg_type,
            content: event.content,
          },
        ],
      },
    ],
    false,
  );
}
