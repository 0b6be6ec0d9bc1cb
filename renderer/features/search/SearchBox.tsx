// The search bar: text with operators becomes a narrow, with the public web app's typeahead
// (search-suggestions.ts) as a combobox (lib/ui/Combobox: downshift's roles and keys). Arrows move through the suggestions, Tab takes one and goes
// on typing, Enter takes the highlighted one and searches (an operator alone, `channel:`, goes on to
// its values), Enter with none highlighted searches for what is typed, Esc closes the list, then
// leaves the bar. A search the server refuses (an unknown operator) shows its reason and leaves the
// view on screen as it was.
import {
  forwardRef,
  useDeferredValue,
  useId,
  useMemo,
  useRef,
  useState,
  type KeyboardEvent,
} from 'react';
import { ComboboxInput, useComboboxList, type PickedBy } from '../../lib/ui/Combobox';
import { useAccountNames, useChatStore, useChatStoreApi } from '../../store/hooks';
import { selectActiveAccount } from '../../store';
import { navigate, uiStore, useUi } from '../../store/ui-store';
import { api } from '../../bridge/api';
import {
  canonicalOperator,
  isKnownSearchOperator,
  searchTokens,
  type Narrow,
} from '../../../shared/narrow';
import { prepareUserMatching } from '../compose/autocomplete';
import { useChannelTopics } from '../compose/use-completion';
import { refusalReason } from '../messages/useMessagePages';
import { channelIdOf } from '../messages/narrow-info';
import { personId, searchNarrow, searchText } from './search-narrow';
import { rememberedSuggestions, type SearchSuggestion } from './search-suggestions';

const KNOWN_VALUES: Record<string, ReadonlySet<string>> = {
  is: new Set(['dm', 'private', 'starred', 'mentioned', 'alerted', 'followed', 'unread']),
  has: new Set(['link', 'image', 'attachment', 'reaction']),
};

/**
 * Whether the server should see the narrow before the view changes: an operator the app does not
 * know, a filter value it does not know, or a channel or person it could not resolve. Those may be
 * refused; everything else opens at once.
 */
function needsServerCheck(narrow: Narrow): boolean {
  return narrow.some((t) => {
    if (!isKnownSearchOperator(t.operator)) return true;
    const values = KNOWN_VALUES[t.operator];
    if (values) return typeof t.operand !== 'string' || !values.has(t.operand);
    if (['channel', 'sender', 'dm', 'dm-including'].includes(t.operator))
      return typeof t.operand === 'string';
    return false;
  });
}

/** The channel named in the text (`channel:general`), for its topics. */
function typedChannel(text: string, idByName: ReadonlyMap<string, number> | undefined) {
  for (const token of searchTokens(text)) {
    if (token.operator && canonicalOperator(token.operator) === 'channel' && !token.negated)
      return idByName?.get((token.operand ?? '').toLowerCase());
  }
  return undefined;
}

