// Block rules and output where the public server (Python-Markdown) differs from CommonMark:
// - paragraphs keep trailing spaces, and lines after the first keep their indentation (a list
//   item's continuation lines keep theirs as written); a line break keeps the spaces around it;
// - a quote needs a line with more than ">" in its block ("" and ">" alone are text);
// - a nested list follows its item's text on the same line ("<li>One <ul>");
// - table cell alignment is an inline style with a space and a semicolon.
import type { MarkdownIt, RendererRule, StateBlock, StateInline, Token } from 'markdown-it';

type BlockRule = (
  state: StateBlock,
  startLine: number,
  endLine: number,
  silent: boolean,
) => boolean;

function paragraphRule(state: StateBlock, startLine: number, endLine: number): boolean {
  const terminators = state.md.block.ruler.getRules('paragraph');
  const oldParentType = state.parentType;
  state.parentType = 'paragraph';
  let nextLine = startLine + 1;
  for (; nextLine < endLine && !state.isEmpty(nextLine); nextLine++) {
    if (state.sCount[nextLine] - state.blkIndent > 3) continue;
    if (state.sCount[nextLine] < 0) continue;
    if (terminators.some((rule) => rule(state, nextLine, endLine, true))) break;
  }
  const src = state.src;
  const first = state.bMarks[startLine] + state.tShift[startLine];
  const onMarkerLine = /\S/.test(src.slice(state.bMarks[startLine], first));
  const lines = [src.slice(first, state.eMarks[startLine])];
  for (let line = startLine + 1; line < nextLine; line++) {
    lines.push(
      onMarkerLine
        ? src.slice(state.bMarks[line], state.eMarks[line])
        : state.getLines(line, line + 1, state.blkIndent, false),
    );
  }
  state.line = nextLine;
  const open = state.push('paragraph_open', 'p', 1);
  open.map = [startLine, nextLine];
  const inline = state.push('inline', '', 0);
  inline.content = lines.join('\n');
  inline.map = [startLine, nextLine];
  inline.children = [];
  state.push('paragraph_close', 'p', -1);
  state.parentType = oldParentType;
  return true;
}

function newlineRule(state: StateInline, silent: boolean): boolean {
  if (state.src.charCodeAt(state.pos) !== 0x0a) return false;
  if (!silent) state.push('softbreak', 'br', 0);
  state.pos++;
  return true;
}

function quoteRule(original: BlockRule): BlockRule {
  return (state, startLine, endLine, silent) => {
    for (let line = startLine; line < endLine && !state.isEmpty(line); line++) {
      const text = state.src.slice(state.bMarks[line] + state.tShift[line], state.eMarks[line]);
      if (!/^>\s*$/.test(text)) return original(state, startLine, endLine, silent);
    }
    return false;
  };
}

// Any list item may interrupt a paragraph (an item numbered other than 1 too): the public server
// reads "1. A\n  2. B" as a nested list. "1)" starts no list there.
function listRule(original: BlockRule): BlockRule {
  return (state, startLine, endLine, silent) => {
    const start = state.bMarks[startLine] + state.tShift[startLine];
    if (/^\d+\)/.test(state.src.slice(start, start + 11))) return false;
    if (!silent || state.parentType !== 'paragraph') {
      return original(state, startLine, endLine, silent);
    }
    state.parentType = 'chat_list_probe' as typeof state.parentType;
    try {
      return original(state, startLine, endLine, silent);
    } finally {
      state.parentType = 'paragraph';
    }
  };
}

function alignedCell(tag: 'th' | 'td') {
  return (tokens: Token[], idx: number): string => {
    const style = String(tokens[idx].attrGet('style') ?? '');
    const align = /^text-align:(\w+)$/.exec(style);
    return align ? `<${tag} style="text-align: ${align[1]};">` : `<${tag}>`;
  };
}

const listOpen: RendererRule = (tokens, idx, options, _env, self) => {
  const html = self.renderToken(tokens, idx, options);
  return idx > 0 && tokens[idx - 1].hidden ? html.replace(/^\n/, '') : html;
};

export const blocksPlugin = (md: MarkdownIt): void => {
  md.block.ruler.at('paragraph', paragraphRule);
  // markdown-it offers no other way to wrap a built-in rule than its rule list.
  const blockquote = md.block.ruler.__rules__.find((rule) => rule.name === 'blockquote');
  if (blockquote) {
    md.block.ruler.at('blockquote', quoteRule(blockquote.fn as BlockRule), {
      alt: blockquote.alt,
    });
  }
  const list = md.block.ruler.__rules__.find((rule) => rule.name === 'list');
  if (list) md.block.ruler.at('list', listRule(list.fn as BlockRule), { alt: list.alt });
  md.inline.ruler.at('newline', newlineRule);
  md.renderer.rules.th_open = alignedCell('th');
  md.renderer.rules.td_open = alignedCell('td');
  md.renderer.rules.bullet_list_open = listOpen;
  md.renderer.rules.ordered_list_open = listOpen;
};
