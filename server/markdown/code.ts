// A fenced or indented code block as the public server frames it (Pygments' HTML): a codehilite
// div, the canonical language in data-code-language when the fence named one, and the code with
// leading and trailing blank lines dropped and a final newline. The tokens come from the
// highlighter (highlight/), which without a fence language picks the lexer from a first line like
// "#!python" or ":::python" (that line stays in the code, and no language is named); code in a
// language it does not know is only escaped.
import { escapeAttribute } from './escape';
import { highlightCode, plainCodeHtml } from './highlight';

export function renderCodeBlock(text: string, language: string | undefined): string {
  const code = text.replace(/^\n+|\n+$/g, '') + '\n';
  // Without a language the highlighter still looks for a "#!python" or ":::python" first line.
  const highlighted = highlightCode(code, language ?? '');
  const body = highlighted ? highlighted.html : plainCodeHtml(code, language ?? '');
  if (!language)
    return `<div class="codehilite"><pre><span></span><code>${body}</code></pre></div>`;
  const name = highlighted?.language ?? language;
  return `<div class="codehilite" data-code-language="${escapeAttribute(name)}"><pre><span></span><code>${body}</code></pre></div>`;
}
