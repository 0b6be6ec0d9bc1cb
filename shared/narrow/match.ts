// Client-side narrow matching: does a message belong in a narrow's list? Used to put new message
// events (and moved messages) into the open message lists without asking the server. Terms the
// client cannot decide (keyword search, has:link, with:, channels:public, ...) make the answer
// `undefined`, and the caller must then leave the list alone and let the server decide on refetch.
import type { MessageFlag, VisibilityPolicy } from '../api/types';
import { VisibilityPolicy as Visibility } from '../api/types';
import { canonicalOperator, dmConversationKey, isTopicResolved, type NarrowTerm } from './narrow';

/** The fields of a message that matching reads (a stored message or a local echo). */
export interface MatchableMessage {
  id: number;
  type: 'stream' | 'private';
  sender_id: number;
  sender_email?: string;
  stream_id?: number;
  subject: string;
  display_recipient: string | readonly { id: number; email: string }[];
  flags?: readonly MessageFlag[];
  reactions?: readonly unknown[];
}

/** Lookups into realm state; each is optional, and a term needing a missing one is undecidable. */
export interface NarrowMatchContext {
  selfUserId: number;
  /** Channel id from a channel name (names are case-insensitive). */
  channelIdByName?(name: string): number | undefined;
  userIdByEmail?(email: string): number | undefined;
  /** The user's visibility policy for a topic (0 when none). */
  topicVisibility?(streamId: number, topic: string): VisibilityPolicy;
  isChannelMuted?(streamId: number): boolean;
}

const MENTION_FLAGS: readonly MessageFlag[] = [
  'mentioned',
  'stream_wildcard_mentioned',
  'topic_wildcard_mentioned',
  'wildcard_mentioned',
];

function parseIntOperand(operand: unknown): number | undefined {
  if (typeof operand === 'number') return operand;
  if (typeof operand === 'string' && /^\d+$/.test(operand.trim())) return Number(operand);
  return undefined;
}

function resolveUser(
  operand: string | number,
  ctx: NarrowMatchContext,
  message: MatchableMessage,
): number | undefined {
  const asId = parseIntOperand(operand);
  if (asId !== undefined) return asId;
  const email = String(operand).trim().toLowerCase();
  if (email === 'me') return ctx.selfUserId;
  if (message.sender_email?.toLowerCase() === email) return message.sender_id;
  if (Array.isArray(message.display_recipient)) {
    for (const r of message.display_recipient) if (r.email.toLowerCase() === email) return r.id;
  }
  return ctx.userIdByEmail?.(email);
}

function participants(message: MatchableMessage): number[] {
  if (!Array.isArray(message.display_recipient)) return [];
  return message.display_recipient.map((r) => r.id);
}

function hasFlag(message: MatchableMessage, flag: MessageFlag): boolean {
  return message.flags?.includes(flag) ?? false;
}

/** Whether a channel message is muted (by its channel or topic) for the user; undefined if unknown. */
function isMessageMuted(message: MatchableMessage, ctx: NarrowMatchContext): boolean | undefined {
  if (message.type !== 'stream' || message.stream_id === undefined) return false;
  if (!ctx.topicVisibility || !ctx.isChannelMuted) return undefined;
  const policy = ctx.topicVisibility(message.stream_id, message.subject);
  if (policy === Visibility.MUTED) return true;
  if (ctx.isChannelMuted(message.stream_id)) {
    return !(policy === Visibility.UNMUTED || policy === Visibility.FOLLOWED);
  }
  return false;
}

