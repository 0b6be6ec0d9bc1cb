// Core-rule helpers for passes that turn parts of the text left after inline parsing into other
// tokens (bare links, linkifiers, Unicode emoji), never inside a link.
import type { StateCore, Token } from 'markdown-it';

export function textToken(state: StateCore, content: string): Token {
  const token = new state.Token('text', '', 0);
  token.content = content;
  return token;
}

/**
 * Offers each text token outside links, with its neighbours, to replace; a returned list takes the
 * token's place, null keeps it.
 */
export function replaceTextOutsideLinks(
  state: StateCore,
  replace: (text: Token, before: Token | undefined, after: Token | undefined) => Token[] | null,
): void {
  for (const block of state.tokens) {
    if (block.type !== 'inline' || !block.children) continue;
    const source = block.children;
    const children: Token[] = [];
    let linkDepth = 0;
    source.forEach((token, i) => {
      if (token.type === 'link_open') linkDepth += 1;
      if (token.type === 'link_close') linkDepth -= 1;
      const replaced =
        token.type === 'text' && linkDepth === 0
          ? replace(token, source[i - 1], source[i + 1])
          : null;
      if (replaced) children.push(...replaced);
      else children.push(token);
    });
    block.children = children;
  }
}
