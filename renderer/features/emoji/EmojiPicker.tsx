// Emoji picker with search over emoji names.
import { useEffect, useState } from 'react';
import { loadEmoji, searchEmoji, type EmojiEntry } from './emoji-data';
import { emojiChar } from '../messages/narrow-info';

export function EmojiPicker({
  onPick,
  onClose,
}: {
  onPick: (emoji: EmojiEntry) => void;
  onClose: () => void;
}) {
  const [all, setAll] = useState<EmojiEntry[]>([]);
  const [query, setQuery] = useState('');
  useEffect(() => {
    let live = true;
    void loadEmoji().then((e) => live && setAll(e));
    return () => {
      live = false;
    };
  }, []);
  const results = searchEmoji(all, query);
  return (
    <div className="emoji-picker" role="dialog" aria-label="Emoji picker">
      <input
        autoFocus
        type="search"
        aria-label="Search emoji"
        placeholder="Search emoji"
        value={query}
        onChange={(e) => setQuery(e.target.value)}
        onKeyDown={(e) => {
          if (e.key === 'Escape') {
            e.stopPropagation();
            onClose();
          } else if (e.key === 'Enter' && results[0]) onPick(results[0]);
        }}
      />
      <div className="emoji-grid">
        {results.map((e) => (
          <button
            type="button"
            key={e.code}
            aria-label={e.name}
            title={`:${e.name}:`}
            onClick={() => onPick(e)}
          >
            {emojiChar(e.code)}
          </button>
        ))}
      </div>
    </div>
  );
}