/** One term, ignoring negation: true, false, or undefined when the client cannot decide. */
function matchTerm(
  message: MatchableMessage,
  term: NarrowTerm,
  ctx: NarrowMatchContext,
): boolean | undefined {
  const operand = term.operand;
  switch (canonicalOperator(term.operator)) {
    case 'channel': {
      if (message.type !== 'stream') return false;
      const id =
        parseIntOperand(operand) ??
        (ctx.channelIdByName ? ctx.channelIdByName(String(operand)) : undefined);
      if (id === undefined) return ctx.channelIdByName ? false : undefined;
      return message.stream_id === id;
    }
    case 'topic':
      return (
        message.type === 'stream' && message.subject.toLowerCase() === String(operand).toLowerCase()
      );
    case 'sender': {
      if (Array.isArray(operand)) return undefined;
      const id = resolveUser(operand, ctx, message);
      return id === undefined ? false : message.sender_id === id;
    }
    case 'dm': {
      if (message.type !== 'private') return false;
      const wanted: number[] = [];
      const items = Array.isArray(operand) ? operand : String(operand).split(',');
      for (const item of items) {
        if (item === '') continue;
        const id = resolveUser(item, ctx, message);
        if (id === undefined) return false;
        wanted.push(id);
      }
      return (
        dmConversationKey(wanted, ctx.selfUserId) ===
        dmConversationKey(participants(message), ctx.selfUserId)
      );
    }
    case 'dm-including': {
      if (message.type !== 'private' || Array.isArray(operand)) return false;
      const id = resolveUser(operand, ctx, message);
      return id !== undefined && participants(message).includes(id);
    }
    case 'is':
      switch (String(operand).toLowerCase()) {
        case 'dm':
        case 'private':
          return message.type === 'private';
        case 'starred':
          return hasFlag(message, 'starred');
        case 'unread':
          return !hasFlag(message, 'read');
        case 'mentioned':
          return MENTION_FLAGS.some((f) => hasFlag(message, f));
        case 'alerted':
          return hasFlag(message, 'has_alert_word');
        case 'resolved':
          return message.type === 'stream' && isTopicResolved(message.subject);
        case 'followed':
          if (message.type !== 'stream' || message.stream_id === undefined) return false;
          if (!ctx.topicVisibility) return undefined;
          return ctx.topicVisibility(message.stream_id, message.subject) === Visibility.FOLLOWED;
        case 'muted':
          return isMessageMuted(message, ctx);
        default:
          return false;
      }
    case 'has':
      // Links, images and attachments live in the rendered HTML; only the server decides them.
      return String(operand).toLowerCase() === 'reaction'
        ? (message.reactions?.length ?? 0) > 0
        : undefined;
    case 'in': {
      const where = String(operand).toLowerCase();
      if (where === 'all') return true;
      if (where === 'home') {
        const muted = isMessageMuted(message, ctx);
        return muted === undefined ? undefined : !muted;
      }
      return false;
    }
    case 'id': {
      const id = parseIntOperand(operand);
      return id !== undefined && message.id === id;
    }
    case 'near':
      // No effect on which messages match; the client uses it as the fetch anchor.
      return true;
    default:
      // search, with, channels, mentions and anything unknown: the server decides.
      return undefined;
  }
}

/**
 * Whether a message matches a narrow: true, false, or undefined when some term cannot be decided
 * on the client. A term decided false wins over an undecidable one (terms are ANDed).
 */
export function messageMatchesNarrow(
  message: MatchableMessage,
  narrow: readonly NarrowTerm[],
  ctx: NarrowMatchContext,
): boolean | undefined {
  let undecided = false;
  for (const term of narrow) {
    const r = matchTerm(message, term, ctx);
    if (r === undefined) {
      undecided = true;
      continue;
    }
    if (r === !!term.negated) return false;
  }
  return undecided ? undefined : true;
}

const LOCAL_OPERATORS = new Set([
  'channel',
  'topic',
  'sender',
  'dm',
  'dm-including',
  'is',
  'has',
  'in',
  'id',
  'near',
]);

/** Whether every term of the narrow can be decided client-side (with a full match context). */
export function isNarrowDecidableLocally(narrow: readonly NarrowTerm[]): boolean {
  return narrow.every((term) => {
    const op = canonicalOperator(term.operator);
    if (op === 'has') return String(term.operand).toLowerCase() === 'reaction';
    return LOCAL_OPERATORS.has(op);
  });
}
