// History pages for a narrow, fetched with react-query through main's getMessages and merged into
// the store (events keep the list current after that). The query keys carry the account's snapshot
// generation, so a new snapshot (after a lost queue) refetches the open narrow: around the reader's
// place in it (reading-position.ts), not around the first unread it was opened at.
import { useCallback, useRef, useState } from 'react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import type { ChatStore } from '../../store';
import { useChatStoreApi, useChatStore } from '../../store/hooks';
import { narrowFromKey } from '../../../shared/narrow';
import type { MessagesPage } from '../../../shared/ipc/chat';
import { api } from '../../bridge/api';
import { uiStore } from '../../store/ui-store';
import { readingPosition } from './reading-position';
import { PAGE_SIZE, takeFirstPage } from './first-page';

/**
 * The server's reason when it refused the narrow itself (a 4xx answer such as BAD_NARROW for an
 * operand it does not know): shown as is, and not asked again. Null for anything worth a retry.
 */
export function refusalReason(error: unknown): string | null {
  const { status, message } = (error ?? {}) as { status?: unknown; message?: unknown };
  if (typeof status !== 'number' || status < 400 || status >= 500 || status === 429) return null;
  return typeof message === 'string' && message ? message : null;
}

type Anchor = number | 'newest' | 'oldest' | 'first_unread';

async function fetchPage(
  store: ChatStore,
  accountId: string,
  key: string,
  anchor: Anchor,
  numBefore: number,
  numAfter: number,
  includeAnchor: boolean,
  /** The same request, already sent (first-page.ts). */
  asked?: Promise<MessagesPage>,
): Promise<MessagesPage> {
  const res = await (asked ??
    api().getMessages({
      accountId,
      anchor,
      numBefore,
      numAfter,
      narrow: narrowFromKey(key),
      includeAnchor,
    }));
  store.getState().mergeFetchedMessages(accountId, key, res.messages, {
    foundOldest: !!res.found_oldest,
    foundNewest: !!res.found_newest,
    anchor: typeof anchor === 'number' ? anchor : (res.anchor ?? anchor),
  });
  return res;
}

interface OpenAt {
  accountId: string;
  key: string;
  routeAnchor: number | undefined;
  generation: number;
  /** The message the list is fetched around and positioned at; undefined: the first unread. */
  anchor: number | undefined;
}

/**
 * The anchor of the open list: the route's (a message link, a reply), or the first unread; after a
 * new snapshot while the list stays open, the message the reader was at (top of the viewport, else
 * the selected one). Fixed per snapshot generation, so it names one query.
 */
function useOpenAt(
  accountId: string,
  key: string,
  routeAnchor: number | undefined,
  generation: number,
) {
  const [openAt, setOpenAt] = useState<OpenAt>({
    accountId,
    key,
    routeAnchor,
    generation,
    anchor: routeAnchor,
  });
  // Another list (or another account's): opened afresh.
  if (openAt.accountId !== accountId || openAt.key !== key || openAt.routeAnchor !== routeAnchor) {
    const next = { accountId, key, routeAnchor, generation, anchor: routeAnchor };
    setOpenAt(next);
    return next.anchor;
  }
  if (openAt.generation !== generation) {
    // The earlier generation 0 is "no snapshot yet": nothing was read.
    const resync = openAt.generation > 0;
    const selected = uiStore.getState().selectedMessageId;
    const anchor = resync
      ? (readingPosition(accountId, key) ?? selected ?? openAt.anchor)
      : openAt.anchor;
    setOpenAt({ accountId, key, routeAnchor, generation, anchor });
    return anchor;
  }
  return openAt.anchor;
}

export function useMessagePages(
  accountId: string,
  key: string,
  routeAnchor?: number,
  enabled = true,
) {
  const store = useChatStoreApi();
  const queryClient = useQueryClient();
  const generation = useChatStore((s) => s.accounts[accountId]?.generation ?? 0);
  const anchor = useOpenAt(accountId, key, routeAnchor, generation);
  const initial = useQuery({
    queryKey: ['messages', accountId, generation, key, 'initial', anchor ?? 'first_unread'],
    queryFn: () =>
      fetchPage(
        store,
        accountId,
        key,
        anchor ?? 'first_unread',
        PAGE_SIZE / 2,
        PAGE_SIZE / 2,
        true,
        anchor === undefined ? takeFirstPage(accountId, key, generation) : undefined,
      ),
    staleTime: Infinity,
    gcTime: 0,
    retry: (failures, error) => failures < 2 && refusalReason(error) === null,
    enabled: enabled && generation > 0,
  });

  const loading = useRef({ older: false, newer: false });
  const loadMore = useCallback(
    async (direction: 'older' | 'newer') => {
      const list = store.getState().accounts[accountId]?.narrows.lists.get(key);
      if (!list || loading.current[direction]) return;
      if (direction === 'older' ? list.foundOldest : list.foundNewest) return;
      const edge = direction === 'older' ? list.ids.first : list.ids.last;
      if (edge === undefined) return;
      loading.current[direction] = true;
      try {
        await queryClient.fetchQuery({
          queryKey: ['messages', accountId, generation, key, direction, edge],
          queryFn: () =>
            fetchPage(
              store,
              accountId,
              key,
              edge,
              direction === 'older' ? PAGE_SIZE : 0,
              direction === 'newer' ? PAGE_SIZE : 0,
              false, // the edge message is in the list already
            ),
          staleTime: Infinity,
          gcTime: 0,
        });
      } finally {
        loading.current[direction] = false;
      }
    },
    [store, queryClient, accountId, key, generation],
  );

  return { initial, loadMore, anchor, generation };
}
