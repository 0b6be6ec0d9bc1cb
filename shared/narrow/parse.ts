// Search-box text to a narrow: `channel:design topic:"release plan" -is:starred sender:me budget`.
// Words of the form operator:operand become terms (a leading "-" negates one); quoted operands may
// hold spaces; every other word joins one `search` term, as the server's keyword search expects.
import { canonicalOperator, canonicalNarrow, type Narrow, type NarrowTerm } from './narrow';

/** Operators the search box understands (modern names and their legacy aliases). */
const KNOWN_OPERATORS = new Set([
  'channel',
  'channels',
  'topic',
  'sender',
  'dm',
  'dm-including',
  'is',
  'has',
  'in',
  'id',
  'with',
  'near',
  'search',
  'mentions',
]);

/** One word of search-box text, where it is in the text, and its operator if it has one. */
export interface SearchToken {
  text: string;
  /** Offsets of the token in the text (end exclusive), quotes included. */
  start: number;
  end: number;
  /** True when any part of the token was quoted: a quoted word is never an operator. */
  quoted: boolean;
  /** For operator tokens, the raw operator (before the colon) and the operand. */
  operator?: string;
  operand?: string;
  negated?: boolean;
}

/** Split on whitespace, honouring double quotes (both around whole words and after "op:"). */
export function searchTokens(text: string): SearchToken[] {
  const tokens: SearchToken[] = [];
  let i = 0;
  const n = text.length;
  while (i < n) {
    while (i < n && /\s/.test(text[i])) i++;
    if (i >= n) break;
    const start = i;
    let raw = '';
    let quoted = false;
    let operatorPart: string | undefined;
    while (i < n && !/\s/.test(text[i])) {
      const ch = text[i];
      if (ch === '"') {
        quoted = true;
        i++;
        while (i < n && text[i] !== '"') raw += text[i++];
        i++; // closing quote (or end of text when unterminated)
      } else if (ch === ':' && operatorPart === undefined && !quoted && raw.length > 0) {
        operatorPart = raw;
        raw = '';
        i++;
      } else {
        raw += ch;
        i++;
      }
    }
    if (operatorPart !== undefined) {
      const negated = operatorPart.startsWith('-');
      const operator = negated ? operatorPart.slice(1) : operatorPart;
      tokens.push({
        text: `${operatorPart}:${raw}`,
        start,
        end: Math.min(i, n),
        quoted,
        operator,
        operand: raw,
        negated,
      });
    } else {
      tokens.push({ text: raw, start, end: Math.min(i, n), quoted });
    }
  }
  return tokens;
}

/** Whether the search box knows the operator (by its modern name or an alias). */
export function isKnownSearchOperator(operator: string): boolean {
  return KNOWN_OPERATORS.has(canonicalOperator(operator));
}

/**
 * `word:rest` that reads as an operator nobody knows (`foo:bar`), not a time (`10:30`) or a URL
 * (`https://…`): the server is asked, and its refusal shown, rather than searching for the words.
 */
function looksLikeOperator(token: SearchToken): boolean {
  return (
    !token.quoted &&
    /^[a-z][a-z_-]*$/i.test(token.operator ?? '') &&
    token.operand !== undefined &&
    token.operand !== '' &&
    !token.operand.startsWith('//')
  );
}

/**
 * Parse search-box text into a narrow. Unknown operators and empty operands are kept as search
 * words, so nothing the user typed is silently dropped; with `unknownOperators: 'terms'`, a word
 * that reads as an unknown operator becomes a term for the server to judge (the search box shows
 * its refusal). The result is in canonical form.
 */
export function parseSearchQuery(
  text: string,
  { unknownOperators = 'text' }: { unknownOperators?: 'text' | 'terms' } = {},
): Narrow {
  const terms: NarrowTerm[] = [];
  const searchWords: string[] = [];
  for (const token of searchTokens(text)) {
    if (token.operator === undefined || token.operand === undefined) {
      if (token.text !== '') searchWords.push(token.text);
      continue;
    }
    const operator = canonicalOperator(token.operator);
    if (
      !KNOWN_OPERATORS.has(operator) &&
      unknownOperators === 'terms' &&
      looksLikeOperator(token)
    ) {
      terms.push({
        operator: token.operator,
        operand: token.operand,
        ...(token.negated ? { negated: true } : {}),
      });
      continue;
    }
    if (!KNOWN_OPERATORS.has(operator) || (token.operand === '' && operator !== 'topic')) {
      searchWords.push(token.text);
      continue;
    }
    if (operator === 'search') {
      searchWords.push(token.operand);
      continue;
    }
    const term: NarrowTerm = { operator, operand: token.operand };
    if (token.negated) term.negated = true;
    terms.push(term);
  }
  if (searchWords.length > 0) terms.push({ operator: 'search', operand: searchWords.join(' ') });
  return canonicalNarrow(terms);
}

/** An operand as the search box writes it: quoted when it has spaces or is empty. */
export function quoteSearchOperand(s: string): string {
  return /[\s"]/.test(s) || s === '' ? `"${s.replace(/"/g, '')}"` : s;
}

/** Narrow back to search-box text (quotes operands with spaces). */
export function narrowToSearchText(narrow: readonly NarrowTerm[]): string {
  const quote = quoteSearchOperand;
  const parts: string[] = [];
  let search = '';
  for (const term of narrow) {
    if (term.operator === 'search') {
      search = String(term.operand);
      continue;
    }
    const operand = Array.isArray(term.operand) ? term.operand.join(',') : String(term.operand);
    parts.push(`${term.negated ? '-' : ''}${term.operator}:${quote(operand)}`);
  }
  if (search) parts.push(search);
  return parts.join(' ');
}
