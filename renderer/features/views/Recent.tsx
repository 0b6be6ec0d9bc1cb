// Recent conversations, as the public web app's table: one row per topic or direct-message
// conversation, newest first, with its channel and topic (or the people of the conversation), the
// avatars of who took part, when it was last active and its unread count; filters for unread,
// participated, muted and direct-message conversations and a text filter; the keyboard moves between rows
// (arrows, j/k, Home/End, Page Up/Down) and Enter opens one. As there, a row's unread count is a
// button that marks the conversation read (the server's refusal is shown above the table).
//
// The rows are virtualized within the table's own scroll: thousands of conversations cost the
// same as thirty.
import {
  memo,
  useCallback,
  useEffect,
  useLayoutEffect,
  useMemo,
  useRef,
  useState,
  type KeyboardEvent as ReactKeyboardEvent,
} from 'react';
import { useQuery } from '@tanstack/react-query';
import { useVirtualizer } from '@tanstack/react-virtual';
import { MessagesSquare, VolumeX } from 'lucide-react';
import {
  useAccountNames,
  useChatStore,
  useChatStoreApi,
  useUnreadCounts,
  useUser,
} from '../../store/hooks';
import { selectActiveAccount } from '../../store';
import { channelNarrow, narrowKey, type Narrow } from '../../../shared/narrow';
import { api, errorText } from '../../bridge/api';
import { navigate } from '../../store/ui-store';
import { markNarrowRead } from '../topics/topic-actions';
import { chatScreenRendered } from '../../lib/first-screen-handoff';
import { formatDate, formatDateTime } from '../../lib/format';
import { userName } from '../messages/narrow-info';
import { avatar } from '../messages/MessageRow';
import {
  filterRecent,
  lastActiveLabel,
  selectRecentConversations,
  type RecentConversation,
  type RecentFilters,
} from './recent-model';

const ROW_HEIGHT = 40;
/** Avatars shown in a row; more are summed up as "+N", as in the public web app. */
const MAX_AVATARS = 4;

/** The filters last chosen: coming back to the view keeps them, as in the public web app. */
let rememberedFilters: RecentFilters = {
  unread: false,
  participated: false,
  includeMuted: false,
  includeDms: true,
  text: '',
};

type Names = ReturnType<typeof useAccountNames>;

function channelName(names: Names, streamId: number): string {
  return names?.channels.channels.get(streamId)?.name ?? `channel ${streamId}`;
}

function peopleOf(names: Names, row: RecentConversation): string {
  return (row.dmUserIds ?? []).map((id) => userName(names, id)).join(', ');
}

/** What the text filter searches: the channel and topic, or the people. */
function titleOf(names: Names, row: RecentConversation): string {
  return row.streamId !== undefined
    ? `${channelName(names, row.streamId)} ${row.topic ?? ''}`
    : peopleOf(names, row);
}

/** Minutes pass: the "N minutes ago" labels are redrawn each minute. */
function useMinuteClock(): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), 60_000);
    return () => clearInterval(timer);
  }, []);
  return now;
}

