// The events the server would send for an action done offline, so the renderer's store and the
// cache show it at once through the same path as the server's own events, and the events that undo
// it when the server refuses it. The server's real event, when it comes, must find the state already
// there: every handler applies these idempotently (a reaction present is not added twice, a flag set
// is not set again, a deleted message is not deleted twice).
import type {
  DeleteMessageEvent,
  ReactionEvent,
  ServerEvent,
  UpdateMessageEvent,
  UpdateMessageFlagsAddEvent,
  UserTopicEvent,
} from '../../shared/api/events';
import type { Message, MessageFlag, ReactionType, VisibilityPolicy } from '../../shared/api/types';
import { emojiCodeForName } from '../../shared/emoji/names';
import type { OfflineAction } from './action-queue';

/** An event as built here; the session gives it its id when it is delivered. */
export type UnnumberedEvent = Omit<ServerEvent, 'id'>;

export interface ActionEventContext {
  selfUserId: number;
  /** Now, in seconds (event timestamps are the server's seconds). */
  nowSeconds: number;
  /** The topic's current visibility policy (0 when none). */
  topicPolicy(streamId: number, topic: string): VisibilityPolicy;
  /** Ids of the messages of a narrow page this computer holds (for a mark read/unread of a narrow). */
  narrowMessageIds(action: Extract<OfflineAction, { kind: 'updateFlagsForNarrow' }>): number[];
}

export interface ActionEvents {
  shown: UnnumberedEvent[];
  /** Empty when the undo can only be known from the server (edits and deletions, see replay). */
  undo: UnnumberedEvent[];
}

export function actionEvents(action: OfflineAction, ctx: ActionEventContext): ActionEvents {
  switch (action.kind) {
    case 'updateFlags': {
      const { messages, op, flag } = action.payload;
      return {
        shown: [flagsEvent(messages, op, flag)],
        undo: [flagsEvent(messages, op === 'add' ? 'remove' : 'add', flag)],
      };
    }
    case 'updateFlagsForNarrow': {
      const { op, flag } = action.payload;
      const ids = ctx.narrowMessageIds(action);
      if (ids.length === 0) return { shown: [], undo: [] };
      return {
        shown: [flagsEvent(ids, op, flag)],
        undo: [flagsEvent(ids, op === 'add' ? 'remove' : 'add', flag)],
      };
    }
    case 'markAllAsRead':
      // As the server announces it: every message read, no ids. What was unread is not known
      // here in full (the cache need not hold it), so a refusal is undone by the next snapshot.
      return { shown: [flagsEvent([], 'add', 'read', true)], undo: [] };
    case 'addReaction':
    case 'removeReaction': {
      const add = action.kind === 'addReaction';
      return {
        shown: [reactionEvent(action.payload, add ? 'add' : 'remove', ctx.selfUserId)],
        undo: [reactionEvent(action.payload, add ? 'remove' : 'add', ctx.selfUserId)],
      };
    }
    case 'setUserTopic': {
      const { streamId, topic, visibilityPolicy } = action.payload;
      const before = ctx.topicPolicy(streamId, topic);
      return {
        shown: [userTopicEvent(streamId, topic, visibilityPolicy as VisibilityPolicy, ctx)],
        undo: [userTopicEvent(streamId, topic, before, ctx)],
      };
    }
    case 'deleteMessage':
      return { shown: [deleteEvent(action.payload.messageId)], undo: [] };
    case 'editMessage': {
      const { messageId, content, topic, streamId } = action.payload;
      const event: Partial<UpdateMessageEvent> & UnnumberedEvent = {
        type: 'update_message',
        user_id: ctx.selfUserId,
        rendering_only: false,
        message_id: messageId,
        message_ids: [messageId],
        edit_timestamp: ctx.nowSeconds,
      };
      if (content !== undefined) {
        event.content = content;
        // The server renders Markdown; until it answers, the text is shown as written.
        event.rendered_content = plainTextHtml(content);
      }
      // A move is shown for this message only; the server's events move the rest of the topic.
      if (topic !== undefined) event.subject = topic;
      if (streamId !== undefined) event.new_stream_id = streamId;
      return { shown: [event as UnnumberedEvent], undo: [] };
    }
  }
}

