// Recent conversations, as the public web app's table: one row per topic or direct-message
// conversation, newest first, with its channel and topic (or the people of the conversation), the
// avatars of who took part, when it was last active and its unread count; as there:
// - filters for unread, participated and direct-message conversations, a menu for which topics
//   (followed, unmuted, all) and a text filter, kept per account across launches;
// - the Channel, Topic, unread and Time headers sort the table (again: the other way round);
// - a row's unread count (after an @ where an unread message mentions the user) is a button that
//   marks the conversation read, and its bell is a menu that mutes, unmutes or follows the topic
//   (a mute says so, with an undo); the server's refusal is shown above the table;
// - the keyboard moves between rows (arrows, j/k, Home/End, Page Up/Down) and, with ←/→, between
//   a row's channel, topic, unread count and bell; Enter opens the row (or presses the control).
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
  type ReactNode,
} from 'react';
import { useQuery } from '@tanstack/react-query';
import { useVirtualizer } from '@tanstack/react-virtual';
import {
  ArrowDown,
  ArrowUp,
  Bell,
  BellOff,
  BellRing,
  Check,
  ChevronDown,
  MailOpen,
  MessagesSquare,
  Volume2,
  type LucideIcon,
} from 'lucide-react';
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
import { markNarrowRead, setPolicyWithFeedback } from '../topics/topic-actions';
import { Menu, MenuItem } from '../../lib/ui/Menu';
import { chatScreenRendered } from '../../lib/first-screen-handoff';
import { formatDate, formatDateTime } from '../../lib/format';
import { userName } from '../messages/narrow-info';
import { avatar } from '../messages/MessageRow';
import { MentionMark } from './Inbox';
import { openUserPopover } from '../people/UserPopover';
import {
  DEFAULT_SORT,
  filterRecent,
  lastActiveLabel,
  nextSort,
  readFilters,
  selectRecentConversations,
  sortRecent,
  writeFilters,
  type RecentConversation,
  type RecentFilters,
  type RecentSort,
  type SortColumn,
  type TopicsShown,
} from './recent-model';
import type { VisibilityPolicy } from '../../../shared/api/types';

const ROW_HEIGHT = 40;
/** Avatars shown in a row; more are summed up as "+N", as in the public web app. */
const MAX_AVATARS = 4;

/**
 * The filters and sort last chosen per account while the app runs: coming back to the view keeps
 * them, as in the public web app (the filters, not the text, are also kept across launches).
 */
const rememberedFilters = new Map<string, RecentFilters>();
const rememberedSorts = new Map<string, RecentSort>();

