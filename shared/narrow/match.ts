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

type TermMatcher = (message: MatchableMessage, ctx: NarrowMatchContext) => boolean | undefined;

const UNDECIDABLE: TermMatcher = () => undefined;
const ALWAYS: TermMatcher = () => true;
const NEVER: TermMatcher = () => false;

/**
 * One term, ignoring negation, compiled once per narrow: operand parsing and lower-casing happen
 * here, not per message, because every new message event is matched against every open narrow.
 */
function compileTerm(term: NarrowTerm): TermMatcher {
  const operand = term.operand;
  switch (canonicalOperator(term.operator)) {
    case 'channel': {
      const byId = parseIntOperand(operand);
      if (byId !== undefined) return (m) => m.type === 'stream' && m.stream_id === byId;
      const name = String(operand);
      return (m, ctx) => {
        if (m.type !== 'stream') return false;
        if (!ctx.channelIdByName) return undefined;
        const id = ctx.channelIdByName(name);
        return id !== undefined && m.stream_id === id;
      };
    }
    case 'topic': {
      const topic = String(operand).toLowerCase();
      return (m) => m.type === 'stream' && m.subject.toLowerCase() === topic;
    }
    case 'sender': {
      if (Array.isArray(operand)) return UNDECIDABLE;
      const byId = parseIntOperand(operand);
      if (byId !== undefined) return (m) => m.sender_id === byId;
      return (m, ctx) => {
        const id = resolveUser(operand, ctx, m);
        return id === undefined ? false : m.sender_id === id;
      };
    }
    case 'dm': {
      const items = (Array.isArray(operand) ? operand : String(operand).split(',')).filter(
        (item) => item !== '',
      );
      const ids = items.map(parseIntOperand);
      if (ids.every((id) => id !== undefined)) {
        // Operand given as user ids: the conversation key is fixed once self is known.
        let cachedSelf = -1;
        let wantedKey = '';
        return (m, ctx) => {
          if (m.type !== 'private') return false;
          if (cachedSelf !== ctx.selfUserId) {
            cachedSelf = ctx.selfUserId;
            wantedKey = dmConversationKey(ids as number[], ctx.selfUserId);
          }
          return dmConversationKey(participants(m), ctx.selfUserId) === wantedKey;
        };
      }
      return (m, ctx) => {
        if (m.type !== 'private') return false;
        const wanted: number[] = [];
        for (const item of items) {
          const id = resolveUser(item, ctx, m);
          if (id === undefined) return false;
          wanted.push(id);
        }
        return (
          dmConversationKey(wanted, ctx.selfUserId) ===
          dmConversationKey(participants(m), ctx.selfUserId)
        );
      };
    }
    case 'dm-including': {
      if (Array.isArray(operand)) return NEVER;
      return (m, ctx) => {
        if (m.type !== 'private') return false;
        const id = resolveUser(operand, ctx, m);
        return id !== undefined && participants(m).includes(id);
      };
    }
    case 'is':
      switch (String(operand).toLowerCase()) {
        case 'dm':
        case 'private':
          return (m) => m.type === 'private';
        case 'starred':
          return (m) => hasFlag(m, 'starred');
        case 'unread':
          return (m) => !hasFlag(m, 'read');
        case 'mentioned':
          return (m) => MENTION_FLAGS.some((f) => hasFlag(m, f));
        case 'alerted':
          return (m) => hasFlag(m, 'has_alert_word');
        case 'resolved':
          return (m) => m.type === 'stream' && isTopicResolved(m.subject);
        case 'followed':
          return (m, ctx) => {
            if (m.type !== 'stream' || m.stream_id === undefined) return false;
            if (!ctx.topicVisibility) return undefined;
            return ctx.topicVisibility(m.stream_id, m.subject) === Visibility.FOLLOWED;
          };
        case 'muted':
          return isMessageMuted;
        default:
          return NEVER;
      }
    case 'has':
      // Links, images and attachments live in the rendered HTML; only the server decides them.
      return String(operand).toLowerCase() === 'reaction'
        ? (m) => (m.reactions?.length ?? 0) > 0
        : UNDECIDABLE;
    case 'in': {
      const where = String(operand).toLowerCase();
      if (where === 'all') return ALWAYS;
      if (where === 'home') {
        return (m, ctx) => {
          const muted = isMessageMuted(m, ctx);
          return muted === undefined ? undefined : !muted;
        };
      }
      return NEVER;
    }
    case 'id': {
      const id = parseIntOperand(operand);
      return (m) => id !== undefined && m.id === id;
    }
    case 'near':
      // No effect on which messages match; the client uses it as the fetch anchor.
      return ALWAYS;
    default:
      // search, with, channels, mentions and anything unknown: the server decides.
      return UNDECIDABLE;
  }
}

export type NarrowMatcher = (
  message: MatchableMessage,
  ctx: NarrowMatchContext,
) => boolean | undefined;

const compiled = new WeakMap<readonly NarrowTerm[], NarrowMatcher>();

/**
 * A narrow compiled into one matching function (cached per narrow array). A term decided false
 * wins over an undecidable one (terms are ANDed).
 */
export function compileNarrow(narrow: readonly NarrowTerm[]): NarrowMatcher {
  let matcher = compiled.get(narrow);
  if (matcher) return matcher;
  const terms = narrow.map((t) => ({ match: compileTerm(t), negated: !!t.negated }));
  if (terms.length === 0) matcher = ALWAYS;
  else if (terms.length === 1 && !terms[0].negated) matcher = terms[0].match;
  else {
    matcher = (m, ctx) => {
      let undecided = false;
      for (const t of terms) {
        const r = t.match(m, ctx);
        if (r === undefined) undecided = true;
        else if (r === t.negated) return false;
      }
      return undecided ? undefined : true;
    };
  }
  compiled.set(narrow, matcher);
  return matcher;
}

/**
 * Whether a message matches a narrow: true, false, or undefined when some term cannot be decided
 * on the client.
 */
export function messageMatchesNarrow(
  message: MatchableMessage,
  narrow: readonly NarrowTerm[],
  ctx: NarrowMatchContext,
): boolean | undefined {
  return compileNarrow(narrow)(message, ctx);
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