export function Recent({ accountId }: { accountId: string }) {
  const store = useChatStoreApi();
  // Each of these changes only with what the view shows (see recent-model.ts).
  const generation = useChatStore((s) => selectActiveAccount(s)?.generation);
  const names = useAccountNames();
  const rows = useChatStore((s) => selectRecentConversations(selectActiveAccount(s)));
  const counts = useUnreadCounts();
  const now = useMinuteClock();
  // The latest page of all messages, so the view has something to list right after start-up.
  useQuery({
    queryKey: ['recent', accountId, generation],
    queryFn: async () => {
      const res = await api().getMessages({
        accountId,
        anchor: 'newest',
        numBefore: 200,
        numAfter: 0,
        narrow: [],
      });
      store.getState().mergeFetchedMessages(accountId, narrowKey([]), res.messages, {
        foundOldest: !!res.found_oldest,
        foundNewest: !!res.found_newest,
        anchor: 'newest',
      });
      return res.messages.length;
    },
    staleTime: 60_000,
    // The page goes into the store, which the list reads: the query's own state changes (fetching,
    // done) need no render here.
    notifyOnChangeProps: [],
  });

  const [filters, setFiltersState] = useState(rememberedFilters);
  const setFilters = (change: Partial<RecentFilters>) => {
    rememberedFilters = { ...filters, ...change };
    setFiltersState(rememberedFilters);
  };
  const unreadOf = useCallback(
    (row: RecentConversation) =>
      row.streamId !== undefined
        ? (counts.channels.get(row.streamId)?.topics.get(row.topic!)?.count ?? 0)
        : (counts.dms.get(row.dmUserIds!.join(',')) ?? 0),
    [counts],
  );
  const shown = useMemo(
    () => filterRecent(rows, filters, unreadOf, (row) => titleOf(names, row)),
    [rows, filters, unreadOf, names],
  );

  const [error, setError] = useState<string | null>(null);
  // Stable, so the memoized rows do not re-render for it.
  const markRead = useCallback(
    (narrow: Narrow) => {
      setError(null);
      markNarrowRead(accountId, narrow).catch((e: unknown) => setError(errorText(e)));
    },
    [accountId],
  );

  // Its first commit is its screen: the first screen over it goes once that is painted.
  useLayoutEffect(chatScreenRendered, []);

  return (
    <section className="view recent" aria-label="Recent conversations">
      <h1>Recent conversations</h1>
      <div className="recent-filters" role="toolbar" aria-label="Filter conversations">
        <input
          type="search"
          aria-label="Filter conversations by channel, topic or people"
          placeholder="Filter topics and people"
          value={filters.text}
          onChange={(e) => setFilters({ text: e.target.value })}
          onKeyDown={(e) => {
            if (e.key === 'Escape' && filters.text) {
              e.stopPropagation();
              setFilters({ text: '' });
            } else if (e.key === 'ArrowDown') {
              e.preventDefault();
              document.querySelector<HTMLElement>('.recent-row[data-index="0"]')?.focus();
            }
          }}
        />
        {(
          [
            ['unread', 'Unread'],
            ['participated', 'Participated'],
            ['includeMuted', 'Include muted'],
            ['includeDms', 'Include DMs'],
          ] as const
        ).map(([key, label]) => (
          <button
            key={key}
            type="button"
            className="filter-toggle"
            aria-pressed={filters[key]}
            onClick={() => setFilters({ [key]: !filters[key] })}
          >
            {filters[key] ? '✓ ' : ''}
            {label}
          </button>
        ))}
      </div>
      {error ? (
        <p role="alert" className="error">
          {error}
        </p>
      ) : null}
      <RecentTable
        rows={shown}
        onMarkRead={markRead}
        names={names}
        unreadOf={unreadOf}
        now={now}
        empty={rows.length === 0 ? 'No conversations yet.' : 'No conversations match your filters.'}
      />
      <LoadOlder accountId={accountId} />
    </section>
  );
}

function typingInField(target: EventTarget | null): boolean {
  const el = target as HTMLElement | null;
  return !!el && (el.isContentEditable || ['INPUT', 'TEXTAREA', 'SELECT'].includes(el.tagName));
}

/** Older messages asked for at once: each page brings older conversations into the table. */
const OLDER_PAGE = 1000;

/**
 * "Load older conversations": the table lists what the store holds (the latest page at first);
 * as in the public web app, older conversations come with older pages of all messages.
 */
function LoadOlder({ accountId }: { accountId: string }) {
  const store = useChatStoreApi();
  const key = narrowKey([]);
  // Where the next older page starts, or nothing once the oldest message is here: one number, so a
  // new message (or anything once all is loaded) re-renders nothing.
  const oldest = useChatStore((s) => {
    const list = selectActiveAccount(s)?.narrows.lists.get(key);
    return list && !list.foundOldest ? list.ids.first : undefined;
  });
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  if (oldest === undefined) return null;
  const load = async () => {
    setBusy(true);
    setError(null);
    try {
      const res = await api().getMessages({
        accountId,
        anchor: oldest,
        numBefore: OLDER_PAGE,
        numAfter: 0,
        narrow: [],
        includeAnchor: false,
      });
      store.getState().mergeFetchedMessages(accountId, key, res.messages, {
        foundOldest: !!res.found_oldest,
        foundNewest: false,
        anchor: oldest,
      });
    } catch (e) {
      setError(errorText(e));
    } finally {
      setBusy(false);
    }
  };
  return (
    <div className="recent-load-older">
      <button type="button" disabled={busy} onClick={() => void load()}>
        {busy ? 'Loading…' : 'Load older conversations'}
      </button>
      {error ? (
        <span role="alert" className="error">
          {error}
        </span>
      ) : null}
    </div>
  );
}

