// Word-level differences between two versions of a message, for the edit history: the public web
// app marks inserted words green and deleted ones struck out in the rendered message. No diff
// library is among our dependencies, so this is a plain longest-common-subsequence over tokens.

export type DiffPart<T> = { kind: 'same' | 'inserted' | 'deleted'; token: T };

/** Beyond this many LCS cells (after trimming the common ends) the middle is shown as replaced. */
const MAX_CELLS = 4_000_000;

/** The edit script turning `before` into `after`: every token once, deleted ones before inserted. */
export function diffTokens<T>(before: readonly T[], after: readonly T[]): DiffPart<T>[] {
  let start = 0;
  while (start < before.length && start < after.length && before[start] === after[start]) start++;
  let endB = before.length;
  let endA = after.length;
  while (endB > start && endA > start && before[endB - 1] === after[endA - 1]) {
    endB--;
    endA--;
  }
  const parts: DiffPart<T>[] = before.slice(0, start).map((token) => ({ kind: 'same', token }));
  const n = endB - start;
  const m = endA - start;
  if (n * m > MAX_CELLS) {
    for (let i = start; i < endB; i++) parts.push({ kind: 'deleted', token: before[i]! });
    for (let j = start; j < endA; j++) parts.push({ kind: 'inserted', token: after[j]! });
  } else {
    // lengths[i][j]: LCS length of before[start+i..endB) and after[start+j..endA).
    const width = m + 1;
    const lengths = new Uint32Array((n + 1) * width);
    for (let i = n - 1; i >= 0; i--)
      for (let j = m - 1; j >= 0; j--)
        lengths[i * width + j] =
          before[start + i] === after[start + j]
            ? lengths[(i + 1) * width + j + 1]! + 1
            : Math.max(lengths[(i + 1) * width + j]!, lengths[i * width + j + 1]!);
    let i = 0;
    let j = 0;
    while (i < n || j < m) {
      if (i < n && j < m && before[start + i] === after[start + j]) {
        parts.push({ kind: 'same', token: after[start + j]! });
        i++;
        j++;
      } else if (
        j >= m ||
        (i < n && lengths[(i + 1) * width + j]! >= lengths[i * width + j + 1]!)
      ) {
        parts.push({ kind: 'deleted', token: before[start + i]! });
        i++;
      } else {
        parts.push({ kind: 'inserted', token: after[start + j]! });
        j++;
      }
    }
  }
  for (let k = endA; k < after.length; k++) parts.push({ kind: 'same', token: after[k]! });
  return parts;
}

/** Tags, runs of whitespace and words (anything else up to the next space or tag). */
function htmlTokens(html: string): string[] {
  return html.match(/<[^>]*>|\s+|[^\s<]+/g) ?? [];
}

const isTag = (token: string) => token.startsWith('<');

/**
 * The newer rendered HTML with the words added since `beforeHtml` inside `<ins>` and the words
 * removed inside `<del>` where they were. Markup comes from the newer version only (a removed tag
 * is dropped, its words kept as deleted), so the result stays as well-formed as `afterHtml`.
 * Whitespace joins a run of changed words into one mark. Neither input is sanitized here.
 */
export function markHtmlDifferences(beforeHtml: string, afterHtml: string): string {
  const parts = diffTokens(htmlTokens(beforeHtml), htmlTokens(afterHtml));
  let out = '';
  let open: 'inserted' | 'deleted' | null = null;
  let pendingSpace = '';
  const close = () => {
    if (open) out += open === 'inserted' ? '</ins>' : '</del>';
    open = null;
  };
  for (const { kind, token } of parts) {
    if (isTag(token)) {
      if (kind === 'deleted') continue;
      close();
      out += pendingSpace + token;
      pendingSpace = '';
    } else if (/^\s+$/.test(token)) {
      // Held back: inside a run of changes it joins the mark, otherwise it is plain text.
      if (kind !== 'deleted' || open === 'deleted') pendingSpace += token;
    } else if (kind === 'same') {
      close();
      out += pendingSpace + token;
      pendingSpace = '';
    } else {
      if (open !== kind) {
        close();
        out += pendingSpace;
        pendingSpace = '';
        out += kind === 'inserted' ? '<ins class="diff-inserted">' : '<del class="diff-deleted">';
        open = kind;
      }
      out += pendingSpace + token;
      pendingSpace = '';
    }
  }
  close();
  return out + pendingSpace;
}
