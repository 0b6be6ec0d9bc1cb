// Search: text with operators (channel:, topic:, sender:, is:, has:) becomes a narrow.
import { forwardRef, useState } from 'react';
import { canonicalNarrow, narrowToSearchText, parseSearchQuery } from '../../../shared/narrow';
import { useChatStore, useChatStoreApi } from '../../store/hooks';
import { selectActiveAccount } from '../../store';
import { resolveChannelNames } from '../messages/narrow-info';
import { navigate, useUi } from '../../src/ui-store';

export const SearchBox = forwardRef<HTMLInputElement>(function SearchBox(_props, ref) {
  const route = useUi((s) => s.route);
  const store = useChatStoreApi();
  const channels = useChatStore((s) => selectActiveAccount(s)?.channels.channels);
  // Shown with channel names, as the user would type it.
  const current =
    route.kind === 'narrow'
      ? narrowToSearchText(
          route.narrow.map((t) =>
            t.operator === 'channel' && typeof t.operand === 'number'
              ? { ...t, operand: channels?.get(t.operand)?.name ?? t.operand }
              : t,
          ),
        )
      : '';
  const [text, setText] = useState<string | null>(null);
  return (
    <form
      role="search"
      className="search"
      onSubmit={(e) => {
        e.preventDefault();
        const narrow = canonicalNarrow(
          resolveChannelNames(
            parseSearchQuery(text ?? current),
            selectActiveAccount(store.getState()),
          ),
        );
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
