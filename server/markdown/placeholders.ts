// HTML made before block parsing (code, math, spoiler frames) waits in a stash behind placeholder
// text that no Markdown rule reacts to, and is put back into the rendered HTML at the end. A
// placeholder that is a whole paragraph is replaced with its paragraph when its HTML is a block
// (code, spoiler frames), and kept inside the paragraph otherwise (math), as the public server does.
// The input never contains the placeholder delimiters (normalizeWhitespace removes them).

const START = '\u0002';
const END = '\u0003';
const PLACEHOLDER = new RegExp(`(<p>)?${START}(\\d+)${END}(</p>)?`, 'g');
/** The delimiters, which input text must not contain. */
export const PLACEHOLDER_DELIMITERS = new RegExp(`[${START}${END}]`, 'g');
const BLOCK_TAG =
  /^<\/?(?:address|blockquote|del|div|dl|fieldset|form|h[1-6]|hr|ins|math|noscript|ol|p|pre|table|ul|section|article|aside|header|footer|nav|figure|details|summary)[\s>]/;

export class HtmlStash {
  private readonly blocks: string[] = [];

  store(html: string): string {
    this.blocks.push(html);
    return `${START}${this.blocks.length - 1}${END}`;
  }

  get size(): number {
    return this.blocks.length;
  }

  /** The rendered HTML with every placeholder replaced by its stored HTML. */
  restore(html: string): string {
    if (this.blocks.length === 0) return html;
    return html.replace(PLACEHOLDER, (whole, open: string | undefined, index: string, close) => {
      const block = this.blocks[Number(index)] ?? '';
      if (open && close && BLOCK_TAG.test(block)) return block;
      return `${open ?? ''}${block}${close ?? ''}`;
    });
  }
}

/** Escapes text for HTML the way the public server's templates do (quotes included). */
export function escapeHtmlAttribute(text: string): string {
  return text
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&#x27;');
}
