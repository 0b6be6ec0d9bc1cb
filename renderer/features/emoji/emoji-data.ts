// Emoji names for the picker, from emoji-datasource. Loaded on first use as its own chunk, so the
// start-up bundle does not carry the 1,900-entry table. Codes are in the API's form (no FE0F), the
// form the server stores reactions and statuses in, so a picked emoji compares equal to a stored one.
import { normalizeEmojiCode } from '../../../shared/emoji/code';

export interface EmojiEntry {
  name: string;
  /** All short names, for search. */
  names: string[];
  code: string;
  category: string;
}

interface RawEmoji {
  unified: string;
  short_name: string;
  short_names: string[];
  category: string;
  sort_order: number;
  obsoleted_by?: string;
}

let cache: Promise<EmojiEntry[]> | null = null;

export function loadEmoji(): Promise<EmojiEntry[]> {
  cache ??= import('emoji-datasource/emoji.json').then((mod) => {
    const raw = ((mod as { default?: RawEmoji[] }).default ?? mod) as unknown as RawEmoji[];
    return raw
      .filter((e) => !e.obsoleted_by)
      .sort((a, b) => a.sort_order - b.sort_order)
      .map((e) => ({
        name: e.short_name,
        names: e.short_names,
        code: normalizeEmojiCode(e.unified),
        category: e.category,
      }));
  });
  return cache;
}

/** Emoji whose name contains the query: an exact name first, then names starting with it. */
export function searchEmoji(all: readonly EmojiEntry[], query: string, limit = 60): EmojiEntry[] {
  const q = query.trim().toLowerCase().replace(/^:|:$/g, '').replace(/\s+/g, '_');
  if (!q) return all.slice(0, limit);
  const exact: EmojiEntry[] = [];
  const starts: EmojiEntry[] = [];
  const contains: EmojiEntry[] = [];
  for (const e of all) {
    if (e.names.includes(q)) exact.push(e);
    else if (e.names.some((n) => n.startsWith(q))) starts.push(e);
    else if (e.names.some((n) => n.includes(q))) contains.push(e);
  }
  return [...exact, ...starts, ...contains].slice(0, limit);
}
