import { COMMENT, LEX, NAME, NUMBER, STRING, SUBST, type Profile } from './profile';
import type { ScopeNode } from './scope-tree';
import { isBlank, splitTokens, type Token } from './tokens';

// highlight.js scope → Pygments short class, before a language's own overrides.
const DEFAULT_SCOPES: Record<string, string> = {
  keyword: 'k',
  built_in: 'nb',
  type: 'kt',
  literal: 'kc',
  number: NUMBER,
  string: STRING,
  regexp: 'sr',
  symbol: 'ss',
  comment: COMMENT,
  doctag: COMMENT,
  meta: 'cp',
  'meta keyword': 'cp',
  'meta string': 'cpf',
  title: 'nf',
  'title.function': 'nf',
  'title.function.invoke': NAME,
  'title.class': 'nc',
  'title.class.inherited': NAME,
  variable: 'nv',
  'variable.language': 'bp',
  'variable.constant': 'no',
  attr: 'na',
  attribute: 'na',
  property: NAME,
  params: LEX,
  function: LEX,
  class: LEX,
  tag: LEX,
  name: 'nt',
  subst: SUBST,
  'char.escape': 'se',
  operator: 'o',
  punctuation: 'p',
  section: 'gh',
  bullet: 'k',
  emphasis: 'ge',
  strong: 'gs',
  code: 'sb',
  link: 'na',
  quote: 'ge',
  addition: 'gi',
  deletion: 'gd',
  'selector-tag': 'nt',
  'selector-class': 'nc',
  'selector-id': 'nn',
  'selector-pseudo': 'nd',
  'selector-attr': LEX,
  'template-tag': 'cp',
  'template-variable': 'cp',
};

const rulesByProfile = new WeakMap<Profile, Map<string, string>>();

function scopeRule(profile: Profile, scope: string, parent: string): string {
  let rules = rulesByProfile.get(profile);
  if (!rules) rulesByProfile.set(profile, (rules = new Map()));
  const key = `${parent} ${scope}`;
  let rule = rules.get(key);
  if (rule === undefined) rules.set(key, (rule = resolveScopeRule(profile, scope, parent)));
  return rule;
}

function resolveScopeRule(profile: Profile, scope: string, parent: string): string {
  const own = profile.scopes ?? {};
  const pair = `${parent} ${scope}`;
  if (pair in own) return own[pair];
  if (pair in DEFAULT_SCOPES) return DEFAULT_SCOPES[pair];
  // "title.class.inherited" falls back to "title.class", then "title".
  for (let name = scope; name; name = name.slice(0, Math.max(0, name.lastIndexOf('.')))) {
    if (name in own) return own[name];
    if (name in DEFAULT_SCOPES) return DEFAULT_SCOPES[name];
  }
  return LEX;
}

function textOf(node: ScopeNode): string {
  return node.children.map((child) => (typeof child === 'string' ? child : textOf(child))).join('');
}

