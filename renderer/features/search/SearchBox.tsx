// Search: text with operators (channel:, topic:, sender:, is:, has:) becomes a narrow.
import { forwardRef, useState } from 'react';
import { narrowToSearchText, parseSearchQuery } from '../../../shared/narrow';
import { navigate, useUi } from '../../src/ui-store';

export const SearchBox = forwardRef<HTMLInputElement>(function SearchBox(_props, ref) {
  const route = useUi((s) => s.route);
  const current = route.kind === 'narrow' ? narrowToSearchText(route.narrow) : '';
  const [text, setText] = useState<string | null>(null);
  return (
    <form
      role="search"
      className="search"
      onSubmit={(e) => {
        e.preventDefault();
        const narrow = parseSearchQuery(text ?? current);
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
