import { PYGMENTS_LEXER_ALIASES } from './pygments-lexer-aliases';

const NAME_BY_ALIAS = new Map<string, string>(
  PYGMENTS_LEXER_ALIASES.flatMap(([name, aliases]) =>
    aliases.map((alias) => [alias, name] as const),
  ),
);

/**
 * The public server's name for the language a code block's tag selects ("py" → "Python",
 * "c++" → "C++", "text" → "Text only"), or undefined when no lexer answers to the tag. It matches
 * the tag case-insensitively, as the server lower-cases tags before looking them up.
 */
export function canonicalLanguage(alias: string): string | undefined {
  return NAME_BY_ALIAS.get(alias.trim().toLowerCase());
}