/** The events that put a message back as the server has it (an edit or deletion refused). */
export function restoreMessageEvents(
  message: Message & { flags?: MessageFlag[] },
  shown: readonly ServerEvent[],
  nowSeconds: number,
): UnnumberedEvent[] {
  const wasDeleted = shown.some((event) => event.type === 'delete_message');
  if (wasDeleted) {
    return [
      { type: 'message', message, flags: message.flags ?? ['read'] } as unknown as UnnumberedEvent,
    ];
  }
  const edit = shown.find((event): event is UpdateMessageEvent => event.type === 'update_message');
  const restored: Partial<UpdateMessageEvent> & UnnumberedEvent = {
    type: 'update_message',
    user_id: null,
    rendering_only: false,
    message_id: message.id,
    message_ids: [message.id],
    edit_timestamp: message.last_edit_timestamp ?? nowSeconds,
    content: message.content,
    rendered_content: message.content,
  };
  if (edit?.subject !== undefined && message.type === 'stream') {
    restored.orig_subject = edit.subject;
    restored.subject = message.subject;
    restored.stream_id = edit.new_stream_id ?? message.stream_id;
    if (edit.new_stream_id !== undefined) restored.new_stream_id = message.stream_id;
  }
  return [restored as UnnumberedEvent];
}

function flagsEvent(
  messages: number[],
  op: 'add' | 'remove',
  flag: string,
  all = false,
): UnnumberedEvent {
  const event: Omit<UpdateMessageFlagsAddEvent, 'id' | 'op'> & { op: 'add' | 'remove' } = {
    type: 'update_message_flags',
    op,
    operation: op as 'add',
    flag: flag as MessageFlag,
    messages,
    all,
  };
  return event as UnnumberedEvent;
}

function reactionEvent(
  payload: { messageId: number; emojiName: string; emojiCode?: string; reactionType?: string },
  op: 'add' | 'remove',
  userId: number,
): UnnumberedEvent {
  const event: Omit<ReactionEvent, 'id'> = {
    type: 'reaction',
    op,
    message_id: payload.messageId,
    emoji_name: payload.emojiName,
    // As the server names it: the real event must find this one the same reaction.
    emoji_code: payload.emojiCode ?? emojiCodeForName(payload.emojiName) ?? '',
    reaction_type: (payload.reactionType ?? 'unicode_emoji') as ReactionType,
    user_id: userId,
  };
  return event as UnnumberedEvent;
}

function userTopicEvent(
  streamId: number,
  topic: string,
  policy: VisibilityPolicy,
  ctx: ActionEventContext,
): UnnumberedEvent {
  const event: Omit<UserTopicEvent, 'id'> = {
    type: 'user_topic',
    stream_id: streamId,
    topic_name: topic,
    last_updated: ctx.nowSeconds,
    visibility_policy: policy,
  };
  return event as UnnumberedEvent;
}

function deleteEvent(messageId: number): UnnumberedEvent {
  // message_type is not known here; the renderer's handlers use only the ids.
  const event: Omit<DeleteMessageEvent, 'id'> = {
    type: 'delete_message',
    message_ids: [messageId],
    message_type: 'stream',
  };
  return event as UnnumberedEvent;
}

/** The text as one escaped paragraph per block, line breaks kept: what shows until the server renders. */
export function plainTextHtml(text: string): string {
  const escaped = text
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;');
  return escaped
    .split(/\n{2,}/)
    .map((block) => `<p>${block.replace(/\n/g, '<br>\n')}</p>`)
    .join('\n');
}
