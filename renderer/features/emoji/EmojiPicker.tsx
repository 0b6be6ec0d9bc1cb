// Emoji picker: the public server's emoji by category (Popular first, the realm's custom emoji
// last), with search over every name. A popover (lib/ui/Popover) on the button that opens it: the
// library places it, closes it on Esc or a click elsewhere, and gives the focus back to the button.
import { useEffect, useMemo, useRef, useState, type ReactElement } from 'react';
import { Popover, type PopoverAnchor } from '../../lib/ui/Popover';
import { customEmojiEntries, loadEmoji, searchEmoji, type EmojiEntry } from './emoji-data';
import { Emoji, useRealmEmoji } from './Emoji';

/** Emoji as buttons in a grid, each picked by click. */
function EmojiGrid({
  accountId,
  list,
  onPick,
}: {
  accountId: string;
  list: readonly EmojiEntry[];
  onPick: (emoji: EmojiEntry) => void;
}) {
  return (
    <div className="emoji-grid">
      {list.map((e) => (
        <button
          type="button"
          key={`${e.type}:${e.code}`}
          aria-label={e.name}
          title={`:${e.name}:`}
          onClick={() => onPick(e)}
        >
          <Emoji accountId={accountId} name={e.name} code={e.code} type={e.type} picture />
        </button>
      ))}
    </div>
  );
}

export function EmojiPicker({
  accountId,
  open,
  onOpenChange,
  trigger,
  collisionBoundary,
  align = 'end',
  anchor,
  side,
  onPick,
}: {
  accountId: string;
  open: boolean;
  onOpenChange: (open: boolean) => void;
  /** The button that opens the picker. */
  trigger: ReactElement;
  /** What the picker must stay inside besides the window (the message list). */
  collisionBoundary?: Element | null;
  /** Which edge of the button it lines up with (a message's button is at the row's right end). */
  align?: 'start' | 'end';
  /** What it opens beside instead of the button, on `side` of it. */
  anchor?: PopoverAnchor;
  side?: 'top' | 'bottom';
  onPick: (emoji: EmojiEntry) => void;
}) {
  return (
    <Popover
      label="Emoji picker"
      className="emoji-picker"
      open={open}
      onOpenChange={onOpenChange}
      trigger={trigger}
      align={align}
      anchor={anchor}
      side={side}
      collisionBoundary={collisionBoundary}
    >
      <EmojiChooser accountId={accountId} onPick={onPick} />
    </Popover>
  );
}

/** The picker's search box and grid (mounted while the picker is open). */
function EmojiChooser({
  accountId,
  onPick,
}: {
  accountId: string;
  onPick: (emoji: EmojiEntry) => void;
}) {
  const [unicode, setUnicode] = useState<EmojiEntry[]>([]);
  const realm = useRealmEmoji();
  const all = useMemo(() => [...unicode, ...customEmojiEntries(realm)], [unicode, realm]);
  const [query, setQuery] = useState('');
  const grid = useRef<HTMLDivElement>(null);
  useEffect(() => {
    let live = true;
    void loadEmoji().then((e) => live && setUnicode(e));
    return () => {
      live = false;
    };
  }, []);
  const results = query.trim() ? searchEmoji(all, query) : null;
  const categories = useMemo(() => {
    const byCategory = new Map<string, EmojiEntry[]>();
    for (const e of all) {
      const list = byCategory.get(e.category);
      if (list) list.push(e);
      else byCategory.set(e.category, [e]);
    }
    return [...byCategory];
  }, [all]);
  return (
    <>
      {/* The first focusable element: the popover puts the focus here as it opens. */}
      <input
        type="search"
        aria-label="Search emoji"
        placeholder="Search emoji"
        value={query}
        onChange={(e) => setQuery(e.target.value)}
        onKeyDown={(e) => {
          const first = results?.[0] ?? all[0];
          if (e.key === 'Enter' && first) {
            e.preventDefault();
            onPick(first);
          }
        }}
      />
      {results ? (
        <EmojiGrid accountId={accountId} list={results} onPick={onPick} />
      ) : (
        <>
          <div className="emoji-tabs" role="toolbar" aria-label="Emoji categories">
            {categories.map(([category, list]) => (
              <button
                type="button"
                key={category}
                title={category}
                aria-label={category}
                onClick={() =>
                  grid.current
                    ?.querySelector(`[data-category="${CSS.escape(category)}"]`)
                    ?.scrollIntoView({ block: 'start' })
                }
              >
                <Emoji
                  accountId={accountId}
                  name={list[0].name}
                  code={list[0].code}
                  type={list[0].type}
                  picture
                />
              </button>
            ))}
          </div>
          <div className="emoji-grid-scroller" ref={grid}>
            {categories.map(([category, list]) => (
              <section key={category} data-category={category} aria-label={category}>
                <h3 className="emoji-category">{category}</h3>
                <EmojiGrid accountId={accountId} list={list} onPick={onPick} />
              </section>
            ))}
          </div>
        </>
      )}
    </>
  );
}