/** Keys that move the row focus, and where to. */
function nextIndex(key: string, at: number, count: number): number | null {
  switch (key) {
    case 'ArrowDown':
    case 'j':
      return Math.min(count - 1, at + 1);
    case 'ArrowUp':
    case 'k':
      return Math.max(0, at - 1);
    case 'Home':
      return 0;
    case 'End':
      return count - 1;
    case 'PageDown':
      return Math.min(count - 1, at + 10);
    case 'PageUp':
      return Math.max(0, at - 10);
    default:
      return null;
  }
}

function RecentTable({
  rows,
  names,
  unreadOf,
  now,
  empty,
  onMarkRead,
}: {
  rows: RecentConversation[];
  onMarkRead: (narrow: Narrow) => void;
  names: Names;
  unreadOf: (row: RecentConversation) => number;
  now: number;
  empty: string;
}) {
  const scrollRef = useRef<HTMLDivElement>(null);
  // The row that takes the keyboard (the one with tabIndex 0), by narrow key so it stays on its
  // conversation when rows above it come and go.
  const [focusKey, setFocusKey] = useState<string | null>(null);
  const focusAt = Math.max(
    0,
    rows.findIndex((r) => r.narrowKey === focusKey),
  );
  /** Set when the keyboard moved: the row is focused once it is rendered. */
  const pendingFocus = useRef<number | null>(null);
  const virtualizer = useVirtualizer({
    count: rows.length,
    getScrollElement: () => scrollRef.current,
    estimateSize: () => ROW_HEIGHT,
    getItemKey: (index) => rows[index]!.narrowKey,
    overscan: 8,
    initialRect: { width: 1000, height: 800 },
  });

  useEffect(() => {
    if (pendingFocus.current === null) return;
    const row = scrollRef.current?.querySelector<HTMLElement>(
      `[data-index="${pendingFocus.current}"]`,
    );
    if (!row) return;
    pendingFocus.current = null;
    row.focus({ preventScroll: true });
  });

  const moveTo = (index: number) => {
    setFocusKey(rows[index]!.narrowKey);
    pendingFocus.current = index;
    virtualizer.scrollToIndex(index, { align: 'auto' });
  };
  /** The table's keys, from its rows or (while nothing else has the keyboard) from the page. */
  const onKey = (e: KeyboardEvent | ReactKeyboardEvent) => {
    if (e.ctrlKey || e.metaKey || e.altKey || e.defaultPrevented || rows.length === 0) return;
    const inRows = !!scrollRef.current?.contains(e.target as Node);
    if (e.key === 'Enter') {
      // From the page only when nothing is focused: Enter on a button is that button's.
      if (!inRows && e.target !== document.body) return;
      e.preventDefault();
      e.stopPropagation();
      navigate({ kind: 'narrow', narrow: rows[focusAt]!.narrow });
      return;
    }
    const next = nextIndex(e.key, focusAt, rows.length);
    if (next === null) return;
    e.preventDefault();
    e.stopPropagation();
    // The first key from outside the table only puts the keyboard on its row.
    moveTo(inRows ? next : focusAt);
  };
  const onKeyRef = useRef(onKey);
  useLayoutEffect(() => {
    onKeyRef.current = onKey;
  });
  // As in the public web app, the keys work as soon as the view is open, without a click first.
  useEffect(() => {
    const listener = (e: KeyboardEvent) => {
      if (typingInField(e.target) || document.querySelector('[aria-modal="true"]')) return;
      if ((e.target as Element | null)?.closest?.('[role="menu"]')) return;
      onKeyRef.current(e);
    };
    window.addEventListener('keydown', listener);
    return () => window.removeEventListener('keydown', listener);
  }, []);

  return (
    <div
      className="recent-table"
      role="grid"
      aria-label="Recent conversations"
      aria-rowcount={rows.length + 1}
    >
      <div className="recent-row recent-head" role="row" aria-rowindex={1}>
        <span role="columnheader" className="recent-channel">
          Channel
        </span>
        <span role="columnheader" className="recent-topic">
          Topic
        </span>
        <span role="columnheader" className="recent-participants">
          Participants
        </span>
        <span role="columnheader" className="recent-time">
          Time
        </span>
      </div>
      <div className="recent-rows" ref={scrollRef} role="rowgroup" onKeyDown={(e) => onKey(e)}>
        {rows.length === 0 ? <p className="recent-empty">{empty}</p> : null}
        <div style={{ height: virtualizer.getTotalSize(), position: 'relative' }}>
          {virtualizer.getVirtualItems().map((item) => {
            const row = rows[item.index]!;
            return (
              <RecentRow
                key={item.key}
                index={item.index}
                top={item.start}
                row={row}
                names={names}
                unread={unreadOf(row)}
                label={lastActiveLabel(row.lastTimestamp, now, formatDate)}
                focusable={item.index === focusAt}
                onFocusRow={setFocusKey}
                onMarkRead={onMarkRead}
              />
            );
          })}
        </div>
      </div>
    </div>
  );
}