export const SearchBox = forwardRef<HTMLInputElement>(function SearchBox(_props, ref) {
  const route = useUi((s) => s.route);
  const store = useChatStoreApi();
  // Only the slices names come from, so message events do not re-render the box.
  const names = useAccountNames();
  const accountId = useChatStore((s) => s.activeAccountId ?? '');
  // The open narrow, shown as the user would type it.
  const current = route.kind === 'narrow' ? searchText(route.narrow, names) : '';
  const viewChannel = route.kind === 'narrow' ? channelIdOf(route.narrow, names) : undefined;
  const [text, setText] = useState<string | null>(null);
  const [open, setOpen] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [checking, setChecking] = useState(false);
  // `checking` as of now, for a second submit before the first one's render.
  const inFlight = useRef(false);
  const listId = useId();
  // Another view opened (the sidebar, a link): the bar shows it, not what was left typed.
  const [typedIn, setTypedIn] = useState(route);
  if (typedIn !== route) {
    setTypedIn(route);
    setText(null);
    setError(null);
  }
  const value = text ?? current;
  // The suggestions follow the text at a lower priority: a keystroke paints the letter at once, and
  // matching thousands of people and topics happens in a render React may drop for the next key.
  const query = useDeferredValue(value);

  // One array per users state: matchUsers keeps its folded index per array.
  const usersState = names?.users;
  const channelsState = names?.channels;
  const users = useMemo(() => (usersState ? [...usersState.users.values()] : []), [usersState]);
  const subscriptions = useMemo(
    () => (channelsState ? [...channelsState.subscriptions.values()] : []),
    [channelsState],
  );
  const topicChannel = open
    ? (typedChannel(query, names?.channels.idByName) ?? viewChannel ?? null)
    : null;
  const topics = useChannelTopics(accountId, topicChannel);

  // The same sources answer every key typed until one of them changes (a channel's topics come).
  const suggest = useMemo(() => {
    if (!names) return null;
    return rememberedSuggestions({
      channels: subscriptions,
      users,
      selfUserId: names.selfUserId,
      channelId: (name) => names.channels.idByName.get(name),
      topics: (streamId) => (streamId === topicChannel ? topics : []),
      isPerson: (operand) => personId(operand, names) !== undefined,
      currentStreamId: viewChannel,
    });
  }, [names, subscriptions, users, topicChannel, topics, viewChannel]);
  const suggestions = useMemo(
    (): SearchSuggestion[] => (open && suggest ? suggest(query) : []),
    [open, suggest, query],
  );
  // Keyed by place: each key changes every suggestion's text, and rows updated in place cost a
  // keystroke far less than a list unmounted and mounted again.
  const rows = useMemo(() => suggestions.map((s, i) => ({ s, key: String(i) })), [suggestions]);

  const edit = (next: string) => {
    setText(next);
    setError(null);
    setOpen(true);
  };

  const finish = () => {
    setText(null);
    setOpen(false);
    setError(null);
    (document.activeElement as HTMLElement | null)?.blur();
  };

  const search = async (query: string) => {
    // One search at a time: a second Enter while the server is asked does not search again.
    if (inFlight.current) return;
    const account = selectActiveAccount(store.getState());
    const narrow = searchNarrow(query, account, { unknownOperators: 'terms' });
    if (needsServerCheck(narrow) && accountId) {
      const routeBefore = uiStore.getState().route;
      const accountBefore = store.getState().activeAccountId;
      // The reader went elsewhere (another view, another account) while the server answered.
      const movedOn = () =>
        uiStore.getState().route !== routeBefore ||
        store.getState().activeAccountId !== accountBefore;
      inFlight.current = true;
      setChecking(true);
      try {
        await api().getMessages({
          accountId,
          anchor: 'newest',
          numBefore: 0,
          numAfter: 0,
          narrow,
        });
      } catch (e) {
        const reason = refusalReason(e);
        if (movedOn()) return;
        if (reason !== null) {
          // The view stays as it was; the text stays to be corrected.
          setText(query);
          setOpen(false);
          setError(reason);
          return;
        }
      } finally {
        inFlight.current = false;
        setChecking(false);
      }
      if (movedOn()) return;
    }
    navigate({ kind: 'narrow', narrow });
    finish();
  };

  const take = (s: SearchSuggestion, via: PickedBy) => {
    // Tab completes and goes on typing; Enter or a click searches (an operator alone, `channel:`,
    // goes on to its values).
    if (via !== 'tab' && !s.partial) {
      if (!checking) void search(s.text);
      return;
    }
    edit(s.text);
  };

  const combobox = useComboboxList({
    items: rows,
    open,
    label: 'Search suggestions',
    className: 'autocomplete search-suggestions',
    itemKey: (row) => row.key,
    itemText: (row) => row.s.text,
    renderItem: ({ s }) => (
      <>
        <span className="search-term">{s.label}</span>
        <span className="autocomplete-detail"> {s.description}</span>
      </>
    ),
    onPick: (row, via) => take(row.s, via),
    onDismiss: () => setOpen(false),
    highlightFirst: false,
  });

  // Keys the open list did not take (it takes arrows, Tab, Enter on a highlighted row, Esc).
  const onKeyDown = (e: KeyboardEvent<HTMLInputElement>) => {
    if ((e.key === 'ArrowDown' || e.key === 'ArrowUp') && !combobox.isOpen) {
      e.preventDefault();
      setOpen(true);
      return;
    }
    if (e.key === 'Escape') {
      // The list is closed: Esc leaves the bar (and goes no further).
      e.preventDefault();
      e.stopPropagation();
      finish();
    }
  };

  return (
    <form
      role="search"
      className="search"
      onSubmit={(e) => {
        e.preventDefault();
        if (!checking) void search(value);
      }}
    >
      <ComboboxInput
        combobox={combobox}
        ref={ref}
        type="search"
        aria-label="Search messages"
        aria-invalid={error !== null}
        aria-describedby={error !== null ? `${listId}-error` : undefined}
        spellCheck={false}
        placeholder="Search (channel: topic: sender: dm: is: has:)"
        value={value}
        onChange={(e) => edit(e.target.value)}
        onFocus={() => {
          // Folding 10,000 names happens here, not on the first keystroke.
          prepareUserMatching(users);
          setOpen(true);
        }}
        onBlur={() => setOpen(false)}
        onKeyDown={onKeyDown}
      />
      {combobox.list}
      {error !== null ? (
        <p id={`${listId}-error`} role="alert" className="search-error">
          {error}
        </p>
      ) : null}
    </form>
  );
});
