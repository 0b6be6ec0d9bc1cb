// Line passes that let markdown-it's block rules see lists and quotes as the public server
// (Python-Markdown, 2-space list indentation) does:
// - list items nest by 2 spaces of indentation, whatever the parent's marker width, and any bullet
//   continues a bullet list: items are re-indented to the content column markdown-it needs and
//   bullets written as "*";
// - a quote takes the rest of its block (up to a blank line): lines after a quote line that lack
//   ">" are quoted too.

const ITEM = /^( *)([*+-]|\d+\.)( +)(.*)$/;
const THEMATIC_BREAK = /^ {0,3}([-*_])(?: *\1){2,} *$/;
const QUOTE = /^ {0,3}>/;
const EMPTY_QUOTE = /^ {0,3}>\s*$/;

interface OpenItem {
  /** Indentation as written. */
  indent: number;
  /** Column of the item's content once re-indented. */
  content: number;
}

function indentOf(line: string): number {
  return line.length - line.trimStart().length;
}

/** Re-indents list items and their continuation lines; see the module comment. */
export function reindentLists(lines: string[]): string[] {
  const open: OpenItem[] = [];
  let afterBlank = false;
  return lines.map((line) => {
    if (line.trim() === '') {
      afterBlank = true;
      return line;
    }
    const indent = indentOf(line);
    const item = THEMATIC_BREAK.test(line) ? null : ITEM.exec(line);
    const wasAfterBlank = afterBlank;
    afterBlank = false;
    if (item && (open.length > 0 || indent < 4)) {
      while (open.length > 0 && open[open.length - 1].indent >= indent - 1) open.pop();
      const column = open.length > 0 ? open[open.length - 1].content : indent;
      const marker = /\d/.test(item[2]) ? item[2] : '*';
      const spaces = item[3].length > 4 ? 1 : item[3].length;
      open.push({ indent, content: column + marker.length + spaces });
      return `${' '.repeat(column)}${marker}${item[3]}${item[4]}`;
    }
    // Text right after an item's line continues its paragraph as written.
    if (open.length === 0 || !wasAfterBlank) return line;
    if (indent < 2) {
      open.length = 0;
      return line;
    }
    let owner = open.length - 1;
    while (owner > 0 && open[owner].indent + 2 > indent) owner--;
    const column = open[owner].content + Math.max(0, indent - (open[owner].indent + 2));
    return `${' '.repeat(column)}${line.trimStart()}`;
  });
}

/** Quotes the lines that follow a quote line up to the end of its block; see the module comment. */
export function extendQuotes(lines: string[]): string[] {
  const out = [...lines];
  let start = 0;
  while (start < out.length) {
    let end = start;
    while (end < out.length && out[end].trim() !== '') end++;
    const first = findQuoteStart(out, start, end);
    if (first !== -1) {
      for (let i = first + 1; i < end; i++) if (!QUOTE.test(out[i])) out[i] = `> ${out[i]}`;
    }
    start = end + 1;
  }
  return out;
}

function findQuoteStart(lines: string[], start: number, end: number): number {
  for (let i = start; i < end; i++) {
    if (!lines[i].startsWith('>')) continue;
    let onlyEmpty = true;
    for (let j = i; j < end && onlyEmpty; j++) onlyEmpty = EMPTY_QUOTE.test(lines[j]);
    return onlyEmpty ? -1 : i;
  }
  return -1;
}