const RecentRow = memo(function RecentRow({
  index,
  top,
  row,
  names,
  unread,
  label,
  focusable,
  onFocusRow,
  onMarkRead,
}: {
  index: number;
  top: number;
  row: RecentConversation;
  names: Names;
  unread: number;
  label: string;
  focusable: boolean;
  onFocusRow: (key: string) => void;
  onMarkRead: (narrow: Narrow) => void;
}) {
  const open = () => navigate({ kind: 'narrow', narrow: row.narrow });
  const streamId = row.streamId;
  const color = useChatStore((s) =>
    streamId === undefined
      ? undefined
      : selectActiveAccount(s)?.channels.subscriptions.get(streamId)?.color,
  );
  return (
    <div
      className={`recent-row${row.muted ? ' muted' : ''}${unread > 0 ? ' unread' : ''}`}
      role="row"
      aria-rowindex={index + 2}
      data-index={index}
      tabIndex={focusable ? 0 : -1}
      style={{ transform: `translateY(${top}px)` }}
      onFocus={(e) => e.target === e.currentTarget && onFocusRow(row.narrowKey)}
      onClick={open}
    >
      <span role="gridcell" className="recent-channel">
        {streamId !== undefined ? (
          <>
            <span className="swatch" style={{ background: color ?? '#888' }} aria-hidden="true" />
            <button
              type="button"
              className="link"
              tabIndex={-1}
              onClick={(e) => {
                e.stopPropagation();
                navigate({ kind: 'narrow', narrow: channelNarrow(streamId) });
              }}
            >
              #{channelName(names, streamId)}
            </button>
          </>
        ) : (
          <span className="recent-dm-label" title="Direct messages">
            <MessagesSquare size={15} aria-hidden="true" />
            <span className="recent-dm-text">Direct messages</span>
          </span>
        )}
      </span>
      <span role="gridcell" className="recent-topic">
        <span className="name">
          {streamId !== undefined ? row.topic || '(no topic)' : peopleOf(names, row)}
        </span>
        {row.muted ? (
          <span className="icon" role="img" aria-label="Muted">
            {/* An icon, not the 🔇 character: that needs an emoji font the system may lack. */}
            <VolumeX size={14} aria-hidden="true" />
          </span>
        ) : null}
        {unread > 0 ? (
          <button
            type="button"
            className="count"
            tabIndex={-1}
            title="Mark as read"
            aria-label={`Mark as read (${unread} unread)`}
            onClick={(e) => {
              e.stopPropagation();
              onMarkRead(row.narrow);
            }}
          >
            {unread}
          </button>
        ) : null}
      </span>
      <span role="gridcell" className="recent-participants">
        <Participants senders={row.senders} names={names} />
      </span>
      <span role="gridcell" className="recent-time">
        <time
          dateTime={new Date(row.lastTimestamp * 1000).toISOString()}
          title={formatDateTime(row.lastTimestamp)}
        >
          {label}
        </time>
      </span>
    </div>
  );
});

function Participants({ senders, names }: { senders: number[]; names: Names }) {
  const shown = senders.slice(0, MAX_AVATARS);
  const more = senders.length - shown.length;
  return (
    <span className="recent-avatars">
      {shown.map((id) => (
        <ParticipantAvatar key={id} userId={id} name={userName(names, id)} />
      ))}
      {more > 0 ? (
        <span className="recent-more" title={`${more} more`}>
          +{more}
        </span>
      ) : null}
    </span>
  );
}

function ParticipantAvatar({ userId, name }: { userId: number; name: string }) {
  const user = useUser(userId);
  const accountId = useChatStore((s) => s.activeAccountId ?? '');
  return (
    <span className="recent-avatar" title={name} role="img" aria-label={name}>
      {avatar(accountId, user, name, 'avatar')}
    </span>
  );
}
