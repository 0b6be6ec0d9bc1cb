// The message list of one narrow: virtualized (only the rows near the viewport are in the DOM),
// loading older and newer pages as the user scrolls, marking messages read as they are seen
// (web_mark_read_on_scroll_policy), with a jump to the first unread and local echoes at the end.
import { useCallback, useEffect, useLayoutEffect, useMemo, useRef, useState } from 'react';
import {
  useChatActions,
  useChatStore,
  useChatStoreApi,
  useMessage,
  useNarrowIds,
  useOutbox,
} from '../../store/hooks';
import type { AccountState, IdList, OutboxEntry } from '../../store';
import { narrowCanMarkRead, narrowFromKey } from '../../../shared/narrow';
import { useUi, uiStore } from '../../store/ui-store';
import { api } from '../../bridge/api';
import { DateSeparator, MessageRow } from './MessageRow';
import { EchoRecipientHeader, RecipientHeader } from './RecipientHeader';
import { localDay } from '../../lib/format';
import { refusalReason, useMessagePages } from './useMessagePages';
import { rememberReadingPosition } from './reading-position';
import { describeNarrow, echoContinues, sameConversation } from './narrow-info';
import { chatScreenRendered } from '../../lib/first-screen-handoff';
import { NEVER_KEPT, OfflineListNote, neverKept } from '../offline/CoverageNote';
import { expectedListRect, expectedRowPx, rememberListLayout } from './list-layout';
import { MarkReadControlContext, READING_KEYS, type MarkReadControl } from './mark-read-control';
import { registerSelectionCursor, type SelectionMove } from './selection-cursor';
import {
  useListVirtualizer,
  useViewportValue,
  type ListVirtualizer,
  type ListVirtualizerInstance,
} from './use-list-virtualizer';

/** Start loading the next page this many rows before the edge. */
const PREFETCH_ROWS = 10;
const MARK_READ_DELAY_MS = 400;
/** Rows rendered beyond each edge of the viewport once the list is on screen. The first frame has
 * none: rows out of view would only delay it. */
const OVERSCAN_ROWS = 6;

/** The keys the focused list moves its selection with (`j`/`k` come through the cursor). */
const LIST_KEYS: Partial<Record<string, SelectionMove>> = {
  ArrowDown: 'next',
  ArrowUp: 'previous',
  Home: 'first',
  End: 'last',
};

export interface MessageListProps {
  accountId: string;
  narrowKey: string;
  anchor?: number;
  /** Skip fetching (benchmarks and tests that fill the store themselves). */
  offline?: boolean;
}

function PendingRow({
  entry,
  before,
  accountId,
  index,
  measureRef,
}: {
  entry: OutboxEntry;
  /** The row above: the list's last message (its id), or the echo before this one. */
  before: number | OutboxEntry | undefined;
  accountId: string;
  index: number;
  measureRef: (element: Element | null) => void;
}) {
  const failed = entry.status === 'failed';
  const hostLost = useUi((s) => s.host === 'lost');
  const offline = useUi((s) => s.connections[accountId]?.status !== 'live');
  const actions = useChatActions();
  const self = useChatStore((s) => s.accounts[accountId]?.selfUserId ?? 0);
  const lastMessage = useMessage(typeof before === 'number' ? before : -1);
  const previous = typeof before === 'number' ? lastMessage : before?.destination;
  const header = !previous || !echoContinues(entry.destination, previous, self);
  const createdAt = Math.floor(entry.createdAt / 1000);
  const newDay =
    !header && !!lastMessage && localDay(lastMessage.timestamp) !== localDay(createdAt);
  const discard = () =>
    void api()
      .discardOutboxEntry({ accountId, localId: entry.localId })
      .catch(() => undefined)
      // Also here: a send main refused before queueing it (an invalid message) is not in main's
      // outbox, so no push of main's would ever take its echo away.
      .finally(() => actions.removeLocalEcho(accountId, entry.localId));
  return (
    <div
      ref={measureRef}
      data-index={index}
      className={`message-row outbox ${entry.status}`}
      data-testid="outbox-message"
      data-local-id={entry.localId}
      role="listitem"
    >
      {header ? (
        <EchoRecipientHeader destination={entry.destination} createdAt={entry.createdAt} />
      ) : null}
      {newDay ? <DateSeparator timestamp={createdAt} /> : null}
      <div className="message">
        <div className="gutter" />
        <div className="body">
          <div className="content pending-content">{entry.content}</div>
          <div className="outbox-status" role="status">
            {failed
              ? `Not sent: ${entry.error ?? 'error'}`
              : hostLost
                ? 'Waiting for Tributary to come back… (kept in this window)'
                : offline
                  ? 'Queued: sent when the connection returns'
                  : 'Sending…'}
            {failed ? (
              <>
                <button type="button" onClick={() => void api().retryOutbox({ accountId })}>
                  Retry
                </button>
                <button type="button" onClick={discard}>
                  Discard
                </button>
              </>
            ) : null}
          </div>
        </div>
      </div>
    </div>
  );
}

