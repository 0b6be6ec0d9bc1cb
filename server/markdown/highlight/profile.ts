import type { Token } from './tokens';

/**
 * What a highlight.js scope becomes. A class name is used as is; the markers are resolved from the
 * scope's text or the language: STRING/NUMBER/COMMENT by how the text starts, NAME to the
 * language's class for plain names, SUBST to an interpolation, LEX to lexing the scope's text like
 * unscoped text (containers such as "params" whose parts Pygments classes one by one).
 */
export const STRING = '\0string';
export const NUMBER = '\0number';
export const COMMENT = '\0comment';
export const NAME = '\0name';
export const SUBST = '\0subst';
export const LEX = '\0lex';

/**
 * How one Pygments lexer classes code, expressed over a highlight.js grammar: highlight.js finds
 * keywords, strings, comments and titles; the text it leaves unscoped (names, operators,
 * punctuation, whitespace) is lexed here with the language's own character classes.
 */
export interface Profile {
  /** The highlight.js grammar; "" for a language lexed by `lexer` or not highlighted at all. */
  grammar: string;
  /** A lexer of this project's, for a language highlight.js cannot be made to lex as Pygments. */
  lexer?: (code: string) => Token[];
  /** Class of whitespace between tokens: "w" where the lexer emits Whitespace, "" for Text. */
  whitespace: string;
  /** Class of a plain name ("n", "nx" for Name.Other, "" where names are plain text). */
  name: string;
  /** Regex source of operators / punctuation in unscoped text (longest alternatives first). */
  operators: string;
  punctuation: string;
  /** Class of numbers in unscoped text and number scopes; "" leaves them plain text. */
  numbers: 'pygments' | 'm' | 'mf' | '';
  /** Regex source of a name in unscoped text. */
  identifier?: string;
  /** highlight.js scope (or "parent child" scope pair) → class or marker, over the defaults. */
  scopes?: Record<string, string>;
  /** Exact words whose class differs from what the scope or the name rule gives. */
  words?: Record<string, string>;
  /** Double- and single-quoted string classes ("s2"/"s1" by default). */
  doubleQuoted?: string;
  singleQuoted?: string;
  /** Whether backslash escapes in strings are "se" tokens of their own. */
  stringEscapes?: boolean;
  /** Pygments' class for "#!" on the first line (a hashbang comment). */
  hashbang?: boolean;
  /** Keywords after which the lexer classes the following whitespace apart ("w" or ""). */
  whitespaceAfter?: Record<string, string>;
  /** Keyword → class of the (dotted) name that follows it. */
  nameAfter?: Record<string, string>;
  /** Class of a name right after a member operator, where the lexer treats members apart. */
  member?: { after: readonly string[]; cls: string };
  /** Language-specific corrections on the finished token list. */
  refine?: (tokens: Token[]) => void;
}

export const C_OPERATORS = String.raw`<<=|>>=|->|\+\+|--|&&|\|\||::|[-+*/%=<>!&|^~?:]`;
export const C_PUNCTUATION = String.raw`[{}()\[\];,.]`;
export const NO_MATCH = '(?!)';
