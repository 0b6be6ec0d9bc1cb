// The few plain columns the message store keeps beside each sealed message, so narrows are answered
// without opening every row: flags and "has" facts as bitmasks, and the conversation as a keyed
// name (the store HMACs it: a topic or a list of people is text someone wrote, never kept in clear).
import type { Message, MessageFlag } from '../../shared/api/types';
import { canonicalOperator, type NarrowMatchContext, type NarrowTerm } from '../../shared/narrow';

const FLAG_BITS: Record<MessageFlag, number> = {
  read: 1,
  starred: 2,
  collapsed: 4,
  mentioned: 8,
  stream_wildcard_mentioned: 16,
  topic_wildcard_mentioned: 32,
  wildcard_mentioned: 64,
  has_alert_word: 128,
  historical: 256,
};

export const MENTION_BITS =
  FLAG_BITS.mentioned |
  FLAG_BITS.stream_wildcard_mentioned |
  FLAG_BITS.topic_wildcard_mentioned |
  FLAG_BITS.wildcard_mentioned;

export function flagBit(flag: string): number {
  return FLAG_BITS[flag as MessageFlag] ?? 0;
}

export function flagBits(flags: readonly string[]): number {
  let bits = 0;
  for (const flag of flags) bits |= flagBit(flag);
  return bits;
}

export function flagsOf(bits: number): MessageFlag[] {
  return (Object.keys(FLAG_BITS) as MessageFlag[]).filter((flag) => bits & FLAG_BITS[flag]);
}

/** `has:` operands the store decides from the rendered HTML (as the server decides them from it). */
export const HAS_BITS = { reaction: 1, link: 2, image: 4, attachment: 8 } as const;

export function hasBits(message: Pick<Message, 'content' | 'reactions'>): number {
  const html = message.content ?? '';
  let bits = 0;
  if ((message.reactions?.length ?? 0) > 0) bits |= HAS_BITS.reaction;
  if (/<a\s[^>]*href=/i.test(html)) bits |= HAS_BITS.link;
  if (/class="message_inline_image|<img\s/i.test(html)) bits |= HAS_BITS.image;
  if (/href="\/user_uploads\//i.test(html)) bits |= HAS_BITS.attachment;
  return bits;
}

/** The conversation a message belongs to: a channel's topic (topics are case-insensitive) or a DM. */
export function conversationOf(message: Message): string {
  if (message.type === 'stream') return topicConversation(message.stream_id, message.subject);
  const recipients = Array.isArray(message.display_recipient) ? message.display_recipient : [];
  return dmConversation(recipients.map((r) => r.id));
}

export function topicConversation(streamId: number, topic: string): string {
  return `topic:${streamId}:${topic.toLowerCase()}`;
}

/** Every participant, self included: the same key whoever reads it. */
export function dmConversation(participants: readonly number[]): string {
  return `dm:${[...new Set(participants)].sort((a, b) => a - b).join(',')}`;
}

function intOperand(operand: unknown): number | undefined {
  if (typeof operand === 'number') return operand;
  if (typeof operand === 'string' && /^\d+$/.test(operand.trim())) return Number(operand);
  return undefined;
}

export function channelIdOf(operand: unknown, ctx: NarrowMatchContext): number | undefined {
  return intOperand(operand) ?? ctx.channelIdByName?.(String(operand));
}

export function userIdOf(operand: unknown, ctx: NarrowMatchContext): number | undefined {
  const id = intOperand(operand);
  if (id !== undefined) return id;
  const email = String(operand).trim().toLowerCase();
  return email === 'me' ? ctx.selfUserId : ctx.userIdByEmail?.(email);
}

/**
 * The one conversation a narrow names (a channel's topic, or a DM with given people), or null for
 * every other narrow (a channel, a search, `is:` lists...), which is answered as a filter instead.
 */
export function narrowConversation(
  narrow: readonly NarrowTerm[],
  ctx: NarrowMatchContext,
): string | null {
  if (narrow.some((t) => t.negated)) return null;
  const ops = narrow.map((t) => canonicalOperator(t.operator)).sort();
  if (ops.join() === 'channel,topic') {
    const channel = narrow.find((t) => canonicalOperator(t.operator) === 'channel')!;
    const topic = narrow.find((t) => canonicalOperator(t.operator) === 'topic')!;
    const id = channelIdOf(channel.operand, ctx);
    return id === undefined ? null : topicConversation(id, String(topic.operand));
  }
  if (ops.join() === 'dm') {
    const operand = narrow[0].operand;
    const items = (Array.isArray(operand) ? operand : String(operand).split(',')).filter(
      (item) => item !== '',
    );
    const ids = items.map((item) => userIdOf(item, ctx));
    if (ids.some((id) => id === undefined) || ctx.selfUserId === 0) return null;
    return dmConversation([...(ids as number[]), ctx.selfUserId]);
  }
  return null;
}
