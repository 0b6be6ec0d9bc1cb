// Math with KaTeX, the library the public server uses, pinned to the version whose HTML matches the
// public server's (package.json). Inline math is $$…$$ within a line, not touching another $ and not
// starting with "_" (so "$$_$$" stays text); the fenced ```math form is in fences.ts. Bad input
// becomes a tex-error span holding the source.
import katex from 'katex';
import type { MarkdownIt, StateInline } from 'markdown-it';

/** KaTeX's HTML for tex, or undefined when KaTeX refuses it. */
export function renderMath(tex: string, display: boolean): string | undefined {
  try {
    return katex.renderToString(tex, { displayMode: display });
  } catch {
    return undefined;
  }
}

// After "$$": a first character that is not a newline, "_" or "$", then \$ or anything but $ and
// newlines, then "$$" not followed by another "$".
const INLINE_MATH = /^\$\$([^\n_$](?:\\\$|[^$\n])*)\$\$(?!\$)/;
const WORD = /[\p{L}\p{N}_]/u;

function mathRule(state: StateInline, silent: boolean): boolean {
  if (state.src.charCodeAt(state.pos) !== 0x24 /* $ */) return false;
  const before = state.pos > 0 ? state.src[state.pos - 1] : '';
  // Not at a word boundary on either side, and no "$" just before.
  if (before === '$' || WORD.test(before)) return false;
  const match = INLINE_MATH.exec(state.src.slice(state.pos));
  if (!match) return false;
  const after = state.src[state.pos + match[0].length] ?? '';
  if (WORD.test(after)) return false;
  if (!silent) {
    const html = renderMath(match[1], false);
    if (html === undefined) {
      const token = state.push('chat_tex_error', '', 0);
      token.content = `$$${match[1]}$$`;
    } else {
      const token = state.push('chat_math', '', 0);
      token.content = html;
    }
  }
  state.pos += match[0].length;
  return true;
}

export const mathPlugin = (md: MarkdownIt): void => {
  md.inline.ruler.before('backticks', 'chat_math', mathRule);
  md.renderer.rules.chat_math = (tokens, idx) => tokens[idx].content;
  md.renderer.rules.chat_tex_error = (tokens, idx) =>
    `<span class="tex-error">${md.utils.escapeHtml(tokens[idx].content)}</span>`;
};