/** The public web app's topic filter menu. */
const TOPIC_CHOICES: ReadonlyArray<readonly [TopicsShown, string, string]> = [
  ['followed', 'Followed topics', 'Only topics you follow'],
  ['standard', 'Standard view', 'All unmuted topics'],
  ['all', 'All topics', 'Includes muted channels and topics'],
];

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

  const [filters, setFiltersState] = useState(
    () => rememberedFilters.get(accountId) ?? readFilters(accountId),
  );
  const setFilters = (change: Partial<RecentFilters>) => {
    const next = { ...filters, ...change };
    rememberedFilters.set(accountId, next);
    setFiltersState(next);
    if (!('text' in change)) writeFilters(accountId, next);
  };
  const [sort, setSortState] = useState(() => rememberedSorts.get(accountId) ?? DEFAULT_SORT);
  const sortBy = (column: SortColumn) => {
    const next = nextSort(sort, column);
    rememberedSorts.set(accountId, next);
    setSortState(next);
  };
  const unreadOf = useCallback(
    (row: RecentConversation) =>
      row.streamId !== undefined
        ? (counts.channels.get(row.streamId)?.topics.get(row.topic!)?.count ?? 0)
        : (counts.dms.get(row.dmUserIds!.join(',')) ?? 0),
    [counts],
  );
  const mentionedOf = useCallback(
    (row: RecentConversation) =>
      row.streamId !== undefined
        ? !!counts.channels.get(row.streamId)?.topics.get(row.topic!)?.mentioned
        : counts.dmsMentioned.has(row.dmUserIds!.join(',')),
    [counts],
  );
  const shown = useMemo(() => {
    const title = (row: RecentConversation) => titleOf(names, row);
    const filtered = filterRecent(rows, filters, unreadOf, title);
    return sortRecent(filtered, sort, {
      unread: unreadOf,
      title: (row) => peopleOf(names, row),
      channel: (row) => channelName(names, row.streamId!),
    });
  }, [rows, filters, sort, unreadOf, names]);

  const [error, setError] = useState<string | null>(null);
  // Stable, so the memoized rows do not re-render for it.
  const markRead = useCallback(
    (narrow: Narrow) => {
      setError(null);
      markNarrowRead(accountId, narrow).catch((e: unknown) => setError(errorText(e)));
    },
    [accountId],
  );
  const setPolicy = useCallback(
    (row: RecentConversation, next: VisibilityPolicy) => {
      setError(null);
      const ref = {
        accountId,
        streamId: row.streamId!,
        topic: row.topic!,
        channelName: channelName(names, row.streamId!),
      };
      setPolicyWithFeedback(ref, next, row.policy).catch((e: unknown) => setError(errorText(e)));
    },
    [accountId, names],
  );

  // Its first commit is its screen: the first screen over it goes once that is painted.
  useLayoutEffect(chatScreenRendered, []);

  return (
    <section className="view recent" aria-label="Recent conversations">
      <h1>Recent conversations</h1>
      <div className="recent-filters" role="toolbar" aria-label="Filter conversations">
        <TopicsMenu shown={filters.topics} onChoose={(topics) => setFilters({ topics })} />
        {(
          [
            ['includeDms', 'Include DMs'],
            ['unread', 'Unread'],
            ['participated', 'Participated'],
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
      </div>
      {error ? (
        <p role="alert" className="error">
          {error}
        </p>
      ) : null}
      <RecentTable
        rows={shown}
        sort={sort}
        onSort={sortBy}
        onMarkRead={markRead}
        onSetPolicy={setPolicy}
        names={names}
        unreadOf={unreadOf}
        mentionedOf={mentionedOf}
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

/**
 * The controls of a row the keyboard moves between with ←/→, in the public web app's order: the
 * channel, the topic (the row itself), the unread count (while there is one) and the topic's bell
 * (channel topics only).
 */
const CELL_CHANNEL = 0;
const CELL_TOPIC = 1;
const CELL_UNREAD = 2;
const CELL_BELL = 3;
const CELL_SELECTORS: Record<number, string> = {
  [CELL_CHANNEL]: '.recent-channel button',
  [CELL_UNREAD]: 'button.count',
  [CELL_BELL]: 'button.recent-bell',
};

function cellsOf(row: RecentConversation, unread: number): number[] {
  const cells = [CELL_CHANNEL, CELL_TOPIC];
  if (unread > 0) cells.push(CELL_UNREAD);
  if (row.streamId !== undefined) cells.push(CELL_BELL);
  return cells;
}

/** The cell a row offers for `wanted`: itself, or the nearest one before it (as the web app). */
function cellFor(cells: number[], wanted: number): number {
  return [...cells].reverse().find((c) => c <= wanted) ?? CELL_TOPIC;
}

/** Which cell of a row an element inside it is. */
function cellOf(target: Element, rowElement: Element): number {
  if (target === rowElement) return CELL_TOPIC;
  for (const [cell, selector] of Object.entries(CELL_SELECTORS))
    if (target.matches(selector)) return Number(cell);
  return CELL_TOPIC;
}

function SortHeader({
  column,
  sort,
  onSort,
  className,
  title,
  children,
}: {
  column: SortColumn;
  sort: RecentSort;
  onSort: (column: SortColumn) => void;
  className: string;
  title?: string;
  children: ReactNode;
}) {
  const active = sort.column === column;
  const Arrow = sort.descending ? ArrowDown : ArrowUp;
  return (
    <span
      role="columnheader"
      className={className}
      aria-sort={active ? (sort.descending ? 'descending' : 'ascending') : undefined}
    >
      <button
        type="button"
        className={`recent-sort${active ? ' active' : ''}`}
        title={title}
        onClick={() => onSort(column)}
      >
        {children}
        {active ? <Arrow size={13} aria-hidden="true" /> : null}
      </button>
    </span>
  );
}

function RecentTable({
  rows,
  names,
  unreadOf,
  mentionedOf,
  now,
  empty,
  sort,
  onSort,
  onMarkRead,
  onSetPolicy,
}: {
  rows: RecentConversation[];
  sort: RecentSort;
  onSort: (column: SortColumn) => void;
  onMarkRead: (narrow: Narrow) => void;
  onSetPolicy: (row: RecentConversation, policy: VisibilityPolicy) => void;
  names: Names;
  unreadOf: (row: RecentConversation) => number;
  mentionedOf: (row: RecentConversation) => boolean;
  now: number;
  empty: string;
}) {
  const scrollRef = useRef<HTMLDivElement>(null);
  // The row that takes the keyboard (the one with tabIndex 0), by narrow key so it stays on its
  // conversation when rows above it come and go; and the cell of it the arrows are on.
  const [focusKey, setFocusKey] = useState<string | null>(null);
  const focusCell = useRef(CELL_TOPIC);
  const focusAt = Math.max(
    0,
    rows.findIndex((r) => r.narrowKey === focusKey),
  );
  /** Set when the keyboard moved: the row (or its cell) is focused once it is rendered. */
  const pendingFocus = useRef<number | null>(null);
  const virtualizer = useVirtualizer({
    count: rows.length,
    getScrollElement: () => scrollRef.current,
    estimateSize: () => ROW_HEIGHT,
    getItemKey: (index) => rows[index]!.narrowKey,
    overscan: 8,
    initialRect: { width: 1000, height: 800 },
  });

  const applyFocus = () => {
    if (pendingFocus.current === null) return;
    const row = scrollRef.current?.querySelector<HTMLElement>(
      `[data-index="${pendingFocus.current}"]`,
    );
    if (!row) return;
    pendingFocus.current = null;
    const selector = CELL_SELECTORS[focusCell.current];
    const target = (selector && row.querySelector<HTMLElement>(selector)) || row;
    target.focus({ preventScroll: true });
  };
  useEffect(applyFocus);

  const moveTo = (index: number, cell: number) => {
    const row = rows[index]!;
    focusCell.current = cellFor(cellsOf(row, unreadOf(row)), cell);
    setFocusKey(row.narrowKey);
    pendingFocus.current = index;
    virtualizer.scrollToIndex(index, { align: 'auto' });
    // A row in view takes it now (another cell of the same row renders nothing new); one scrolled
    // to takes it once rendered.
    applyFocus();
  };
  /** The table's keys, from its rows or (while nothing else has the keyboard) from the page. */
  const onKey = (e: KeyboardEvent | ReactKeyboardEvent) => {
    if (e.ctrlKey || e.metaKey || e.altKey || e.defaultPrevented || rows.length === 0) return;
    const target = e.target as HTMLElement;
    const inRows = !!scrollRef.current?.contains(target);
    if (e.key === 'Enter') {
      // From the page only when nothing is focused: Enter on a button is that button's.
      if (!inRows && target !== document.body) return;
      if (inRows && target.closest('button')) return;
      e.preventDefault();
      e.stopPropagation();
      navigate({ kind: 'narrow', narrow: rows[focusAt]!.narrow });
      return;
    }
    if (e.key === 'ArrowLeft' || e.key === 'ArrowRight') {
      if (!inRows || e.shiftKey) return;
      e.preventDefault();
      e.stopPropagation();
      // Around the row's cells, from the last to the first and back, as in the public web app.
      const row = rows[focusAt]!;
      const cells = cellsOf(row, unreadOf(row));
      const at = cells.indexOf(cellFor(cells, focusCell.current));
      const step = e.key === 'ArrowRight' ? 1 : -1;
      moveTo(focusAt, cells[(at + step + cells.length) % cells.length]!);
      return;
    }
    const next = nextIndex(e.key, focusAt, rows.length);
    if (next === null) return;
    e.preventDefault();
    e.stopPropagation();
    // The first key from outside the table only puts the keyboard on its row.
    moveTo(inRows ? next : focusAt, focusCell.current);
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
  // As in the public web app, after "Mark as read" on a row the keyboard goes down to the next
  // row's unread count (or what that row has nearest it): the count pressed is about to go, and
  // with the Unread filter its row too, which would leave the focus nowhere.
  const afterMarkRead = useRef((_index: number) => {});
  useLayoutEffect(() => {
    afterMarkRead.current = (index) => moveTo(Math.min(index + 1, rows.length - 1), CELL_UNREAD);
  });
  const onRowMarkRead = useCallback(
    (narrow: Narrow, index: number) => {
      onMarkRead(narrow);
      afterMarkRead.current(index);
    },
    [onMarkRead],
  );
  // Stable, so the memoized rows do not re-render for it.
  const onFocusCell = useCallback((key: string, cell: number) => {
    focusCell.current = cell;
    setFocusKey(key);
  }, []);

  return (
    <div
      className="recent-table"
      role="grid"
      aria-label="Recent conversations"
      aria-rowcount={rows.length + 1}
    >
      <div className="recent-row recent-head" role="row" aria-rowindex={1}>
        <SortHeader column="channel" sort={sort} onSort={onSort} className="recent-channel">
          Channel
        </SortHeader>
        <SortHeader column="topic" sort={sort} onSort={onSort} className="recent-topic">
          Topic
        </SortHeader>
        <SortHeader
          column="unread"
          sort={sort}
          onSort={onSort}
          className="recent-unread"
          title="Sort by unread message count"
        >
          <MailOpen size={15} aria-hidden="true" />
          <span className="visually-hidden">Unread count</span>
        </SortHeader>
        <span role="columnheader" className="recent-participants">
          Participants
        </span>
        <SortHeader column="time" sort={sort} onSort={onSort} className="recent-time">
          Time
        </SortHeader>
      </div>
      <div
        className="recent-rows"
        ref={scrollRef}
        role="rowgroup"
        // Before the cell's control: the bell's menu button would take ↑/↓ to open its menu. Not
        // for the open menu's keys, which React brings here from its portal.
        onKeyDownCapture={(e) => scrollRef.current?.contains(e.target as Node) && onKey(e)}
      >
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
                mentioned={mentionedOf(row)}
                label={lastActiveLabel(row.lastTimestamp, now, formatDate)}
                focusable={item.index === focusAt}
                onFocusCell={onFocusCell}
                onMarkRead={onRowMarkRead}
                onSetPolicy={onSetPolicy}
              />
            );
          })}
        </div>
      </div>
    </div>
  );
}

/** What a topic's bell says and shows, in the public web app's words. */
const POLICY_FACES: Record<VisibilityPolicy, readonly [LucideIcon, string]> = {
  0: [Bell, 'You will get default notifications for this topic'],
  1: [BellOff, 'You have muted this topic'],
  2: [Volume2, 'You have unmuted this topic'],
  3: [BellRing, 'You follow this topic'],
};

/**
 * A row's bell: the topic's visibility policy, and a menu to change it, as the public web app's
 * row has. Unmute is offered in a muted channel (or while the topic is unmuted), Mute otherwise.
 */
function TopicBell({
  row,
  onSetPolicy,
}: {
  row: RecentConversation;
  onSetPolicy: (row: RecentConversation, policy: VisibilityPolicy) => void;
}) {
  const [Icon, label] = POLICY_FACES[row.policy];
  const choices: Array<readonly [VisibilityPolicy, string]> = [
    row.channelMuted || row.policy === 2 ? ([2, 'Unmute'] as const) : ([1, 'Mute'] as const),
    [0, 'Default'],
    [3, 'Follow'],
  ];
  if (row.channelMuted || row.policy === 2) choices.push(choices.shift()!);
  return (
    // The menu is portalled, but React bubbles its clicks here: they are not the row's.
    <span className="recent-bell-wrap" onClick={(e) => e.stopPropagation()}>
      <Menu
        label={label}
        buttonClassName={`recent-bell policy-${row.policy}`}
        buttonProps={{ tabIndex: -1, title: label }}
        button={<Icon size={15} aria-hidden="true" />}
      >
        {choices.map(([policy, name]) => (
          <MenuItem
            key={policy}
            icon={policy === row.policy ? Check : undefined}
            onSelect={() => policy !== row.policy && onSetPolicy(row, policy)}
          >
            {name}
          </MenuItem>
        ))}
      </Menu>
    </span>
  );
}

const RecentRow = memo(function RecentRow({
  index,
  top,
  row,
  names,
  unread,
  mentioned,
  label,
  focusable,
  onFocusCell,
  onMarkRead,
  onSetPolicy,
}: {
  index: number;
  top: number;
  row: RecentConversation;
  names: Names;
  unread: number;
  /** An unread message mentions the user: "@" before the count, as in the public web app. */
  mentioned: boolean;
  label: string;
  focusable: boolean;
  onFocusCell: (key: string, cell: number) => void;
  onMarkRead: (narrow: Narrow, index: number) => void;
  onSetPolicy: (row: RecentConversation, policy: VisibilityPolicy) => void;
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
      onFocus={(e) => onFocusCell(row.narrowKey, cellOf(e.target, e.currentTarget))}
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
      </span>
      <span role="gridcell" className="recent-unread">
        {mentioned && unread > 0 ? <MentionMark /> : null}
        {unread > 0 ? (
          <button
            type="button"
            className="count"
            tabIndex={-1}
            title="Mark as read"
            aria-label={`Mark as read (${unread} unread)`}
            onClick={(e) => {
              e.stopPropagation();
              onMarkRead(row.narrow, index);
            }}
          >
            {unread}
          </button>
        ) : null}
        {streamId !== undefined ? (
          <TopicBell row={row} onSetPolicy={onSetPolicy} />
        ) : (
          // Where a topic's bell is, so the counts of all rows line up (as in the web app).
          <span className="recent-bell-space" aria-hidden="true" />
        )}
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

/** The public web app's filter menu: followed topics, the standard view or all topics. */
function TopicsMenu({
  shown,
  onChoose,
}: {
  shown: TopicsShown;
  onChoose: (shown: TopicsShown) => void;
}) {
  const name = TOPIC_CHOICES.find(([value]) => value === shown)![1];
  return (
    <Menu
      label={`Topics shown: ${name}`}
      buttonClassName="filter-toggle recent-topics-menu"
      align="start"
      button={
        <>
          {name}
          <ChevronDown size={14} aria-hidden="true" />
        </>
      }
    >
      {TOPIC_CHOICES.map(([value, choice, description]) => (
        <MenuItem
          key={value}
          icon={value === shown ? Check : undefined}
          onSelect={() => onChoose(value)}
        >
          <span className="menu-choice">
            <span>{choice}</span>
            <span className="menu-choice-note">{description}</span>
          </span>
        </MenuItem>
      ))}
    </Menu>
  );
}

/** Names listed on "+N", as the web app's tooltip lists them (ten, then how many others). */
const MAX_MORE_NAMES = 10;

function moreTitle(others: number[], names: Names): string {
  const listed = others.slice(0, MAX_MORE_NAMES).map((id) => userName(names, id));
  const rest = others.length - listed.length;
  if (rest > 0) listed.push(rest === 1 ? 'and 1 other' : `and ${rest} others`);
  return listed.join('\n');
}

function Participants({ senders, names }: { senders: number[]; names: Names }) {
  const shown = senders.slice(0, MAX_AVATARS);
  const more = senders.length - shown.length;
  return (
    <span className="recent-avatars">
      {shown.map((id) => (
        <ParticipantAvatar key={id} userId={id} name={userName(names, id)} />
      ))}
      {more > 0 ? (
        <span className="recent-more" title={moreTitle(senders.slice(MAX_AVATARS), names)}>
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
    // As in the public web app, an avatar opens the person's card (not the row's conversation).
    <button
      type="button"
      className="recent-avatar"
      title={name}
      aria-label={name}
      tabIndex={-1}
      onClick={(e) => {
        e.stopPropagation();
        openUserPopover(userId, e.currentTarget);
      }}
    >
      {avatar(accountId, user, name, 'avatar')}
    </button>
  );
}
