// A fenced or indented code block as the public server frames it (Pygments' HTML): a codehilite
// div, the canonical language in data-code-language when the fence named one, and the code with
// leading and trailing blank lines dropped and a final newline. The tokens come from the
// highlighter (highlight/); without one the code is only escaped. Without a fence language, a first
// line like "#!python" or ":::python" picks the lexer but stays in the code and names no language.
import { highlightCode } from './highlight';

const SHEBANG = /^(?:::+|(#!))((?:\/\w+)*[/ ])?([\w#.+-]*)/;

/** Pygments' escaping of code text. */
function escapeCode(text: string): string {
  return text
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&#39;');
}

// The public server re-serializes blocks that name a language, which writes quotes in text as
// plain characters.
function unescapeQuotes(html: string): string {
  return html.replace(/&quot;/g, '"').replace(/&#(?:39|x27);/g, "'");
}

export function renderCodeBlock(text: string, language: string | undefined): string {
  const code = text.replace(/^\n+|\n+$/g, '') + '\n';
  let lexer = language;
  if (!lexer) {
    const shebang = SHEBANG.exec(code.slice(0, code.indexOf('\n')));
    if (shebang) lexer = shebang[3].toLowerCase();
  }
  const highlighted = lexer ? highlightCode(code, lexer) : undefined;
  let body = highlighted ? highlighted.html : escapeCode(code);
  if (!body.endsWith('\n')) body += '\n';
  if (!language)
    return `<div class="codehilite"><pre><span></span><code>${body}</code></pre></div>`;
  const name = highlighted?.language ?? language;
  return `<div class="codehilite" data-code-language="${escapeCode(name)}"><pre><span></span><code>${unescapeQuotes(body)}</code></pre></div>`;
}
