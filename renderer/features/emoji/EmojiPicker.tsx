// Emoji picker with search over emoji names. A popover: Esc closes it wherever the focus is (before
// any global shortcut sees the key), and focus returns to the control it was opened from.
import { useEffect, useState } from 'react';
import { loadEmoji, searchEmoji, type EmojiEntry } from './emoji-data';
import { emojiGlyph } from '../../../shared/emoji/code';

export function EmojiPicker({
  onPick,
  onClose,
}: {
  onPick: (emoji: EmojiEntry) => void;
  onClose: () => void;
}) {
  const [all, setAll] = useState<EmojiEntry[]>([]);
  const [query, setQuery] = useState('');
  // Read while rendering the first time: the search box takes the focus when it mounts.
  const [opener] = useState(() => document.activeElement as HTMLElement | null);
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (e.key !== 'Escape') return;
      e.stopPropagation();
      e.preventDefault();
      onClose();
      if (opener?.isConnected) opener.focus();
    };
    document.addEventListener('keydown', onKey, true);
    return () => document.removeEventListener('keydown', onKey, true);
  }, [onClose, opener]);
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
          if (e.key === 'Enter' && results[0]) {
            e.preventDefault();
            onPick(results[0]);
          }
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
            {emojiGlyph(e.code)}
          </button>
        ))}
      </div>
    </div>
  );
}
