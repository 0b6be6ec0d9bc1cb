// Search while the server cannot be asked: the narrow's terms matched against every cached message.
// Keyword terms (`search:`) match words of the topic or the text (HTML tags left out), as a plain
// case-insensitive substring per word; other terms use the client-side matcher, and a term it cannot
// decide excludes the message (an offline answer may miss messages, never show wrong ones).
import type { MessageWithFlags } from '../../shared/api/types';
import {
  canonicalOperator,
  messageMatchesNarrow,
  type NarrowMatchContext,
  type NarrowTerm,
} from '../../shared/narrow';

function searchWords(narrow: readonly NarrowTerm[]): { words: string[]; rest: NarrowTerm[] } {
  const words: string[] = [];
  const rest: NarrowTerm[] = [];
  for (const term of narrow) {
    if (canonicalOperator(term.operator) === 'search' && !term.negated) {
      words.push(...String(term.operand).toLowerCase().split(/\s+/).filter(Boolean));
    } else rest.push(term);
  }
  return { words, rest };
}

const plainText = (html: string) =>
  html
    .replace(/<[^>]*>/g, ' ')
    .replace(/&amp;/g, '&')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .toLowerCase();

export function isSearchNarrow(narrow: readonly NarrowTerm[]): boolean {
  return narrow.some((term) => canonicalOperator(term.operator) === 'search');
}

/** The cached messages the narrow selects, oldest first, each once. */
export function searchCachedMessages(
  messages: Iterable<MessageWithFlags>,
  narrow: readonly NarrowTerm[],
  ctx: NarrowMatchContext,
): MessageWithFlags[] {
  const { words, rest } = searchWords(narrow);
  const found = new Map<number, MessageWithFlags>();
  for (const message of messages) {
    if (found.has(message.id)) continue;
    if (rest.length > 0 && messageMatchesNarrow(message, rest, ctx) !== true) continue;
    if (words.length > 0) {
      const text = `${message.subject.toLowerCase()} ${plainText(message.content)}`;
      if (!words.every((word) => text.includes(word))) continue;
    }
    found.set(message.id, message);
  }
  return [...found.values()].sort((a, b) => a.id - b.id);
}
