// The picker's emoji: the public server's names and categories (shared/emoji/names.ts), so a picked
// emoji is one every server accepts under the name it shows, plus the realm's custom emoji as their
// own category. The table is loaded on first use as its own chunk, so the start-up bundle does not
// carry it. Codes are in the API's form (no FE0F), as reactions and statuses are stored.
import type { ReactionType } from '../../../shared/api/types';
import type { RealmEmoji } from './Emoji';

export interface EmojiEntry {
  /** The canonical name: the one sent to the server. */
  name: string;
  /** Every accepted name (aliases included), for search. */
  names: string[];
  code: string;
  category: string;
  type: ReactionType;
}

/** The public app's picker order, after its Popular row. */
const CATEGORY_ORDER = [
  'Smileys & Emotion',
  'People & Body',
  'Animals & Nature',
  'Food & Drink',
  'Activities',
  'Travel & Places',
  'Objects',
  'Symbols',
  'Flags',
];
export const POPULAR = 'Popular';
export const CUSTOM = 'Custom';
/** The public app's popular emoji: +1, tada, smile, heart, working_on_it, octopus. */
const POPULAR_CODES = ['1f44d', '1f389', '1f642', '2764', '1f6e0', '1f419'];

let cache: Promise<EmojiEntry[]> | null = null;

/** Every unicode emoji of the public server's catalog, by category in the picker's order. */
export function loadEmoji(): Promise<EmojiEntry[]> {
  cache ??= import('../../../shared/emoji/names').then(
    ({ allEmojiNames, emojiNameForCode, EMOJI_CATALOG }) => {
      const aliases = new Map<string, string[]>();
      for (const [name, code] of allEmojiNames()) {
        const list = aliases.get(code);
        if (list) list.push(name);
        else aliases.set(code, [name]);
      }
      const entry = (code: string, category: string): EmojiEntry | null => {
        const name = emojiNameForCode(code);
        if (!name) return null;
        const others = (aliases.get(code) ?? []).filter((n) => n !== name);
        return { name, names: [name, ...others], code, category, type: 'unicode_emoji' };
      };
      const known = new Set(CATEGORY_ORDER);
      const categories = [
        ...CATEGORY_ORDER.filter((c) => c in EMOJI_CATALOG),
        ...Object.keys(EMOJI_CATALOG).filter((c) => !known.has(c)),
      ];
      const out: EmojiEntry[] = [];
      for (const code of POPULAR_CODES) {
        const e = entry(code, POPULAR);
        if (e) out.push(e);
      }
      for (const category of categories)
        for (const code of EMOJI_CATALOG[category] ?? []) {
          const e = entry(code, category);
          if (e) out.push(e);
        }
      return out;
    },
  );
  return cache;
}

/** The realm's active custom emoji as picker entries (their code is the emoji's id). */
export function customEmojiEntries(
  realm: Readonly<Record<string, RealmEmoji>> | undefined,
): EmojiEntry[] {
  return Object.values(realm ?? {})
    .filter((e) => !e.deactivated)
    .sort((a, b) => a.name.localeCompare(b.name))
    .map((e) => ({
      name: e.name,
      names: [e.name],
      code: String(e.id),
      category: CUSTOM,
      type: 'realm_emoji',
    }));
}

/**
 * Emoji whose name contains the query: an exact name first, then names starting with it. Popular
 * entries repeat emoji of other categories and are left out of results.
 */
export function searchEmoji(all: readonly EmojiEntry[], query: string, limit = 60): EmojiEntry[] {
  const q = query.trim().toLowerCase().replace(/^:|:$/g, '').replace(/\s+/g, '_');
  if (!q) return all.slice(0, limit);
  const exact: EmojiEntry[] = [];
  const starts: EmojiEntry[] = [];
  const contains: EmojiEntry[] = [];
  for (const e of all) {
    if (e.category === POPULAR) continue;
    if (e.names.includes(q)) exact.push(e);
    else if (e.names.some((n) => n.startsWith(q))) starts.push(e);
    else if (e.names.some((n) => n.includes(q))) contains.push(e);
  }
  return [...exact, ...starts, ...contains].slice(0, limit);
}
