// Message lists per narrow: the sorted ids of the stored messages that belong to the narrow, and how
// far the loaded range reaches (found_oldest / found_newest, from GET /messages). History pages come
// in through mergeFetchedIntoNarrow; events keep the lists current: new messages are appended to
// lists that reach the newest message, moved messages leave and join lists, deleted ones leave.
import type { Message } from '../../../shared/api/types';
import type { ServerEvent, ServerEventType } from '../../../shared/api/events';
import {
  compileNarrow,
  narrowFromKey,
  type Narrow,
  type NarrowMatchContext,
  type NarrowMatcher,
} from '../../../shared/narrow';
import { IdList } from '../idList';
import type { EventContext } from '../context';
import type { SliceDraft } from '../sliceDraft';
import type { StoredMessage } from './messages';

/** A keyword search's marked copies of one message (the server's match_content / match_subject). */
export interface SearchMatch {
  /** Rendered content with the matched words in `<span class="highlight">`. */
  readonly content?: string;
  /** The topic, HTML-escaped, with the matched words marked. */
  readonly subject?: string;
}

export interface NarrowList {
  readonly key: string;
  readonly narrow: Narrow;
  /** The narrow compiled for client-side matching (undefined result: the server decides). */
  readonly matches: NarrowMatcher;
  readonly ids: IdList;
  readonly foundOldest: boolean;
  readonly foundNewest: boolean;
  /** Flags (is:starred, is:mentioned, ...) whose change can move a message in or out. */
  readonly flagTerms: boolean;
  readonly reactionTerms: boolean;
  /** in:home, is:muted, is:followed: membership depends on mute and follow settings. */
  readonly visibilityTerms: boolean;
  /**
   * A search's highlighted content and topic by message id, as fetched. Kept with the list, not the
   * message: the same message shows unmarked everywhere else. An edit or move drops its entry.
   */
  readonly searchMatches?: ReadonlyMap<number, SearchMatch>;
}

export interface NarrowsState {
  readonly version: number;
  readonly lists: Map<string, NarrowList>;
}

export function emptyNarrows(): NarrowsState {
  return { version: 0, lists: new Map() };
}

function newList(key: string): NarrowList {
  const narrow = narrowFromKey(key);
  return {
    key,
    narrow,
    matches: compileNarrow(narrow),
    ids: IdList.EMPTY,
    foundOldest: false,
    foundNewest: false,
    flagTerms: narrow.some((t) => t.operator === 'is'),
    reactionTerms: narrow.some((t) => t.operator === 'has'),
    visibilityTerms: narrow.some(
      (t) =>
        (t.operator === 'in' && t.operand === 'home') ||
        (t.operator === 'is' && (t.operand === 'muted' || t.operand === 'followed')),
    ),
  };
}

/** Whether id falls inside the loaded range of the list (so inserting it leaves no gap). */
function inRange(list: NarrowList, id: number): boolean {
  const first = list.ids.first;
  const last = list.ids.last;
  const afterStart = list.foundOldest || (first !== undefined && id >= first);
  const beforeEnd = list.foundNewest || (last !== undefined && id <= last);
  return afterStart && beforeEnd;
}

/**
 * Lists (and their id lists) created during the current batch, keyed by the batch's draft. Nobody
 * has seen them yet, so further changes in the same batch update them in place instead of
 * allocating again: a batch of 100 new messages makes one new list object per open narrow.
 */
const madeInBatch = new WeakMap<SliceDraft<NarrowsState>, WeakSet<object>>();

function setIds(d: SliceDraft<NarrowsState>, list: NarrowList, ids: IdList): NarrowList {
  if (ids === list.ids) return list;
  let fresh = madeInBatch.get(d);
  if (!fresh) madeInBatch.set(d, (fresh = new WeakSet()));
  fresh.add(ids);
  if (fresh.has(list)) {
    (list as { ids: IdList }).ids = ids;
    return list;
  }
  const next = { ...list, ids };
  fresh.add(next);
  d.write.lists.set(list.key, next);
  return next;
}

/** Add one id to a list (the hot path for new messages). */
function addId(d: SliceDraft<NarrowsState>, list: NarrowList, id: number): void {
  const fresh = madeInBatch.get(d);
  if (fresh?.has(list) && fresh.has(list.ids) && list.ids.appendInPlace(id)) return;
  setIds(d, list, list.ids.insert(id));
}

/** Re-decide membership of some messages in every list (after moves, flag or reaction changes). */
function reevaluate(
  d: SliceDraft<NarrowsState>,
  ids: readonly number[],
  byId: Map<number, StoredMessage>,
  match: NarrowMatchContext,
  which: (list: NarrowList) => boolean,
) {
  for (const list of d.read.lists.values()) {
    if (!which(list)) continue;
    const drop: number[] = [];
    const add: number[] = [];
    for (const id of ids) {
      const m = byId.get(id);
      const has = list.ids.has(id);
      const matches = m ? list.matches(m, match) : false;
      // undefined: the client cannot tell; leave the list as the server last described it.
      if (has && matches === false) drop.push(id);
      else if (!has && matches === true && inRange(list, id)) add.push(id);
    }
    // One copy per list however many messages moved (inserting one by one would copy each time).
    if (drop.length > 0 || add.length > 0) setIds(d, list, list.ids.remove(drop).merge(add));
  }
}

/** The event types handleNarrowsEvent reacts to (the dispatcher calls it for these only). */
export const narrowsEventTypes: readonly ServerEventType[] = [
  'message',
  'update_message',
  'delete_message',
  'update_message_flags',
  'reaction',
  'user_topic',
  'subscription',
];

