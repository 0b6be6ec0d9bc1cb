// The line-level passes the public server runs before block parsing, in its order: a blank line
// before a list that hangs off a paragraph, whitespace normalization, then fenced blocks. Fences
// are handled here rather than by markdown-it's fence rule because the public server resolves them
// as a stack over lines before any other syntax: a quote fence turns its lines into "> " lines
// (fences nest inside it), a spoiler into its header and content between HTML placeholders, and
// code and math into placeholders. Placeholders are swapped for their HTML after rendering
// (placeholders.ts), so a fence can never be reinterpreted as other Markdown.
import { PLACEHOLDER_DELIMITERS, escapeHtmlAttribute, type HtmlStash } from './placeholders';
import { renderCodeBlock } from './code';
import { renderMath } from './math';

// ~~~ or ``` (3 or more), an optional language (".py", "{python}") and a header (spoilers).
const FENCE = /^(~{3,}|`{3,})[ ]*(?:\{?\.?([a-zA-Z0-9_+,\-./#]+)[ ]*([^ ~`][^~`]*)?\}?)?$/;
const LIST_ITEM = /^[ ]*([*+-]|\d\.)[ ]+(.*)/;

interface Fence {
  fence: string;
  isCode: boolean;
}

/** Inserts a blank line where a list item directly follows text or a list of the other kind. */
export function separateHangingLists(lines: string[]): string[] {
  const out: string[] = [];
  const open: Fence[] = [];
  let inCode = false;
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i];
    out.push(line);
    if (i === lines.length - 1) break;
    const fence = FENCE.exec(line);
    if (fence) {
      const language = fence[2];
      const closesLast = !language && open.length > 0 && open[open.length - 1].fence === fence[1];
      if (closesLast) open.pop();
      else open.push({ fence: fence[1], isCode: language !== 'quote' && language !== 'quoted' });
      inCode = open.some((f) => f.isCode);
    }
    const current = LIST_ITEM.exec(line);
    const next = LIST_ITEM.exec(lines[i + 1]);
    const hangs =
      (next && !current) ||
      (current && next && (current[1].length === 1) !== (next[1].length === 1));
    if (!inCode && line !== '' && hangs) out.push('');
  }
  return out;
}

/** Line endings, tabs (to 4 columns) and whitespace-only lines, as the public server normalizes them. */
export function normalizeWhitespace(text: string): string {
  const unified = text.replace(PLACEHOLDER_DELIMITERS, '').replace(/\r\n?/g, '\n') + '\n\n';
  const expanded = unified
    .split('\n')
    .map((line) => (line.includes('\t') ? expandTabs(line) : line))
    .join('\n');
  return expanded.replace(/(?<=\n) +\n/g, '\n');
}

function expandTabs(line: string): string {
  let out = '';
  for (const char of line) {
    if (char === '\t') out += ' '.repeat(4 - (out.length % 4));
    else out += char;
  }
  return out;
}

interface Handler {
  handleLine(line: string): void;
  done(): void;
}

/** Resolves fenced blocks (code, math, quote, spoiler) over lines; see the module comment. */
export function resolveFences(lines: string[], stash: HtmlStash): string[] {
  const output: string[] = [];
  const handlers: Handler[] = [];

  const startBlock = (target: string[], line: string) => {
    const match = FENCE.exec(line);
    if (!match) {
      target.push(line);
      return;
    }
    const fence = match[1];
    const language = match[2]?.toLowerCase();
    const header = match[3];
    if (language === 'quote' || language === 'quoted') {
      handlers.push(blockHandler(target, fence, true, (text) => quoteLines(text)));
    } else if (language === 'math') {
      handlers.push(blockHandler(target, fence, false, (text) => renderMathBlock(text)));
    } else if (language === 'spoiler') {
      handlers.push(blockHandler(target, fence, true, (text) => spoiler(header, text)));
    } else {
      handlers.push(blockHandler(target, fence, false, (text) => renderCodeBlock(text, language)));
    }
  };

  // Quote and spoiler contents stay Markdown (and may open fences of their own); code and math
  // contents become one placeholder. A block that ends empty leaves nothing behind.
  function blockHandler(
    target: string[],
    fence: string,
    processContents: boolean,
    format: (text: string) => string,
  ): Handler {
    const lines: string[] = [];
    return {
      handleLine(line) {
        if (line.trimEnd() === fence) this.done();
        else if (processContents) startBlock(lines, line);
        else lines.push(line.trimEnd());
      },
      done() {
        if (lines.length > 0) {
          let text = format(lines.join('\n'));
          if (!processContents) text = stash.store(text);
          target.push('', ...text.split('\n'), '');
        }
        handlers.pop();
      },
    };
  }

  const spoiler = (header: string | undefined, text: string): string => {
    const parts = [stash.store('<div class="spoiler-block"><div class="spoiler-header">')];
    if (header !== undefined) parts.push(header);
    parts.push(stash.store('</div><div class="spoiler-content" aria-hidden="true">'));
    parts.push(text, stash.store('</div></div>'));
    return parts.join('\n\n');
  };

  handlers.push({
    handleLine: (line) => startBlock(output, line),
    done: () => handlers.pop(),
  });
  for (const line of lines) handlers[handlers.length - 1].handleLine(line);
  while (handlers.length > 0) handlers[handlers.length - 1].done();
  if (output.length > 2 && output[output.length - 2] !== '') output.push('');
  return output;
}

function quoteLines(text: string): string {
  return text
    .split('\n')
    .map((line) => `> ${line}`)
    .join('\n');
}

function renderMathBlock(text: string): string {
  return text
    .split('\n\n')
    .map(
      (paragraph) =>
        renderMath(paragraph, true) ??
        `<span class="tex-error">${escapeHtmlAttribute(paragraph)}</span>`,
    )
    .join('\n\n');
}
