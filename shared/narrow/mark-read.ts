// Which views may mark messages read as they are seen: the public web app's rule (its filter's
// can_mark_messages_read). Only views that show every message of each conversation they touch do:
// all messages, a channel, a topic, a direct-message conversation, the direct-message feed,
// resolved topics, in:home / in:all. Searches and personal views (starred, mentions, a keyword, a
// sender) show some messages of a conversation, so reading them there says nothing about the rest.
import { canonicalNarrow, type NarrowTerm } from './narrow';

/** The web app's term types: "channel", "is-dm", "not-is-dm", ... sorted. */
function termTypes(narrow: readonly NarrowTerm[]): string {
  return canonicalNarrow(narrow)
    .map((t) => {
      const base =
        t.operator === 'is' || t.operator === 'in'
          ? `${t.operator}-${String(t.operand)}`
          : t.operator;
      return t.negated ? `not-${base}` : base;
    })
    .sort()
    .join(' ');
}

const MARKING_VIEWS = new Set([
  '',
  'channel',
  'channel topic',
  'channel topic with',
  'dm',
  'dm with',
  'is-dm',
  'not-is-dm',
  'is-resolved',
  'in-home',
  'not-is-muted',
  'in-all',
]);

/** Whether reading a message in this view marks it read. */
export function narrowCanMarkRead(narrow: readonly NarrowTerm[]): boolean {
  return MARKING_VIEWS.has(termTypes(narrow));
}
