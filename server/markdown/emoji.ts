// Emoji in messages, named and rendered as the public server does: `:name:` by its emoji table
// (shared/emoji/names.ts; realm custom emoji first, then the `:zulip:` extra emoji), Unicode emoji
// characters as the same spans under their canonical name, and emoticons such as ":)" when the
// sender's translate_emoticons setting is on. A `:word:` that names no emoji stays text.
import type { MarkdownIt, StateCore, StateInline, Token } from 'markdown-it';
import { EMOTICON_CONVERSIONS, emojiCodeForName, emojiNameForCode } from '../../shared/emoji/names';
import type { MentionEnv } from './mentions';
import { escapeText, escapeAttribute } from './escape';
import { replaceTextOutsideLinks, textToken } from './text-tokens';

const NAMED = /^:([\p{L}\p{N}_\-+]+):/u;
const ZULIP_EMOJI_URL = '/static/generated/emoji/images/emoji/unicode/zulip.png';

// Emoticons count only between a start, an end, whitespace or one of these punctuation marks.
const TERMINAL = new Set([...',.;?!()[] "\'\n\t']);
const EMOTICONS = Object.keys(EMOTICON_CONVERSIONS).sort((a, b) => b.length - a.length);

// A possible emoji: a flag pair, or an emoji with an optional modifier, presentation selector or
// tag sequence, joined by zero-width joiners (Unicode TR51's pattern).
const ONE = String.raw`\p{Emoji}(?:\p{Emoji_Modifier}|\uFE0F\u20E3?|[\u{E0020}-\u{E007E}]+\u{E007F})?`;
const POSSIBLE_EMOJI = new RegExp(
  String.raw`\p{RI}\p{RI}|${ONE}(?:\u200D(?:\p{RI}\p{RI}|${ONE}))*`,
  'gu',
);
// Characters shown as text by default (digits, arrows, ©): never turned into emoji on their own.
const TEXT_PRESENTATION = /^\P{Emoji_Presentation}\u20E3?$/u;

export function emojiSpan(code: string, name: string): string {
  const title = escapeAttribute(name.replace(/_/g, ' '));
  return `<span aria-label="${title}" class="emoji emoji-${escapeAttribute(code)}" role="img" title="${title}">:${escapeText(name)}:</span>`;
}

export function imageEmoji(url: string, name: string): string {
  return `<img alt=":${escapeAttribute(name)}:" class="emoji" src="${escapeAttribute(url)}" title="${escapeAttribute(name.replace(/_/g, ' '))}">`;
}

function pushHtml(state: StateInline, html: string): void {
  const token = state.push('chat_html', '', 0);
  token.content = html;
}

function namedEmojiRule(state: StateInline, silent: boolean): boolean {
  if (state.src.charCodeAt(state.pos) !== 0x3a /* : */) return false;
  const match = NAMED.exec(state.src.slice(state.pos));
  if (!match) return false;
  const name = match[1];
  if (!silent) {
    const env = state.env as unknown as MentionEnv;
    const custom = env.lookup?.customEmojiUrl?.(name);
    const code = emojiCodeForName(name);
    if (custom) pushHtml(state, imageEmoji(custom, name));
    else if (name === 'zulip') pushHtml(state, imageEmoji(ZULIP_EMOJI_URL, name));
    else if (code) pushHtml(state, emojiSpan(code, name));
    // An unknown name is consumed as text, so its closing colon cannot open another name.
    else state.pending += match[0];
  }
  state.pos += match[0].length;
  return true;
}

// Emoticons, like Unicode emoji, are found in the text left after inline parsing (outside code
// and links), between terminal characters. The public server finds them last, in the text of each
// element: the start and end of a strong or emphasis count as terminals, an element beside the
// text does not.
function emoticonTokens(
  state: StateCore,
  text: string,
  before: string,
  after: string,
): Token[] | null {
  let out: Token[] | null = null;
  let last = 0;
  let i = 0;
  while (i < text.length) {
    const previous = i === 0 ? before : text[i - 1];
    const emoticon = TERMINAL.has(previous)
      ? EMOTICONS.find((e) => text.startsWith(e, i) && TERMINAL.has(text[i + e.length] ?? after))
      : undefined;
    if (!emoticon) {
      i++;
      continue;
    }
    out ??= [];
    if (i > last) out.push(textToken(state, text.slice(last, i)));
    const name = EMOTICON_CONVERSIONS[emoticon].slice(1, -1);
    const html = new state.Token('chat_html', '', 0);
    html.content = emojiSpan(emojiCodeForName(name) ?? '', name);
    out.push(html);
    i += emoticon.length;
    last = i;
  }
  if (out && last < text.length) out.push(textToken(state, text.slice(last)));
  return out;
}

function terminalFor(token: Token | undefined, edge: 1 | -1): string {
  if (!token || token.nesting === edge) return ' ';
  return token.type === 'softbreak' || token.type === 'hardbreak' ? '\n' : '';
}

function emoticonRule(state: StateCore): void {
  const env = state.env as unknown as MentionEnv;
  if (!env.lookup?.translateEmoticons?.()) return;
  replaceTextOutsideLinks(state, (token, before, after) =>
    emoticonTokens(state, token.content, terminalFor(before, 1), terminalFor(after, -1)),
  );
}

/** The code of a Unicode emoji sequence as the API writes it: lowercase hex, no FE0F. */
function codeOfSequence(sequence: string): string {
  return [...sequence.replace(/\uFE0F/g, '')]
    .map((char) => char.codePointAt(0)!.toString(16).padStart(4, '0'))
    .join('-');
}

function unicodeEmojiTokens(state: StateCore, text: string): Token[] | null {
  let out: Token[] | null = null;
  let last = 0;
  for (const match of text.matchAll(POSSIBLE_EMOJI)) {
    if (TEXT_PRESENTATION.test(match[0])) continue;
    const code = codeOfSequence(match[0]);
    const name = emojiNameForCode(code);
    if (!name) continue;
    out ??= [];
    const index = match.index ?? 0;
    if (index > last) out.push(textToken(state, text.slice(last, index)));
    const html = new state.Token('chat_html', '', 0);
    html.content = emojiSpan(code, name);
    out.push(html);
    last = index + match[0].length;
  }
  if (out && last < text.length) out.push(textToken(state, text.slice(last)));
  return out;
}

// Unicode emoji are found in the text left after inline parsing, outside links.
function unicodeEmojiRule(state: StateCore): void {
  replaceTextOutsideLinks(state, (token) => unicodeEmojiTokens(state, token.content));
}

export const emojiPlugin = (md: MarkdownIt): void => {
  md.inline.ruler.push('chat_emoji', namedEmojiRule);
  md.core.ruler.push('chat_emoticons', emoticonRule);
  md.core.ruler.push('chat_unicode_emoji', unicodeEmojiRule);
  md.renderer.rules.chat_html = (tokens, idx) => tokens[idx].content;
};
