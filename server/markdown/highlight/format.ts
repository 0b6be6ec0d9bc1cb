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
export function escapeCode(text: string, keepQuotes: boolean): string {
  return text.replace(keepQuotes ? /[&<>]/g : /[&<>"']/g, (char) => ESCAPES[char]);
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
    const lines = text.split('\n');
    lines.forEach((line, lineIndex) => {
      if (lineIndex > 0) html += '\n';
      if (!line) return;
      html += cls
        ? `<span class="${cls}">${escapeCode(line, keepQuotes)}</span>`
        : escapeCode(line, keepQuotes);
    });
  }
  return html;
}
