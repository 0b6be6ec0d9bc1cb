// Profiles of markup: HTML, XML, CSS, Markdown, TeX.
import { LEX, NO_MATCH, type Profile } from '../profile';
import { lexTex } from '../tex-lexer';
import { isBlank, splitTokens, type Token } from '../tokens';
import { PLAIN, wholeDeclarations, words } from './shared';

export const HTML: Profile = {
  grammar: 'xml',
  whitespace: '',
  name: '',
  operators: NO_MATCH,
  punctuation: NO_MATCH,
  numbers: '',
  doubleQuoted: 's',
  singleQuoted: 's',
  scopes: {
    tag: 'p',
    'tag name': 'nt',
    'tag attr': 'na',
    'tag string': 's',
    symbol: 'ni',
    meta: 'cp',
    'meta keyword': 'cp',
    'meta string': 'cp',
  },
  refine(tokens) {
    // Inside a tag "=" is an operator and the spaces are plain text.
    tokens.forEach((token) => {
      if (token.cls !== 'p') return;
      if (token.text === '=') token.cls = 'o';
      else if (isBlank(token)) token.cls = '';
    });
    wholeDeclarations(tokens);
  },
};

export const XML: Profile = {
  ...HTML,
  whitespace: 'w',
  // Pygments' XML lexer classes a tag's brackets with its name: "<root", "/>".
  scopes: { ...HTML.scopes, tag: 'nt' },
  refine(tokens) {
    wholeDeclarations(tokens);
    tokens.forEach((token, index) => {
      if (token.cls !== 'nt') return;
      if (token.text === '=' && tokens[index - 1]?.cls === 'na') token.cls = 'na';
      else if (isBlank(token)) token.cls = 'w';
    });
  },
};

/** CSS sigils (".a", "#b", ":hover", "@media") are punctuation before the classed name. */
function cssSigils(tokens: Token[]): void {
  splitTokens(tokens, (token) => {
    const sigil = /^[.#:@]+(?=[\w-])/.exec(token.text);
    if (sigil && /^(nc|nn|nd|k)$/.test(token.cls)) {
      return [
        { text: sigil[0], cls: 'p' },
        { text: token.text.slice(sigil[0].length), cls: token.cls },
      ];
    }
    // A length's unit is a type ("12px").
    const unit = /^(-?[\d.]+)([a-z%]+)$/.exec(token.text);
    if (unit && token.cls.startsWith('m')) {
      return [
        { text: unit[1], cls: unit[1].includes('.') ? 'mf' : 'mi' },
        { text: unit[2], cls: 'kt' },
      ];
    }
    return undefined;
  });
}

/** Outside a rule's braces "," "(" ")" are selector operators; "url(x)" holds a URL ("sx"). */
function cssSelectorsAndUrls(tokens: Token[]): void {
  let depth = 0;
  tokens.forEach((token, index) => {
    if (token.text === '{') depth++;
    else if (token.text === '}') depth = Math.max(0, depth - 1);
    else if (depth === 0 && token.cls === 'p' && /^[,()]$/.test(token.text)) token.cls = 'o';
    else if (depth === 0 && token.cls === 'n') token.cls = 'nt';
    if (
      /^s[12]?$/.test(token.cls) &&
      tokens[index - 1]?.text === '(' &&
      tokens[index - 2]?.text === 'url'
    ) {
      token.cls = /^["']/.test(token.text) ? token.cls : 'sx';
    }
    if (token.cls === 'cm') token.cls = 'c';
  });
}

export const CSS: Profile = {
  grammar: 'css',
  whitespace: 'w',
  name: 'n',
  identifier: String.raw`-?[\p{L}_][\p{L}\p{N}_-]*`,
  operators: String.raw`[>+~=\[\]*-]`,
  punctuation: String.raw`[{};:(),.]`,
  numbers: 'pygments',
  scopes: { attribute: 'k', keyword: 'k', meta: 'cp', 'selector-attr': LEX, built_in: 'nb' },
  words: words(
    'kc',
    'auto none inherit initial unset bold bolder lighter normal italic solid dashed dotted double block inline inline-block flex inline-flex grid table absolute relative fixed sticky static hidden visible scroll all ease ease-in ease-out ease-in-out linear center left right top bottom middle transparent currentColor pointer default no-repeat repeat repeat-x repeat-y cover contain serif sans-serif monospace cursive nowrap wrap uppercase lowercase capitalize underline both space-between space-around column row baseline stretch',
  ),
  refine(tokens) {
    cssSigils(tokens);
    cssSelectorsAndUrls(tokens);
  },
};

export const MARKDOWN: Profile = {
  grammar: 'markdown',
  whitespace: '',
  name: '',
  operators: NO_MATCH,
  punctuation: NO_MATCH,
  numbers: '',
  scopes: { string: 'nt', link: 'na', code: 'sb', section: 'gh' },
  refine(tokens) {
    tokens.forEach((token, index) => {
      if (token.cls === 'gh' && /^##/.test(token.text)) token.cls = 'gu';
      // An unordered list's bullet is followed by Whitespace, a numbered one's by plain text.
      const next = tokens[index + 1];
      if (token.cls === 'k' && /^[-*+]$/.test(token.text) && next && /^[^\S\n]+$/.test(next.text)) {
        next.cls = 'w';
      }
    });
    // A quote's marker is a keyword and the rest of its line emphasised.
    splitTokens(tokens, (token) => {
      const marker = /^>\s*/.exec(token.text);
      if (token.cls !== 'ge' || !marker) return undefined;
      return [
        { text: marker[0], cls: 'k' },
        { text: token.text.slice(marker[0].length), cls: 'ge' },
      ];
    });
  },
};

export const TEX: Profile = { ...PLAIN, lexer: lexTex };