const STRING_AFFIX = /^[a-zA-Z]{1,2}(?=["'`])/;

function stringClass(text: string, profile: Profile): string {
  const body = text.replace(STRING_AFFIX, '');
  if (body.startsWith('"')) return profile.doubleQuoted ?? 's2';
  if (body.startsWith("'")) return profile.singleQuoted ?? 's1';
  if (body.startsWith('`')) return 'sb';
  return 's';
}

function numberClass(text: string, profile: Profile): string {
  if (profile.numbers === '' || profile.numbers === 'm') return profile.numbers;
  if (/^0[xX]|^#/.test(text)) return 'mh';
  if (/^0[oO]/.test(text)) return 'mo';
  if (/^0[bB]/.test(text)) return 'mb';
  if (profile.numbers === 'mf') return 'mf';
  return /[.eE]/.test(text) && !/^0[xX]/.test(text) ? 'mf' : 'mi';
}

function commentClass(text: string, offset: number, profile: Profile): string {
  if (offset === 0 && profile.hashbang && text.startsWith('#!')) return 'ch';
  if (/^(\/\*|\{-|<!--|\(\*)/.test(text)) return 'cm';
  return 'c1';
}

// Unscoped text is split into whitespace, names, numbers, operators and punctuation.
function plainLexer(profile: Profile): RegExp {
  const identifier = profile.identifier ?? String.raw`[\p{L}_][\p{L}\p{N}_]*`;
  const number = String.raw`(?:0[xXoObB][\da-fA-F_]+|\d[\d_]*(?:\.\d+)?(?:[eE][-+]?\d+)?)\b`;
  return new RegExp(
    `(\\n|[^\\S\\n]+)|(${identifier})|(${number})|(${profile.operators})|(${profile.punctuation})|([^])`,
    'uy',
  );
}

const lexers = new WeakMap<Profile, RegExp>();

function lexPlain(text: string, profile: Profile, out: Token[]): void {
  let lexer = lexers.get(profile);
  if (!lexer) lexers.set(profile, (lexer = plainLexer(profile)));
  lexer.lastIndex = 0;
  for (let match = lexer.exec(text); match; match = lexer.exec(text)) {
    const [part, space, word, number, operator, punctuation] = match;
    if (space !== undefined) out.push({ text: part, cls: profile.whitespace });
    else if (word !== undefined)
      out.push({ text: part, cls: profile.words?.[part] ?? profile.name });
    else if (number !== undefined) out.push({ text: part, cls: numberClass(part, profile) });
    else if (operator !== undefined) out.push({ text: part, cls: 'o' });
    else if (punctuation !== undefined) out.push({ text: part, cls: 'p' });
    else out.push({ text: part, cls: '' });
    if (lexer.lastIndex >= text.length) break;
  }
}

// Keyword-like scopes sometimes take in spaces ("mut ", "CREATE TABLE"); Pygments never does.
function pushWord(text: string, cls: string, profile: Profile, out: Token[]): void {
  for (const part of text.split(/(\s+)/)) {
    if (!part) continue;
    if (/^\s/.test(part)) out.push({ text: part, cls: profile.whitespace });
    else out.push({ text: part, cls: profile.words?.[part] ?? cls });
  }
}

const OPENING_DELIMITER = /^(?:\$\{|#\{|\\\(|\$\(|[${])/;
const CLOSING_DELIMITER = /[})]$/;

function pushSubstitution(text: string, profile: Profile, out: Token[]): void {
  const open = OPENING_DELIMITER.exec(text)?.[0] ?? '';
  const close = open.length > 1 || open === '{' ? (CLOSING_DELIMITER.exec(text)?.[0] ?? '') : '';
  if (open) out.push({ text: open, cls: 'si' });
  lexPlain(text.slice(open.length, text.length - close.length), profile, out);
  if (close) out.push({ text: close, cls: 'si' });
}

/** The class of a whole scope: a string's, number's or comment's depends on how its text starts. */
function scopeClass(rule: string, node: ScopeNode, profile: Profile, offset: number): string {
  switch (rule) {
    case STRING:
      return stringClass(textOf(node), profile);
    case NUMBER:
      return numberClass(textOf(node), profile);
    case COMMENT:
      return commentClass(textOf(node), offset, profile);
    case NAME:
      return profile.name;
    default:
      return rule;
  }
}

// Strings, comments and generic (markup, diff) runs keep their spaces inside the span.
const VERBATIM = /^(?:s|c(?!p)|g|l)/;

function walk(
  node: ScopeNode,
  cls: string | undefined,
  profile: Profile,
  out: Token[],
  offset: { at: number },
): void {
  for (let index = 0; index < node.children.length; index++) {
    const child = node.children[index];
    if (typeof child === 'string') {
      // highlight.js may hand one scope's text over in pieces ("${VAR", ":-", "default}").
      let text = child;
      while (typeof node.children[index + 1] === 'string') text += node.children[++index] as string;
      if (cls === undefined) lexPlain(text, profile, out);
      else if (VERBATIM.test(cls)) out.push({ text, cls });
      else pushWord(text, cls, profile, out);
      offset.at += text.length;
      continue;
    }
    const rule = scopeRule(profile, child.scope, node.scope);
    if (rule === LEX) {
      walk(child, undefined, profile, out, offset);
    } else if (rule === SUBST) {
      const text = textOf(child);
      pushSubstitution(text, profile, out);
      offset.at += text.length;
    } else {
      walk(child, scopeClass(rule, child, profile, offset.at), profile, out, offset);
    }
  }
}

function nextSignificant(tokens: Token[], from: number): number {
  let index = from;
  while (index < tokens.length && isBlank(tokens[index]) && !tokens[index].text.includes('\n'))
    index++;
  return index;
}

// Pygments' lexers carry a little state that highlight.js does not expose: the space after "def",
// the module name after "import", a member name after "." or "->".
function applyContext(tokens: Token[], profile: Profile): void {
  const { whitespaceAfter, nameAfter, member } = profile;
  for (let index = 0; index < tokens.length; index++) {
    const token = tokens[index];
    const keyword = token.cls.startsWith('k');
    if (keyword && whitespaceAfter && token.text in whitespaceAfter) {
      const next = tokens[index + 1];
      if (next && isBlank(next) && !next.text.includes('\n'))
        next.cls = whitespaceAfter[token.text];
    }
    if (keyword && nameAfter && token.text in nameAfter) {
      let at = nextSignificant(tokens, index + 1);
      const cls = nameAfter[token.text];
      while (
        at < tokens.length &&
        /^[\p{L}_][\p{L}\p{N}_]*$/u.test(tokens[at].text) &&
        !tokens[at].cls.startsWith('k')
      ) {
        tokens[at].cls = cls;
        if (tokens[at + 1]?.text !== '.' || cls === 'nc' || cls === 'nf') break;
        tokens[at + 1].cls = cls;
        at += 2;
      }
    }
    if (member && member.after.includes(token.text) && tokens[index + 1]?.cls === profile.name) {
      tokens[index + 1].cls = member.cls;
    }
  }
}

const STRING_CLASS = /^s[12bcd]?$/;
const ESCAPE = /\\(?:x[\da-fA-F]{2}|u[\da-fA-F]{4}|U[\da-fA-F]{8}|[0-7]{1,3}|[^])/g;

// Escapes are their own "se" token in some Pygments lexers and part of the string in others;
// highlight.js marks them in some grammars only.
function markEscapes(tokens: Token[], profile: Profile): void {
  if (!profile.stringEscapes) {
    tokens.forEach((token, index) => {
      const around = tokens[index - 1]?.cls;
      if (token.cls === 'se' && around && STRING_CLASS.test(around)) token.cls = around;
    });
    return;
  }
  splitTokens(tokens, (token) => {
    if (!STRING_CLASS.test(token.cls) || !token.text.includes('\\')) return undefined;
    const parts: Token[] = [];
    let last = 0;
    for (const match of token.text.matchAll(ESCAPE)) {
      parts.push({ text: token.text.slice(last, match.index), cls: token.cls });
      parts.push({ text: match[0], cls: 'se' });
      last = match.index + match[0].length;
    }
    parts.push({ text: token.text.slice(last), cls: token.cls });
    return parts;
  });
}

/** The code's tokens with Pygments classes, from a highlight.js scope tree of it. */
export function classify(tree: ScopeNode, profile: Profile): Token[] {
  const tokens: Token[] = [];
  walk(tree, undefined, profile, tokens, { at: 0 });
  markEscapes(tokens, profile);
  applyContext(tokens, profile);
  profile.refine?.(tokens);
  return tokens;
}
