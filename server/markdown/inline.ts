// The public server's inline syntax where it differs from CommonMark: code spans keep their
// spaces and newlines; strong (**x**), emphasis (*x*), strong emphasis (***x***) and strikethrough
// (~~x~~) are regular expressions on one line with no flanking rules; underscores never emphasize.
// Character references (&name;, &#10;, &#x1f;) are written out as typed. These replace
// markdown-it's backticks, entity, emphasis and strikethrough rules.
import type { MarkdownIt, StateInline } from 'markdown-it';

// A run of backticks, content that does not end with a backtick, and the same run again.
function codeSpanRule(state: StateInline, silent: boolean): boolean {
  const src = state.src;
  let pos = state.pos;
  if (src.charCodeAt(pos) !== 0x60 /* ` */) return false;
  if (pos > 0 && src[pos - 1] === '\\') return false;
  const start = pos;
  while (src.charCodeAt(pos) === 0x60) pos++;
  const marker = src.slice(start, pos);
  let search = pos + 1;
  for (;;) {
    const close = src.indexOf(marker, search);
    if (close === -1 || close > state.posMax) break;
    let end = close + marker.length;
    if (src[end] === '`') {
      // A longer run: skip it whole.
      while (src[end] === '`') end++;
      search = end;
      continue;
    }
    if (src[close - 1] === '`') {
      search = close + 1;
      continue;
    }
    if (!silent) {
      const token = state.push('code_inline', 'code', 0);
      token.markup = marker;
      token.content = src.slice(pos, close);
    }
    state.pos = end;
    return true;
  }
  if (!silent) state.pending += marker;
  state.pos = pos;
  return true;
}

interface Delimited {
  name: string;
  /** The marker's character code. */
  marker: number;
  /** Sticky; matches at the current position, group 1 is the content. */
  pattern: RegExp;
  /** Opening length. */
  open: number;
  tags: string[];
  /** No match right after another marker character (~~~x~~ is no strikethrough). */
  notAfterMarker?: boolean;
}

const STRONG_EM: Delimited = {
  name: 'chat_strong_em',
  marker: 0x2a,
  pattern: /\*\*\*(?!\s)([^*^\n]+)(?<!\s)\*\*\*/y,
  open: 3,
  tags: ['strong', 'em'],
};
const STRONG: Delimited = {
  name: 'chat_strong',
  marker: 0x2a,
  pattern: /\*\*([^\n]+?)\*\*/y,
  open: 2,
  tags: ['strong'],
};
const EMPHASIS: Delimited = {
  name: 'chat_emphasis',
  marker: 0x2a,
  pattern: /\*(?!\s)([^*^\n]+)(?<!\s)\*/y,
  open: 1,
  tags: ['em'],
};
const STRIKETHROUGH: Delimited = {
  name: 'chat_strikethrough',
  marker: 0x7e,
  pattern: /~~([^~\n]+?)~~(?!~)/y,
  open: 2,
  tags: ['del'],
  notAfterMarker: true,
};

function delimitedRule(spec: Delimited) {
  return (state: StateInline, silent: boolean): boolean => {
    const start = state.pos;
    if (state.src.charCodeAt(start) !== spec.marker) return false;
    if (spec.notAfterMarker && start > 0 && state.src.charCodeAt(start - 1) === spec.marker) {
      return false;
    }
    spec.pattern.lastIndex = start;
    const match = spec.pattern.exec(state.src);
    const end = match ? start + match[0].length : 0;
    if (!match || end > state.posMax) return false;
    if (silent) {
      state.pos = end;
      return true;
    }
    const contentStart = start + spec.open;
    for (const tag of spec.tags) state.push(`${tag}_open`, tag, 1);
    const oldMax = state.posMax;
    state.pos = contentStart;
    state.posMax = contentStart + match[1].length;
    state.md.inline.tokenize(state);
    state.posMax = oldMax;
    for (const tag of [...spec.tags].reverse()) state.push(`${tag}_close`, tag, -1);
    state.pos = end;
    return true;
  };
}

const ENTITY = /&(?:#[0-9]+|#x[0-9a-fA-F]+|[a-zA-Z0-9]+);/y;

function entityRule(state: StateInline, silent: boolean): boolean {
  if (state.src.charCodeAt(state.pos) !== 0x26 /* & */) return false;
  ENTITY.lastIndex = state.pos;
  const match = ENTITY.exec(state.src);
  if (!match || state.pos + match[0].length > state.posMax) return false;
  if (!silent) {
    const token = state.push('chat_html', '', 0);
    token.content = match[0];
  }
  state.pos += match[0].length;
  return true;
}

export const chatInlinePlugin = (md: MarkdownIt): void => {
  md.inline.ruler.at('backticks', codeSpanRule);
  md.inline.ruler.at('entity', entityRule);
  md.inline.ruler.at('emphasis', delimitedRule(STRONG_EM));
  md.inline.ruler.after('emphasis', STRONG.name, delimitedRule(STRONG));
  md.inline.ruler.after(STRONG.name, EMPHASIS.name, delimitedRule(EMPHASIS));
  md.inline.ruler.after(EMPHASIS.name, STRIKETHROUGH.name, delimitedRule(STRIKETHROUGH));
  md.inline.ruler.disable(['strikethrough']);
  md.inline.ruler2.disable(['strikethrough', 'emphasis']);
};
