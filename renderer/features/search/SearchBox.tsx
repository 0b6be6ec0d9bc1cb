// Search: text with operators (channel:, topic:, sender:, is:, has:) becomes a narrow.
import { forwardRef, useState } from 'react';
import { useAccountNames, useChatStoreApi } from '../../store/hooks';
import { selectActiveAccount } from '../../store';
import { navigate, useUi } from '../../src/ui-store';
import { searchNarrow, searchText } from './search-narrow';

export const SearchBox = forwardRef<HTMLInputElement>(function SearchBox(_props, ref) {
  const route = useUi((s) => s.route);
  const store = useChatStoreApi();
  // Only the slices names come from, so message events do not re-render the box.
  const names = useAccountNames();
  // The open narrow, shown as the user would type it.
  const current = route.kind === 'narrow' ? searchText(route.narrow, names) : '';
  const [text, setText] = useState<string | null>(null);
  return (
    <form
      role="search"
      className="search"
      onSubmit={(e) => {
        e.preventDefault();
        const narrow = searchNarrow(text ?? current, selectActiveAccount(store.getState()));
        navigate({ kind: 'narrow', narrow });
        setText(null);
        (document.activeElement as HTMLElement | null)?.blur();
      }}
    >
      <input
        ref={ref}
        type="search"
        aria-label="Search messages"
        placeholder="Search (channel: topic: sender: is: has:)"
        value={text ?? current}
        onChange={(e) => setText(e.target.value)}
        onKeyDown={(e) => {
          if (e.key === 'Escape') {
            setText(null);
            e.currentTarget.blur();
          }
        }}
      />
    </form>
  );
});