export function handleNarrowsEvent(
  d: SliceDraft<NarrowsState>,
  ev: ServerEvent,
  ctx: EventContext,
): void {
  if (d.read.lists.size === 0) return;
  const byId = ctx.messages.read.byId;
  switch (ev.type) {
    case 'message': {
      const id = ev.message.id;
      const m = byId.get(id);
      if (!m) return;
      for (const list of d.read.lists.values()) {
        if (!inRange(list, id)) continue;
        if (list.matches(m, ctx.match) === true) addId(d, list, id);
      }
      return;
    }
    case 'update_message': {
      const ids = ev.message_ids.includes(ev.message_id)
        ? ev.message_ids
        : [...ev.message_ids, ev.message_id];
      reevaluate(d, ids, byId, ctx.match, () => true);
      if (ev.rendered_content !== undefined || ev.subject !== undefined) dropSearchMatches(d, ids);
      return;
    }
    case 'delete_message': {
      const ids = ev.message_ids ?? (ev.message_id !== undefined ? [ev.message_id] : []);
      for (const list of d.read.lists.values()) setIds(d, list, list.ids.remove(ids));
      return;
    }
    case 'update_message_flags':
      // Read state is left alone on purpose: an open is:unread view keeps the messages the user has
      // just read until it is fetched again, as users expect.
      if (ev.flag === 'read') return;
      if (ev.op === 'add' && ev.all) return;
      reevaluate(d, ev.messages, byId, ctx.match, (l) => l.flagTerms);
      return;
    case 'reaction':
      reevaluate(d, [ev.message_id], byId, ctx.match, (l) => l.reactionTerms);
      return;
    case 'user_topic':
    case 'subscription': {
      // Muting, unmuting or following changes which stored messages belong to in:home, is:muted
      // and is:followed lists. Rare, so every stored message is re-checked for those lists only.
      if (
        ev.type === 'subscription' &&
        !(ev.op === 'update' && (ev.property === 'is_muted' || ev.property === 'in_home_view'))
      ) {
        return;
      }
      let affected = false;
      for (const list of d.read.lists.values()) affected ||= list.visibilityTerms;
      if (affected) reevaluate(d, [...byId.keys()], byId, ctx.match, (l) => l.visibilityTerms);
      return;
    }
    default:
      return;
  }
}

/** The marks of edited or moved messages are stale: they show unmarked until fetched again. */
function dropSearchMatches(d: SliceDraft<NarrowsState>, ids: readonly number[]): void {
  for (const list of d.read.lists.values()) {
    const matches = list.searchMatches;
    if (!matches || !ids.some((id) => matches.has(id))) continue;
    const next = new Map(matches);
    for (const id of ids) next.delete(id);
    d.write.lists.set(list.key, { ...(d.read.lists.get(list.key) ?? list), searchMatches: next });
  }
}

/** The page's search marks added to the list's (undefined when neither has any). */
function withSearchMatches(
  previous: ReadonlyMap<number, SearchMatch> | undefined,
  messages: readonly Message[],
): ReadonlyMap<number, SearchMatch> | undefined {
  let next: Map<number, SearchMatch> | undefined;
  for (const m of messages) {
    if (m.match_content === undefined && m.match_subject === undefined) continue;
    next ??= new Map(previous);
    next.set(m.id, { content: m.match_content, subject: m.match_subject });
  }
  return next ?? previous;
}

export interface FetchedRange {
  foundOldest: boolean;
  foundNewest: boolean;
  /** The anchor the page was fetched with (an id, or newest/oldest/first_unread). */
  anchor?: number | string;
}

/**
 * Merge a history page into a narrow's list. A page that touches the loaded range (overlaps it, or
 * was fetched with one of its ends as anchor) extends it; a page elsewhere (a jump to a far anchor)
 * replaces it, since keeping both would leave a hole the list cannot represent.
 */
export function mergeFetchedIntoNarrow(
  d: SliceDraft<NarrowsState>,
  key: string,
  messages: readonly Message[],
  range: FetchedRange,
): void {
  const list = d.read.lists.get(key) ?? newList(key);
  const pageIds = messages.map((m) => m.id);
  let lo = Infinity;
  let hi = -Infinity;
  for (const id of pageIds) {
    if (id < lo) lo = id;
    if (id > hi) hi = id;
  }
  const first = list.ids.first;
  const last = list.ids.last;
  const anchor = typeof range.anchor === 'number' ? range.anchor : Number(range.anchor);
  const touches =
    first === undefined ||
    last === undefined ||
    pageIds.length === 0 ||
    (lo <= last && hi >= first) ||
    anchor === first ||
    anchor === last ||
    (range.foundNewest && list.foundNewest) ||
    (range.foundOldest && list.foundOldest);
  const next: NarrowList = touches
    ? {
        ...list,
        ids: list.ids.merge(pageIds),
        foundOldest: list.foundOldest || range.foundOldest,
        foundNewest: list.foundNewest || range.foundNewest,
        searchMatches: withSearchMatches(list.searchMatches, messages),
      }
    : {
        ...list,
        ids: IdList.from(pageIds),
        foundOldest: range.foundOldest,
        foundNewest: range.foundNewest,
        searchMatches: withSearchMatches(undefined, messages),
      };
  d.write.lists.set(key, next);
}

export function closeNarrow(d: SliceDraft<NarrowsState>, key: string): void {
  if (d.read.lists.has(key)) d.write.lists.delete(key);
}