/**
 * Index of the oldest unread message of the list, from the unreads index (usually far smaller than
 * the list, and not scanned again while the user only scrolls).
 */
function firstUnreadIn(ids: IdList, unread: ReadonlyMap<number, unknown>): number {
  let min = Infinity;
  for (const id of unread.keys()) if (id < min && ids.has(id)) min = id;
  return min === Infinity ? -1 : ids.search(min);
}

/** firstUnreadIn, remembered per unreads state and list, for the store subscription below. */
const firstUnreadMemo = new WeakMap<AccountState['unreads'], { ids: IdList; index: number }>();
function selectFirstUnreadIndex(
  unreads: AccountState['unreads'] | undefined,
  ids: IdList | undefined,
): number {
  if (!unreads || !ids) return -1;
  const hit = firstUnreadMemo.get(unreads);
  if (hit?.ids === ids) return hit.index;
  const index = firstUnreadIn(ids, unreads.locations);
  firstUnreadMemo.set(unreads, { ids, index });
  return index;
}

/** Indices of the first and last rows inside the viewport, from the virtualizer's own record of the
 * scroll position and viewport size (updated by its scroll listener and ResizeObserver). Reading
 * scrollTop/clientHeight here would force a layout after every commit while scrolling. */
function visibleRange(v: ListVirtualizerInstance): [number, number] | null {
  const top = v.scrollOffset ?? 0;
  const height = v.scrollRect?.height ?? 0;
  const first = v.getVirtualItemForOffset(top);
  const last = v.getVirtualItemForOffset(top + Math.max(height - 1, 0));
  if (!first || !last) return null;
  return [first.index, last.index];
}

/** The top margin of a row's recipient bar (app.css, .recipient-header). */
const RECIPIENT_BAR_MARGIN_PX = 8;

/**
 * The conversation of the row at the top edge, kept visible above the list while that row's own
 * recipient header is scrolled away (while it is in view, the row's own bar is the one drawn).
 * Follows the scroll by itself: the list does not re-render.
 */
function StickyHeader({
  list,
  ids,
  accountId,
}: {
  list: ListVirtualizer;
  ids: IdList | undefined;
  accountId: string;
}) {
  const store = useChatStoreApi();
  // The bar's height, measured on itself (one element, not the rows): the row's own bar is that
  // tall, below its margin.
  const barHeight = useRef(0);
  const observer = useRef<ResizeObserver | null>(null);
  const attach = useCallback((element: HTMLDivElement | null) => {
    observer.current?.disconnect();
    observer.current = null;
    if (!element || typeof ResizeObserver === 'undefined') return;
    observer.current = new ResizeObserver(([entry]) => {
      const height = entry?.borderBoxSize?.[0]?.blockSize ?? 0;
      // Empty at the very top of the list: the last bar's height still holds.
      if (height > 0) barHeight.current = height;
    });
    observer.current.observe(element);
  }, []);
  const topId = useViewportValue(list, (v) => {
    const offset = v.scrollOffset ?? 0;
    const top = v.getVirtualItemForOffset(offset);
    return top && offset > 0 ? ids?.at(top.index) : undefined;
  });
  // The row at the top draws its own bar there while all of it is in view (once its top is cut
  // off, the sticky bar covers it, as the web app's does); the row coming up under the sticky bar
  // draws its own as it arrives.
  const ownBarInView = useViewportValue(list, (v) => {
    const offset = v.scrollOffset ?? 0;
    const top = v.getVirtualItemForOffset(offset);
    if (!top || !ids) return false;
    const band = RECIPIENT_BAR_MARGIN_PX + barHeight.current;
    const account = store.getState().accounts[accountId];
    if (
      offset - top.start <= RECIPIENT_BAR_MARGIN_PX &&
      startsConversation(account, ids, top.index)
    )
      return true;
    const next = v.measurementsCache[top.index + 1];
    return !!next && next.start - offset < band && startsConversation(account, ids, next.index);
  });
  const message = useMessage(topId ?? -1);
  return (
    <div ref={attach} className={`sticky-header${ownBarInView ? ' hidden' : ''}`} inert>
      {message ? <RecipientHeader message={message} /> : null}
    </div>
  );
}

