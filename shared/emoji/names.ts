// The public server's emoji names (its Google-set table, generated into zulip-emoji-codes.json by
// scripts/gen-emoji-table.ts; licence in NOTICE.md). Reactions, statuses and `:name:` Markdown on
// the public server accept exactly these names, aliases included ("+1", "thumbs_up" and "like" are
// all 1f44d), and each code has one canonical name. Codes are in the API's form (no FE0F).
import table from './zulip-emoji-codes.json';

interface EmojiTable {
  name_to_codepoint: Record<string, string>;
  codepoint_to_name: Record<string, string>;
  emoticon_conversions: Record<string, string>;
  emoji_catalog: Record<string, string[]>;
}

const data = table as EmojiTable;
const byName = new Map(Object.entries(data.name_to_codepoint));
const canonical = new Map(Object.entries(data.codepoint_to_name));

/** The code of an accepted unicode emoji name (alias or canonical), or undefined. */
export function emojiCodeForName(name: string): string | undefined {
  return byName.get(name);
}

/** The canonical name of a unicode emoji code, or undefined when the server knows no such emoji. */
export function emojiNameForCode(code: string): string | undefined {
  return canonical.get(code);
}

/** Every accepted name with its code, aliases included. */
export function allEmojiNames(): ReadonlyMap<string, string> {
  return byName;
}

/** Emoticon -> `:name:` replacements made when the user's `translate_emoticons` is on. */
export const EMOTICON_CONVERSIONS: Readonly<Record<string, string>> = data.emoticon_conversions;

/** The picker's categories, in the table's order, each with its codes in display order. */
export const EMOJI_CATALOG: Readonly<Record<string, readonly string[]>> = data.emoji_catalog;
