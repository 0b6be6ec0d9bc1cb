/** A run of code and the Pygments short class it is shown with ("" for plain text). */
export interface Token {
  text: string;
  cls: string;
}

export const isBlank = (token: Token): boolean => /^\s+$/.test(token.text);

/**
 * Replaces the tokens for which `parts` returns a list by that list, in one pass (splicing each
 * in place would make long blocks quadratic). `parts` sees the list as it was before the pass.
 */
export function splitTokens(
  tokens: Token[],
  parts: (token: Token, index: number) => Token[] | undefined,
): void {
  const result: Token[] = [];
  tokens.forEach((token, index) => {
    const replacement = parts(token, index);
    if (!replacement) result.push(token);
    else for (const part of replacement) if (part.text) result.push(part);
  });
  tokens.length = 0;
  for (const token of result) tokens.push(token);
}