/** Whether the row at `index` draws a recipient bar (MessageRow: the first row, or a row whose
 * conversation differs from the one above). */
function startsConversation(
  account: AccountState | undefined,
  ids: IdList,
  index: number,
): boolean {
  if (index === 0) return true;
  const byId = account?.messages.byId;
  const message = byId?.get(ids.at(index)!);
  const previous = byId?.get(ids.at(index - 1)!);
  return !message || !previous || !sameConversation(previous, message);
}

export function MessageList({ accountId, narrowKey, anchor, offline }: MessageListProps) {
  const store = useChatStoreApi();
  const list = useNarrowIds(narrowKey);
  const outbox = useOutbox(narrowKey);
  // openAt: the route's anchor, or after a new snapshot the message the reader was at.
  const {
    initial,
    loadMore,
    anchor: openAt,
    generation,
  } = useMessagePages(accountId, narrowKey, anchor, !offline);
  const ready = !!offline || initial.isSuccess;
  const selected = useUi((s) => s.selectedMessageId);
  const policy = useChatStore(
    (s) => s.accounts[accountId]?.settings.user.web_mark_read_on_scroll_policy ?? 1,
  );
  const twentyFourHour = useChatStore(
    (s) => !!s.accounts[accountId]?.settings.user.twenty_four_hour_time,
  );
  const textEmoji = useChatStore((s) => s.accounts[accountId]?.settings.user.emojiset === 'text');
  const stillImages = useChatStore(
    (s) => s.accounts[accountId]?.settings.user.web_animate_image_previews !== 'always',
  );
  // Parsed once per narrow, not on every scroll-driven render. Searches and personal views never
  // mark what they show as read, whatever the policy (the web app's rule, shared/narrow/mark-read.ts).
  const { isConversation, canMarkRead } = useMemo(() => {
    const narrow = narrowFromKey(narrowKey);
    return {
      isConversation: describeNarrow(narrow, undefined).conversation,
      canMarkRead: narrowCanMarkRead(narrow),
    };
  }, [narrowKey]);
  const ids = list?.ids;
  const idCount = ids?.length ?? 0;
  const count = idCount + outbox.length;

  // The virtualizer recomputes the offsets of all rows (O(n), 10,000 objects for a large narrow)
  // whenever getItemKey is a new function: kept stable until the list or the outbox changes.
  const getItemKey = useCallback(
    (i: number) => (i < idCount ? (ids?.at(i) ?? i) : `local-${outbox[i - idCount]?.localId}`),
    [ids, idCount, outbox],
  );
  // Sizes to assume before layout, from the last list measured (list-layout.ts); fixed for this
  // list, as the virtualizer keeps its offsets by them.
  const [initialRect] = useState(expectedListRect);
  const [rowEstimate] = useState(expectedRowPx);
  const estimateSize = useCallback(() => rowEstimate, [rowEstimate]);
  const [overscan, setOverscan] = useState(0);
  const {
    list: listVirtualizer,
    items,
    attachScroller,
    attachSizer,
    attachBlock,
  } = useListVirtualizer({
    count,
    estimateSize,
    overscan,
    getItemKey,
    // The first render covers the expected viewport without a layout.
    initialRect,
    // When the list already has messages at mount, start near where positioning will jump (the
    // first unread, else the bottom), so the first frame renders those rows and not the top ones.
    initialOffset: () => {
      if (!ids || idCount === 0) return 0;
      const unread = store.getState().accounts[accountId]?.unreads.locations;
      const target = unread ? firstUnreadIn(ids, unread) : -1;
      if (target >= 0) return target * rowEstimate;
      return Math.max(0, count * rowEstimate - initialRect.height);
    },
  });
  const { virtualizer } = listVirtualizer;
  const rememberLayout = useCallback(
    () => rememberListLayout(virtualizer.scrollRect, virtualizer.itemSizeCache.values()),
    [virtualizer],
  );
  useEffect(() => rememberLayout, [rememberLayout]);

  // --- Initial position: the first unread, else the bottom. -----------------------------------
  const positioned = useRef(false);
  const userScrolled = useRef(false);
  const atBottom = useRef(true);
  useLayoutEffect(() => {
    positioned.current = false;
  }, [narrowKey, generation]);
  useLayoutEffect(() => {
    if (positioned.current || !ids || idCount === 0 || !ready) return;
    positioned.current = true;
    let target = openAt !== undefined ? ids.search(openAt) : -1;
    if (target < 0) {
      const locations = store.getState().accounts[accountId]?.unreads.locations;
      if (locations) target = firstUnreadIn(ids, locations);
    }
    const index = target >= 0 && target < idCount ? target : count - 1;
    const align = index === target ? 'start' : 'end';
    // Rows are measured only once rendered, so the first jump lands by estimate; repeat it for a
    // few frames until the measured position holds still.
    let frames = 0;
    let lastOffset = -1;
    userScrolled.current = false;
    const settle = () => {
      // The user took over (wheel, keys, touch): leave the position to them.
      if (userScrolled.current) return;
      // What comes into view is marked read from the scroll event (onScroll), or after this
      // render when nothing scrolled (the effect below).
      virtualizer.scrollToIndex(index, { align });
      const offset = listVirtualizer.scrollElement?.scrollTop ?? 0;
      if (offset !== lastOffset && frames++ < 12) {
        lastOffset = offset;
        requestAnimationFrame(settle);
      } else rememberLayout();
    };
    settle();
    // The virtualizer takes the new offset from the scroll event, a frame later: tell it now, so
    // that the render following this commit (rows measured above the estimate) already lays out
    // the rows at the target instead of the event re-rendering them just before the first paint.
    listVirtualizer.takeScrollPosition();
    requestAnimationFrame(() => listVirtualizer.positioned());
    // Once the first frame is painted and nothing else waits: the rows beyond the viewport's edges
    // (a scroll before then renders the rows it brings into view by itself).
    const growOverscan = () => setOverscan(OVERSCAN_ROWS);
    if (typeof requestIdleCallback === 'function')
      requestIdleCallback(growOverscan, { timeout: 500 });
    else setTimeout(growOverscan, 0);
  }, [
    ids,
    idCount,
    count,
    ready,
    openAt,
    accountId,
    store,
    virtualizer,
    rememberLayout,
    listVirtualizer,
  ]);

  // The list's first rows are in this commit: the first screen over it goes once it is painted.
  const rendered = ready && idCount > 0 && items.length > 0;
  useLayoutEffect(() => {
    if (rendered) chatScreenRendered();
  }, [rendered]);

  // --- Stay at the bottom when new messages arrive and the user was there. --------------------
  const lastCount = useRef(count);
  useLayoutEffect(() => {
    if (count > lastCount.current && atBottom.current && positioned.current && list?.foundNewest)
      virtualizer.scrollToIndex(count - 1, { align: 'end' });
    lastCount.current = count;
  }, [count, list?.foundNewest, virtualizer]);

  // --- Stay at the bottom when a row there grows (an image's preview loading after a send). -----
  // The virtualizer keeps rows above the view still as they resize, not the bottom edge: the new
  // height would go below the view. Only when the reader was at the bottom before it grew (read
  // synchronously: a jump just made has not yet fired its scroll event).
  const foundNewest = !!list?.foundNewest;
  useEffect(() => {
    if (!foundNewest) return;
    let lastSize = virtualizer.getTotalSize();
    return listVirtualizer.subscribe(() => {
      const size = virtualizer.getTotalSize();
      const growth = size - lastSize;
      lastSize = size;
      const el = listVirtualizer.scrollElement;
      if (growth <= 0 || !el || !atBottom.current || !positioned.current) return;
      if (el.scrollHeight - growth - el.scrollTop - el.clientHeight < 40)
        el.scrollTop = el.scrollHeight;
    });
  }, [listVirtualizer, virtualizer, foundNewest]);

  // --- Sent while scrolled up: say so, with a way down to it (as the public app does). -----------
  // Local echoes come at the end of the list, below the view when the reader is not at the bottom.
  const [sentBelow, setSentBelow] = useState(false);
  const sentBelowShown = useRef(false);
  const showSentBelow = useCallback((shown: boolean) => {
    if (sentBelowShown.current === shown) return;
    sentBelowShown.current = shown;
    setSentBelow(shown);
  }, []);
  const lastOutboxLength = useRef(outbox.length);
  useLayoutEffect(() => {
    if (outbox.length > lastOutboxLength.current && positioned.current && !atBottom.current)
      showSentBelow(true);
    lastOutboxLength.current = outbox.length;
  }, [outbox.length, showSentBelow]);

  // --- Keep the view still when an older page is prepended. -----------------------------------
  const keepVisible = useRef<number | null>(null);
  const firstId = ids?.first;
  useLayoutEffect(() => {
    const id = keepVisible.current;
    if (id === null || !ids) return;
    keepVisible.current = null;
    const index = ids.search(id);
    if (index >= 0) virtualizer.scrollToIndex(index, { align: 'start' });
  }, [firstId, ids, virtualizer]);

  // The reading position, and the next page once the rows in view near an edge: checked on every
  // change of the viewport and of the list.
  const checkViewport = useCallback(() => {
    if (!positioned.current || !list || !ids) return;
    // A scroll that came before the render of a changed list (a fresh snapshot emptied it) is
    // about rows that are gone: the effect after that render checks again.
    if (store.getState().accounts[accountId]?.narrows.lists.get(narrowKey) !== list) return;
    const range = visibleRange(virtualizer);
    if (!range) return;
    const [first, last] = range;
    const top = ids.at(first);
    if (top !== undefined) rememberReadingPosition(accountId, narrowKey, top);
    if (first < PREFETCH_ROWS && !list.foundOldest) {
      keepVisible.current = ids.at(first) ?? null;
      void loadMore('older').catch(() => undefined);
    }
    if (last > idCount - PREFETCH_ROWS && !list.foundNewest)
      void loadMore('newer').catch(() => undefined);
  }, [idCount, list, ids, loadMore, virtualizer, accountId, narrowKey, store]);
  const { subscribe } = listVirtualizer;
  useEffect(() => {
    checkViewport();
    return subscribe(checkViewport);
  }, [checkViewport, subscribe]);

  // --- Mark as read what the user has seen. ---------------------------------------------------
  const toMark = useRef(new Set<number>());
  const markTimer = useRef<ReturnType<typeof setTimeout> | null>(null);
  const flushMarks = useCallback(() => {
    markTimer.current = null;
    const messages = [...toMark.current];
    toMark.current.clear();
    if (messages.length > 0)
      void api()
        .updateFlags({ accountId, messages, op: 'add', flag: 'read' })
        .catch(() => undefined);
  }, [accountId]);
  // Checked after renders (new rows, read flags changing), while positioning settles and on
  // scroll; at most once per frame and after that frame is painted, when the layout is clean:
  // reading the live position then forces no extra layout while the user scrolls.
  const markCheck = useRef<number | null>(null);
  const scheduleMarkCheck = useRef<() => void>(() => undefined);
  // Set by "Mark as unread from here" until the reader scrolls or moves through the list
  // (mark-read-control.ts).
  const markReadSuspended = useRef(false);
  useLayoutEffect(() => {
    scheduleMarkCheck.current = () => {
      const markOnScroll = canMarkRead && (policy === 1 || (policy === 2 && isConversation));
      if (!markOnScroll || markReadSuspended.current) return;
      if (!positioned.current || markCheck.current !== null) return;
      markCheck.current = requestAnimationFrame(() => {
        markCheck.current = null;
        setTimeout(() => {
          if (markReadSuspended.current) return;
          if (typeof document !== 'undefined' && document.visibilityState === 'hidden') return;
          const el = listVirtualizer.scrollElement;
          const current = store.getState().accounts[accountId];
          const list = current?.narrows.lists.get(narrowKey)?.ids;
          if (!el || !current || !list) return;
          const first = virtualizer.getVirtualItemForOffset(el.scrollTop);
          const last = virtualizer.getVirtualItemForOffset(
            el.scrollTop + Math.max(el.clientHeight - 1, 0),
          );
          if (!first || !last) return;
          for (let i = first.index; i <= Math.min(last.index, list.length - 1); i++) {
            const id = list.at(i)!;
            const m = current.messages.byId.get(id);
            if (m && !m.flags.includes('read')) toMark.current.add(id);
          }
          if (toMark.current.size > 0 && !markTimer.current)
            markTimer.current = setTimeout(flushMarks, MARK_READ_DELAY_MS);
        }, 0);
      });
    };
  });
  useEffect(() => scheduleMarkCheck.current());
  // Rows also come into view without a render or a scroll event: the viewport grows (compose
  // shrinks, the window is made taller), rows above shrink.
  useEffect(() => subscribe(() => scheduleMarkCheck.current()), [subscribe]);
  const markReadControl = useMemo<MarkReadControl>(
    () => ({
      suspend() {
        markReadSuspended.current = true;
        toMark.current.clear();
        if (markTimer.current) clearTimeout(markTimer.current);
        markTimer.current = null;
      },
      resume() {
        if (!markReadSuspended.current) return;
        markReadSuspended.current = false;
        scheduleMarkCheck.current();
      },
    }),
    [],
  );
  useEffect(
    () => () => {
      if (markCheck.current !== null) cancelAnimationFrame(markCheck.current);
    },
    [],
  );
  useEffect(
    () => () => {
      if (markTimer.current) clearTimeout(markTimer.current);
      flushMarks();
    },
    [flushMarks],
  );

  // --- Jump to first unread. ------------------------------------------------------------------
  // A number: an unread change elsewhere in the realm does not re-render the list.
  const firstUnreadIndex = useChatStore((s) =>
    selectFirstUnreadIndex(s.accounts[accountId]?.unreads, ids),
  );
  const firstUnreadOutOfView = useViewportValue(listVirtualizer, (v) => {
    const range = visibleRange(v);
    return !range || firstUnreadIndex < range[0] || firstUnreadIndex > range[1];
  });

  // --- Keyboard: arrows move the selection, Home/End jump; j/k reach it through the cursor. ----
  /** The last message in view (local echoes after the messages are not selectable). */
  const endIndex = () => Math.min(visibleRange(virtualizer)?.[1] ?? idCount - 1, idCount - 1);
  const moveSelectionTo = (to: SelectionMove) => {
    if (!ids || idCount === 0) return;
    const current = selected !== null ? ids.search(selected) : -1;
    const from = current < 0 ? endIndex() : current;
    const next =
      to === 'next'
        ? Math.min(idCount - 1, from + 1)
        : to === 'previous'
          ? Math.max(0, from - 1)
          : to === 'last'
            ? idCount - 1
            : 0;
    uiStore.setState({ selectedMessageId: ids.at(next) ?? null });
    virtualizer.scrollToIndex(next, { align: 'auto' });
  };
  // Registered anew with each render, so it reads this render's list and selection.
  useEffect(() =>
    registerSelectionCursor({
      move: (to) => {
        userScrolled.current = true;
        markReadControl.resume();
        moveSelectionTo(to);
      },
      current: () => {
        if (!ids || idCount === 0) return null;
        if (selected !== null && ids.search(selected) >= 0) return selected;
        return ids.at(endIndex()) ?? null;
      },
    }),
  );
  const onKeyDown = (e: React.KeyboardEvent) => {
    const to = LIST_KEYS[e.key];
    if (!to || !ids || idCount === 0) return;
    e.preventDefault();
    moveSelectionTo(to);
  };

  const empty = ready && count === 0;
  return (
    <div className="message-list-wrap">
      {/* Above the list, not in it: the virtualizer's offsets start at the list's top. */}
      <OfflineListNote narrowKey={narrowKey} page={initial.data} />
      {/* One column over the list's top edge: the jump button comes below the sticky header,
          never over it. */}
      <div className="list-overlay">
        <StickyHeader list={listVirtualizer} ids={ids} accountId={accountId} />
        {firstUnreadIndex >= 0 && firstUnreadOutOfView ? (
          <button
            type="button"
            className="jump-unread"
            onClick={() => {
              markReadControl.resume();
              virtualizer.scrollToIndex(firstUnreadIndex, { align: 'start' });
            }}
          >
            Jump to first unread
          </button>
        ) : null}
      </div>
      <div
        ref={attachScroller}
        className="message-list"
        role="list"
        aria-label="Messages"
        tabIndex={0}
        onKeyDown={(e) => {
          userScrolled.current = true;
          if (READING_KEYS.has(e.key)) markReadControl.resume();
          onKeyDown(e);
        }}
        onWheel={() => {
          userScrolled.current = true;
          markReadControl.resume();
        }}
        onTouchMove={() => markReadControl.resume()}
        onPointerDown={(e) => {
          userScrolled.current = true;
          // On the list itself, not a row: its scrollbar.
          if (e.target === e.currentTarget) markReadControl.resume();
        }}
        onScroll={(e) => {
          const el = e.currentTarget;
          atBottom.current = el.scrollHeight - el.scrollTop - el.clientHeight < 40;
          if (atBottom.current) showSentBelow(false);
          scheduleMarkCheck.current();
        }}
      >
        {!ready && initial.isPending && count === 0 ? (
          <p className="placeholder">Loading messages…</p>
        ) : null}
        {initial.isError && count === 0 ? (
          refusalReason(initial.error) ? (
            <p role="alert" className="placeholder">
              Could not load messages: {refusalReason(initial.error)}
            </p>
          ) : (
            <p role="alert" className="placeholder">
              Could not load messages.{' '}
              <button type="button" onClick={() => void initial.refetch()}>
                Try again
              </button>
            </p>
          )
        ) : null}
        {empty ? (
          <p className="placeholder">
            {/* Main answered from its cache: the server may well have some. */}
            {neverKept(initial.data)
              ? NEVER_KEPT
              : initial.data?.from_cache
                ? 'None of the messages saved on this computer are here.'
                : 'No messages here yet.'}
          </p>
        ) : null}
        {/* Rows sit in normal flow inside one block moved to the first row's offset, so they
            never overlap while a new row's real height is not yet measured. */}
        <MarkReadControlContext.Provider value={markReadControl}>
          <div
            ref={attachSizer}
            className="message-rows"
            style={{ height: virtualizer.getTotalSize() }}
          >
            <div ref={attachBlock} style={{ transform: `translateY(${items[0]?.start ?? 0}px)` }}>
              {items.map((item) => {
                // Each row is its own measured box (data-index and the virtualizer's ref).
                if (item.index >= idCount)
                  return (
                    <PendingRow
                      key={item.key}
                      entry={outbox[item.index - idCount]!}
                      before={
                        item.index > idCount
                          ? outbox[item.index - idCount - 1]
                          : ids?.at(idCount - 1)
                      }
                      accountId={accountId}
                      index={item.index}
                      measureRef={virtualizer.measureElement}
                    />
                  );
                const id = ids!.at(item.index)!;
                return (
                  <MessageRow
                    key={item.key}
                    accountId={accountId}
                    id={id}
                    prevId={item.index > 0 ? ids!.at(item.index - 1) : undefined}
                    selected={selected === id}
                    twentyFourHour={twentyFourHour}
                    textEmoji={textEmoji}
                    stillImages={stillImages}
                    searchMatch={list?.searchMatches?.get(id)}
                    index={item.index}
                    measureRef={virtualizer.measureElement}
                  />
                );
              })}
            </div>
          </div>
        </MarkReadControlContext.Provider>
      </div>
      {sentBelow ? (
        <div className="sent-below" role="status">
          Sent!{' '}
          <button
            type="button"
            className="link"
            onClick={() => {
              showSentBelow(false);
              virtualizer.scrollToIndex(count - 1, { align: 'end' });
            }}
          >
            Scroll down to view your message.
          </button>
          <button
            type="button"
            className="icon"
            aria-label="Dismiss"
            onClick={() => showSentBelow(false)}
          >
            ×
          </button>
        </div>
      ) : null}
    </div>
  );
}
