// Code block highlighting as the public server does it with Pygments: the same token classes
// ("k", "nf", "s2", …), span layout and escaping, and the same language names. Tokenizing is
// highlight.js's; profiles/ restate each Pygments lexer's choices over its grammars.
import { classify } from './classify';
import { escapeCode, formatTokens } from './format';
import { canonicalLanguage } from './languages';
import { PROFILES } from './profiles';
import { scopeTree } from './scope-tree';

export { canonicalLanguage } from './languages';

// Python-Markdown's codehilite, with the public server's change that keeps the line: an untagged
// block whose first line is "#!lang", "#!/path/lang" or ":::lang" is highlighted as that language.
const SHEBANG = /^(?:::+|#!)(?:(?:\/\w+)*[/ ])?([\w#.+-]*)/;

/** The code as Pygments lexes it: Unix line ends, no blank lines around it, one final newline. */
function normalize(code: string): string {
  return `${code.replace(/\r\n?/g, '\n').replace(/^\n+|\n+$/g, '')}\n`;
}

function highlightAs(source: string, language: string, keepQuotes: boolean): string {
  const profile = PROFILES.get(language);
  if (!profile || (!profile.grammar && !profile.lexer)) return escapeCode(source, keepQuotes);
  try {
    const tokens = profile.lexer
      ? profile.lexer(source)
      : classify(scopeTree(source, profile.grammar), profile);
    return formatTokens(tokens, keepQuotes);
  } catch {
    // Like the public server, a block whose highlighting fails is shown unhighlighted.
    return escapeCode(source, keepQuotes);
  }
}

/**
 * The inner HTML of a code block's `<code>` as the public server writes it, and the name it puts
 * in `data-code-language`. `code` is the block's text with each line's trailing whitespace
 * already removed (the server does that before highlighting); `language` is the fence's tag as
 * written ("py", "c++", "" for none).
 * Returns undefined for a tag no lexer answers to (the server keeps the tag as the name and shows
 * the code unhighlighted, see `plainCodeHtml`) and for an untagged block without a "#!lang" first
 * line. An untagged block with one is highlighted and its `language` is "" (the server writes no
 * `data-code-language` for it).
 */
export function highlightCode(
  code: string,
  language: string,
): { html: string; language: string } | undefined {
  const source = normalize(code);
  const tag = language.trim();
  if (tag) {
    const name = canonicalLanguage(tag);
    return name === undefined
      ? undefined
      : { html: highlightAs(source, name, true), language: name };
  }
  const shebang = SHEBANG.exec(source);
  if (!shebang) return undefined;
  const name = canonicalLanguage(shebang[1]);
  return {
    html: name === undefined ? escapeCode(source, false) : highlightAs(source, name, false),
    language: '',
  };
}

/**
 * The inner HTML of an unhighlighted code block's `<code>`: escaped, quotes written as entities
 * only when the block has no tag (a tagged block passes through lxml on the server, which writes
 * them back as characters), ending in one newline.
 */
export function plainCodeHtml(code: string, language: string): string {
  return escapeCode(normalize(code), language.trim() !== '');
}
