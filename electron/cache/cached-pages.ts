// A getMessages request as the cache answers it: the page cut from a list of kept messages (oldest
// first) around the anchor, as the server would cut it. Pure functions: the SQLite side is in
// message-store.ts.
import type { GetMessagesResponse } from '../../shared/api/endpoints';

export type Anchor = number | 'newest' | 'oldest' | 'first_unread';

export interface PageRequest {
  anchor: Anchor;
  numBefore: number;
  numAfter: number;
  includeAnchor?: boolean;
}

/** The messages of `messages` (oldest first) the request asks for, as the server would cut them. */
export function cutPage<T extends { id: number; flags: readonly string[] }>(
  messages: readonly T[],
  request: PageRequest,
  found: { oldest: boolean; newest: boolean },
): Omit<GetMessagesResponse, 'messages'> & { messages: T[] } {
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
