import type { Token } from './tokens';

const ESCAPES: Record<string, string> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
};

/**
 * HTML-escapes code as the public server's stored HTML has it. Pygments escapes quotes too, but a
 * block with a language tag is re-serialised by lxml afterwards, which writes quotes in text back
 * as plain characters; a block without a tag keeps Pygments' entities.
 */
const SPECIAL = /[&<>]/g;
const SPECIAL_OR_QUOTE = /[&<>"']/g;

export function escapeCode(text: string, keepQuotes: boolean): string {
  const special = keepQuotes ? SPECIAL : SPECIAL_OR_QUOTE;
  special.lastIndex = 0;
  return special.test(text) ? text.replace(special, (char) => ESCAPES[char]) : text;
}

/**
 * Token markup as Pygments' HtmlFormatter writes it: neighbouring tokens of one class share a span,
 * spans never cross a line end (each line closes and reopens them), plain text has no span.
 */
export function formatTokens(tokens: readonly Token[], keepQuotes: boolean): string {
  let html = '';
  let index = 0;
  while (index < tokens.length) {
    const { cls } = tokens[index];
    let text = tokens[index++].text;
    while (index < tokens.length && tokens[index].cls === cls) text += tokens[index++].text;
    const escaped = escapeCode(text, keepQuotes);
    if (!cls) html += escaped;
    else if (!escaped.includes('\n')) html += `<span class="${cls}">${escaped}</span>`;
    else {
      html += escaped
        .split('\n')
        .map((line) => (line ? `<span class="${cls}">${line}</span>` : ''))
        .join('\n');
    }
  }
  return html;
}
