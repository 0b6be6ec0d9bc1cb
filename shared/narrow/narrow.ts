// The narrow: a filter over messages, in the API's own encoding (api-notes §3.4), plus a stable
// string key so the store and react-query can name a message list. Operators are normalized to their
// modern names (stream -> channel, pm-with -> dm, is:private -> is:dm) so equal narrows share a key.
import { RESOLVED_TOPIC_PREFIX } from '../api/types';

export { RESOLVED_TOPIC_PREFIX };

export type NarrowOperand = string | number | number[];

export interface NarrowTerm {
  operator: string;
  operand: NarrowOperand;
  negated?: boolean;
}

export type Narrow = NarrowTerm[];

/** The empty narrow: every message the user receives ("all messages"). */
export const ALL_MESSAGES: Narrow = [];

const OPERATOR_ALIASES: Record<string, string> = {
  stream: 'channel',
  streams: 'channels',
  'pm-with': 'dm',
  'group-pm-with': 'dm-including',
  'dm-with': 'dm-including',
  subject: 'topic',
  from: 'sender',
};

const IS_ALIASES: Record<string, string> = { private: 'dm' };

/** Modern name of an operator (stream -> channel, pm-with -> dm, ...). */
export function canonicalOperator(operator: string): string {
  const lower = operator.toLowerCase();
  return OPERATOR_ALIASES[lower] ?? lower;
}

/** Sorted, de-duplicated copy of a list of user ids. */
function sortedIds(ids: readonly number[]): number[] {
  return [...new Set(ids)].sort((a, b) => a - b);
}

function canonicalTerm(term: NarrowTerm): NarrowTerm {
  const operator = canonicalOperator(term.operator);
  let operand = term.operand;
  if (operator === 'is' && typeof operand === 'string') {
    const lower = operand.toLowerCase();
    operand = IS_ALIASES[lower] ?? lower;
  } else if ((operator === 'has' || operator === 'in') && typeof operand === 'string') {
    operand = operand.toLowerCase();
  } else if (operator === 'dm' && Array.isArray(operand)) {
    operand = sortedIds(operand);
  } else if (
    (operator === 'id' || operator === 'with' || operator === 'near') &&
    typeof operand === 'string'
  ) {
    // Message ids may arrive as strings from the search box; the key must not depend on it.
    const n = Number(operand);
    if (Number.isInteger(n)) operand = n;
  }
  const out: NarrowTerm = { operator, operand };
  if (term.negated) out.negated = true;
  return out;
}

/** Narrow with modern operator names, dm id lists sorted, and terms in a stable order. */
export function canonicalNarrow(narrow: readonly NarrowTerm[]): Narrow {
  const terms = narrow.map(canonicalTerm);
  // Term order never changes meaning (terms are ANDed), so sort for a stable key.
  const keyed = terms.map(
    (t) => [JSON.stringify([t.operator, t.negated ? 1 : 0, t.operand]), t] as const,
  );
  keyed.sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0));
  const out: Narrow = [];
  let prev = '';
  for (const [k, t] of keyed) {
    if (k !== prev) out.push(t);
    prev = k;
  }
  return out;
}

/** Stable key for a narrow: equal narrows (up to aliases and term order) have equal keys. */
export function narrowKey(narrow: readonly NarrowTerm[]): string {
  return JSON.stringify(canonicalNarrow(narrow));
}

/** Inverse of narrowKey. Throws on a string that is not a narrow key. */
export function narrowFromKey(key: string): Narrow {
  const parsed: unknown = JSON.parse(key);
  if (!Array.isArray(parsed)) throw new Error(`Not a narrow key: ${key}`);
  return parsed.map((t: unknown) => {
    if (!t || typeof t !== 'object' || typeof (t as NarrowTerm).operator !== 'string') {
      throw new Error(`Not a narrow key: ${key}`);
    }
    return t as NarrowTerm;
  });
}

/** The narrow of one channel, by id (ids survive renames, names do not). */
export function channelNarrow(streamId: number): Narrow {
  return [{ operator: 'channel', operand: streamId }];
}

export function topicNarrow(streamId: number, topic: string): Narrow {
  return [
    { operator: 'channel', operand: streamId },
    { operator: 'topic', operand: topic },
  ];
}

/** A direct-message conversation, by the user ids of the other participants (self excluded). */
export function dmNarrow(userIds: readonly number[]): Narrow {
  return [{ operator: 'dm', operand: sortedIds(userIds) }];
}

/**
 * Key of a direct-message conversation: the other participants' ids, sorted and comma-joined;
 * the self-conversation is the user's own id. Equal for every message of one conversation
 * whichever way the participant list is spelled.
 */
export function dmConversationKey(participantIds: readonly number[], selfUserId: number): string {
  const others = sortedIds(participantIds.filter((id) => id !== selfUserId));
  return others.length === 0 ? String(selfUserId) : others.join(',');
}

export function isTopicResolved(topic: string): boolean {
  return topic.startsWith(RESOLVED_TOPIC_PREFIX);
}

/** The topic name without the resolved prefix. */
export function unresolvedTopicName(topic: string): string {
  return isTopicResolved(topic) ? topic.slice(RESOLVED_TOPIC_PREFIX.length) : topic;
}

/** Operators whose operand is a message id. */
const MESSAGE_ID_OPERATORS = new Set(['id', 'with', 'near']);

/**
 * The public server's older names for operators, by the feature level that added the modern one
 * (api-notes §3.4): a server before it answers the modern name with "Invalid narrow operator".
 */
const LEGACY_OPERATORS: ReadonlyArray<{ modern: string; legacy: string; since: number }> = [
  { modern: 'channel', legacy: 'stream', since: 250 },
  { modern: 'channels', legacy: 'streams', since: 250 },
  { modern: 'dm', legacy: 'pm-with', since: 177 },
  { modern: 'dm-including', legacy: 'group-pm-with', since: 177 },
];
/** `is:dm` was `is:private` before feature level 177. */
const IS_DM_SINCE = 177;

/**
 * A narrow in the form the server accepts on the wire: message-id operands as strings (the public
 * server takes `near` only as a string, and `id` as an integer only since FL194), and, for a
 * server older than an operator's modern name, its legacy name. Without a feature level (not yet
 * known), the modern names.
 */
export function wireNarrow(narrow: readonly NarrowTerm[], featureLevel?: number): NarrowTerm[] {
  return narrow.map((term) => {
    const operator = canonicalOperator(term.operator);
    let wire = term;
    if (MESSAGE_ID_OPERATORS.has(operator) && typeof term.operand === 'number')
      wire = { ...wire, operand: String(term.operand) };
    if (featureLevel === undefined) return wire;
    const legacy = LEGACY_OPERATORS.find((l) => l.modern === operator && featureLevel < l.since);
    if (legacy) wire = { ...wire, operator: legacy.legacy };
    if (
      operator === 'is' &&
      typeof term.operand === 'string' &&
      term.operand.toLowerCase() === 'dm' &&
      featureLevel < IS_DM_SINCE
    )
      wire = { ...wire, operand: 'private' };
    return wire;
  });
}
