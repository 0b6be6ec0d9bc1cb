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

interface Token {
  text: string;
  /** True when any part of the token was quoted: a quoted word is never an operator. */
  quoted: boolean;
  /** For operator tokens, the raw operator (before the colon) and the operand. */
  operator?: string;
  operand?: string;
  negated?: boolean;
}

/** Split on whitespace, honouring double quotes (both around whole words and after "op:"). */
function tokenize(text: string): Token[] {
  const tokens: Token[] = [];
  let i = 0;
  const n = text.length;
  while (i < n) {
    while (i < n && /\s/.test(text[i])) i++;
    if (i >= n) break;
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
      tokens.push({ text: `${operatorPart}:${raw}`, quoted, operator, operand: raw, negated });
    } else {
      tokens.push({ text: raw, quoted });
    }
  }
  return tokens;
}

/**
 * Parse search-box text into a narrow. Unknown operators and empty operands are kept as search
 * words, so nothing the user typed is silently dropped. The result is in canonical form.
 */
export function parseSearchQuery(text: string): Narrow {
  const terms: NarrowTerm[] = [];
  const searchWords: string[] = [];
  for (const token of tokenize(text)) {
    if (token.operator === undefined || token.operand === undefined) {
      if (token.text !== '') searchWords.push(token.text);
      continue;
    }
    const operator = canonicalOperator(token.operator);
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

/** Narrow back to search-box text (quotes operands with spaces). */
export function narrowToSearchText(narrow: readonly NarrowTerm[]): string {
  const quote = (s: string) => (/[\s"]/.test(s) || s === '' ? `"${s.replace(/"/g, '')}"` : s);
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
