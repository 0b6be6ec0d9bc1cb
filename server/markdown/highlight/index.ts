// Placeholder for the Pygments-compatible highlighter (another branch replaces this file): knows no
// language, so every code block is escaped only and keeps the language name it was given.

/** Token-span markup for the inside of `<code>`, and the canonical language name; undefined = unknown. */
export function highlightCode(
  _code: string,
  _language: string,
): { html: string; language: string } | undefined {
  return undefined;
}
