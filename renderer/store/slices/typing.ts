// Who is typing where. Each conversation maps typing user ids to the time their "start" expires
// (server_typing_started_expiry_period_milliseconds after it arrived; the sender repeats "start"
// while typing). A "stop", a message from that user in the conversation, or expiry ends it.
import type { ServerEvent, TypingEvent, ServerEventType } from '../../../shared/api/events';
import type { Message } from '../../../shared/api/types';
import { dmConversationKey } from '../../../shared/narrow';
import type { EventContext } from '../context';
import type { SliceDraft } from '../sliceDraft';

export interface TypingState {
  readonly version: number;
  /** Conversation key (typingKeyForChannel / typingKeyForDm) -> user id -> expiry time (ms). */
  readonly byConversation: Map<string, ReadonlyMap<number, number>>;
  readonly startedExpiryMs: number;
}

export function emptyTyping(startedExpiryMs: number): TypingState {
  return { version: 0, byConversation: new Map(), startedExpiryMs };
}

export function typingKeyForChannel(streamId: number, topic: string): string {
  return `stream:${streamId}:${topic.toLowerCase()}`;
}

/** participantIds may include self and the sender; they are normalized away. */
export function typingKeyForDm(participantIds: readonly number[], selfUserId: number): string {
  return `dm:${dmConversationKey(participantIds, selfUserId)}`;
}

function keyOfTypingEvent(ev: TypingEvent, selfUserId: number): string | undefined {
  if (ev.message_type === 'stream') {
    return ev.stream_id === undefined
      ? undefined
      : typingKeyForChannel(ev.stream_id, ev.topic ?? '');
  }
  const ids = (ev.recipients ?? []).map((r) => r.user_id);
  return typingKeyForDm([...ids, ev.sender.user_id], selfUserId);
}

function keyOfMessage(m: Message, selfUserId: number): string {
  return m.type === 'stream'
    ? typingKeyForChannel(m.stream_id, m.subject)
    : typingKeyForDm(
        m.display_recipient.map((r) => r.id),
        selfUserId,
      );
}

function setTyper(
  d: SliceDraft<TypingState>,
  key: string,
  userId: number,
  expiresAt: number | undefined,
) {
  const current = d.read.byConversation.get(key);
  if (expiresAt === undefined && !current?.has(userId)) return;
  const next = new Map(current ?? []);
  if (expiresAt === undefined) next.delete(userId);
  else next.set(userId, expiresAt);
  if (next.size === 0) d.write.byConversation.delete(key);
  else d.write.byConversation.set(key, next);
}

/** The event types handleTypingEvent reacts to (the dispatcher calls it for these only). */
export const typingEventTypes: readonly ServerEventType[] = ['typing', 'message'];

export function handleTypingEvent(
  d: SliceDraft<TypingState>,
  ev: ServerEvent,
  ctx: EventContext,
): void {
  if (ev.type === 'typing') {
    if (ev.sender.user_id === ctx.selfUserId) return;
    const key = keyOfTypingEvent(ev, ctx.selfUserId);
    if (!key) return;
    setTyper(
      d,
      key,
      ev.sender.user_id,
      ev.op === 'start' ? ctx.now + d.read.startedExpiryMs : undefined,
    );
  } else if (ev.type === 'message' && d.read.byConversation.size > 0) {
    setTyper(d, keyOfMessage(ev.message, ctx.selfUserId), ev.message.sender_id, undefined);
  }
}

/** Drop expired typers; returns whether anything changed. */
export function pruneTyping(d: SliceDraft<TypingState>, now: number): void {
  for (const [key, typers] of d.read.byConversation) {
    for (const [userId, expiresAt] of typers) {
      if (expiresAt <= now) setTyper(d, key, userId, undefined);
    }
  }
}
