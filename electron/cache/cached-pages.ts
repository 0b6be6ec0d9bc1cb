// The messages of one recently opened conversation as the cache keeps them: one contiguous run of the
// narrow's messages (oldest first) with whether it reaches the narrow's oldest and newest message.
// Pages the renderer fetches are merged into the run; answers for getMessages are cut from it when
// the server cannot be asked. Pure functions: the SQLite side is in account-cache.ts.
import type { GetMessagesResponse } from '../../shared/api/endpoints';
import type { MessageWithFlags } from '../../shared/api/types';
import type { NarrowTerm } from '../../shared/narrow';

export interface CachedRun {
  narrow: NarrowTerm[];
  messages: MessageWithFlags[];
  foundOldest: boolean;
  foundNewest: boolean;
}

export type Anchor = number | 'newest' | 'oldest' | 'first_unread';

export interface PageRequest {
  anchor: Anchor;
  numBefore: number;
  numAfter: number;
  includeAnchor?: boolean;
}

/**
 * The run after a fetched page. A page that overlaps the run, or continues it from one of its edges
 * (a "load older/newer" page anchored at the edge), extends it; any other page starts a new run, since
 * a gap between the two cannot be filled offline. The newest `limit` messages are kept.
 */
export function mergePage(
  stored: CachedRun | undefined,
  narrow: NarrowTerm[],
  request: PageRequest,
  page: GetMessagesResponse,
  limit: number,
): CachedRun {
  const fetched = [...page.messages].sort((a, b) => a.id - b.id);
  const fresh: CachedRun = {
    narrow,
    messages: fetched,
    foundOldest: !!page.found_oldest,
    foundNewest: !!page.found_newest,
  };
  let run = fresh;
  if (stored && stored.messages.length > 0 && fetched.length > 0) {
    const first = stored.messages[0].id;
    const last = stored.messages[stored.messages.length - 1].id;
    const lo = fetched[0].id;
    const hi = fetched[fetched.length - 1].id;
    const anchoredAtEdge =
      typeof request.anchor === 'number' && request.anchor >= first && request.anchor <= last;
    if ((lo <= last && hi >= first) || anchoredAtEdge) {
      // Within the span the page covers it is the truth: a kept message it lacks was deleted or
      // moved away while we were not listening.
      const from = page.found_oldest ? -Infinity : lo;
      const to = page.found_newest ? Infinity : hi;
      const byId = new Map(
        stored.messages.filter((m) => m.id < from || m.id > to).map((m) => [m.id, m]),
      );
      for (const m of fetched) byId.set(m.id, m); // the page is newer than the stored copy
      run = {
        narrow,
        messages: [...byId.values()].sort((a, b) => a.id - b.id),
        foundOldest: lo <= first ? fresh.foundOldest : stored.foundOldest,
        foundNewest: hi >= last ? fresh.foundNewest : stored.foundNewest,
      };
    }
  } else if (stored && fetched.length === 0) {
    // An empty page with both ends found: the narrow is empty now. Otherwise it says only that
    // nothing lies that way, and the run stays as it is.
    const emptied = fresh.foundOldest && fresh.foundNewest;
    run = stored.messages.length > 0 && !emptied ? stored : fresh;
  }
  if (run.messages.length > limit) {
    run = { ...run, messages: run.messages.slice(-limit), foundOldest: false };
  }
  return run;
}

/** Removes deleted messages from a run; the same run when none of them was in it. */
export function withoutMessages(run: CachedRun, ids: ReadonlySet<number>): CachedRun {
  const kept = run.messages.filter((m) => !ids.has(m.id));
  return kept.length === run.messages.length ? run : { ...run, messages: kept };
}

/** The messages of `messages` (oldest first) the request asks for, as the server would cut them. */
export function cutPage(
  messages: readonly MessageWithFlags[],
  request: PageRequest,
  found: { oldest: boolean; newest: boolean },
): GetMessagesResponse {
  const { anchor, numBefore, numAfter } = request;
  const includeAnchor = request.includeAnchor ?? true;
  let at: number; // index of the first message at or after the anchor
  if (anchor === 'newest') at = messages.length - 1;
  else if (anchor === 'oldest') at = 0;
  else if (anchor === 'first_unread') {
    at = messages.findIndex((m) => !m.flags.includes('read'));
    if (at < 0) at = messages.length - 1;
  } else {
    at = messages.findIndex((m) => m.id >= anchor);
    if (at < 0) at = messages.length;
  }
  const anchorId = messages[at]?.id;
  const foundAnchor = typeof anchor === 'number' ? anchorId === anchor : anchorId !== undefined;
  const before = messages.slice(Math.max(0, at - numBefore), Math.max(0, at));
  const atAnchor = foundAnchor && includeAnchor ? messages.slice(at, at + 1) : [];
  const afterStart = foundAnchor ? at + 1 : at;
  const after = messages.slice(afterStart, afterStart + numAfter);
  const picked = [...before, ...atAnchor, ...after];
  return {
    result: 'success',
    msg: '',
    messages: picked,
    anchor: typeof anchor === 'number' ? anchor : (anchorId ?? 0),
    found_anchor: foundAnchor,
    found_oldest: found.oldest && at - numBefore <= 0,
    found_newest: found.newest && afterStart + numAfter >= messages.length,
    history_limited: false,
  };
}
