// Emoji suggestions for `:name` being typed in compose: the public server's names (loaded with the
// picker's table on first use) and the realm's custom emoji, each shown with its picture.
import { useEffect, useMemo, useState } from 'react';
import { customEmojiEntries, loadEmoji, searchEmoji, type EmojiEntry } from '../emoji/emoji-data';
import { useRealmEmoji } from '../emoji/Emoji';
import type { CompletionToken } from './autocomplete';

const LIMIT = 8;

export function useEmojiSuggestions(token: CompletionToken | null): EmojiEntry[] {
  const wanted = token?.kind === 'emoji';
  const [table, setTable] = useState<EmojiEntry[] | null>(null);
  const realm = useRealmEmoji();
  useEffect(() => {
    if (!wanted || table) return;
    let live = true;
    void loadEmoji().then((all) => live && setTable(all));
    return () => {
      live = false;
    };
  }, [wanted, table]);
  const all = useMemo(() => [...(table ?? []), ...customEmojiEntries(realm)], [table, realm]);
  return wanted && token ? searchEmoji(all, token.query, LIMIT) : [];
}
