// Unicode emoji codes as the chat API stores them, and the glyph to show for one. The API names a
// unicode emoji by its lowercase dash-separated code points with the U+FE0F variation selector left
// out ("2764" for a red heart, whose emoji-datasource `unified` is "2764-FE0F"); the server
// normalizes every code it stores that way, so clients must compare and send codes in that form.

const VARIATION_SELECTOR_16 = 0xfe0f;

/** The API form of a unicode emoji code: lowercase, without FE0F. */
export function normalizeEmojiCode(code: string): string {
  return code
    .toLowerCase()
    .split('-')
    .filter((part) => part !== 'fe0f')
    .join('-');
}

const TEXT_DEFAULT = /^\p{Emoji}$/u;
const EMOJI_DEFAULT = /^\p{Emoji_Presentation}$/u;
const MODIFIER = /^\p{Emoji_Modifier}$/u;

/**
 * The characters of an emoji code, with FE0F put back after each code point that would otherwise
 * show as a monochrome text symbol (❤ U+2764, ☺ U+263A, digits in keycaps), so the glyph is the
 * colourful emoji the picker showed. A code that is not hex shows as `:code:`.
 */
export function emojiGlyph(code: string): string {
  const points = normalizeEmojiCode(code)
    .split('-')
    .map((hex) => (/^[0-9a-f]{1,6}$/.test(hex) ? parseInt(hex, 16) : NaN));
  if (points.length === 0 || points.some((p) => Number.isNaN(p) || p > 0x10ffff))
    return `:${code}:`;
  let out = '';
  points.forEach((point, i) => {
    const char = String.fromCodePoint(point);
    out += char;
    const next = points[i + 1];
    const modified = next !== undefined && MODIFIER.test(String.fromCodePoint(next));
    if (TEXT_DEFAULT.test(char) && !EMOJI_DEFAULT.test(char) && !modified)
      out += String.fromCodePoint(VARIATION_SELECTOR_16);
  });
  return out;
}
