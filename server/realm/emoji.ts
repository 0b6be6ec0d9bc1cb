// The unicode emoji table from the emoji-datasource package: short name -> code, where the code is
// the lowercase dash-separated codepoint sequence with the FE0F variation selector removed, as the
// public API does. Loaded once, on first use. Reactions and statuses validate against it.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';

interface EmojiEntry {
  unified: string;
  short_names: string[];
}

/** The extra emoji the server provides besides unicode and realm emoji (reaction_type svc_extra_emoji). */
export const EXTRA_EMOJI = new Set(['zulip']);

let table: { byName: Map<string, string>; codes: Set<string> } | null = null;

function load() {
  if (table) return table;
  const require = createRequire(import.meta.url);
  const file = require.resolve('emoji-datasource/emoji.json');
  const entries = JSON.parse(readFileSync(file, 'utf8')) as EmojiEntry[];
  const byName = new Map<string, string>();
  const codes = new Set<string>();
  for (const entry of entries) {
    const code = emojiCode(entry.unified);
    codes.add(code);
    for (const name of entry.short_names) byName.set(name, code);
  }
  table = { byName, codes };
  return table;
}

export function emojiCode(unified: string): string {
  return unified.toLowerCase().replace(/-fe0f/g, '');
}

export function unicodeEmojiCodeForName(name: string): string | undefined {
  return load().byName.get(name);
}

export function isUnicodeEmojiCode(code: string): boolean {
  return load().codes.has(emojiCode(code));
}

export type EmojiCheck =
  | { ok: true; emoji_name: string; emoji_code: string; reaction_type: string }
  | { ok: false; msg: string };

/**
 * Validates an emoji given by name (and optionally code and type) as statuses and reactions
 * accept it. Realm emoji: the realm has none, so any realm_emoji is an invalid custom emoji.
 */
export function checkEmoji(name: string, code?: string, type?: string): EmojiCheck {
  const reactionType = type ?? 'unicode_emoji';
  switch (reactionType) {
    case 'unicode_emoji': {
      const expected = unicodeEmojiCodeForName(name);
      if (code === undefined) {
        if (expected === undefined) return { ok: false, msg: `Emoji '${name}' does not exist` };
        return { ok: true, emoji_name: name, emoji_code: expected, reaction_type: reactionType };
      }
      if (!isUnicodeEmojiCode(code)) return { ok: false, msg: 'Invalid emoji code.' };
      if (expected === undefined || expected !== emojiCode(code)) {
        return { ok: false, msg: 'Invalid emoji name.' };
      }
      return { ok: true, emoji_name: name, emoji_code: expected, reaction_type: reactionType };
    }
    case 'realm_emoji':
      return { ok: false, msg: 'Invalid custom emoji.' };
    case 'svc_extra_emoji':
      if (!EXTRA_EMOJI.has(name) || (code !== undefined && code !== name)) {
        return { ok: false, msg: 'Invalid emoji name.' };
      }
      return { ok: true, emoji_name: name, emoji_code: name, reaction_type: reactionType };
    default:
      return { ok: false, msg: `Invalid reaction type '${reactionType}'` };
  }
}
