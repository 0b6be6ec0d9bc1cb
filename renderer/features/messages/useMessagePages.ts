// History pages for a narrow, fetched with react-query through main's getMessages and merged into
// the store (events keep the list current after that). The query keys carry the account's snapshot
// generation, so a new snapshot (after a lost queue) refetches the open narrow around its anchor.
import { useCallback, useRef } from 'react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import type { ChatStore } from '../../store';
import { useChatStoreApi, useChatStore } from '../../store/hooks';
import { narrowFromKey } from '../../../shared/narrow';
import type { GetMessagesResponse } from '../../../shared/api/endpoints';
import { api } from '../../src/tributary';

export const PAGE_SIZE = 100;

type Anchor = number | 'newest' | 'oldest' | 'first_unread';

async function fetchPage(
  store: ChatStore,
  accountId: string,
  key: string,
  anchor: Anchor,
  numBefore: number,
  numAfter: number,
): Promise<GetMessagesResponse> {
  const res = await api().getMessages({
    accountId,
    anchor,
    numBefore,
    numAfter,
    narrow: narrowFromKey(key),
    includeAnchor: typeof anchor !== 'number',
  });
  store.getState().mergeFetchedMessages(accountId, key, res.messages, {
    foundOldest: !!res.found_oldest,
    foundNewest: !!res.found_newest,
    anchor: typeof anchor === 'number' ? anchor : (res.anchor ?? anchor),
  });
  return res;
}

export function useMessagePages(accountId: string, key: string, anchor?: number, enabled = true) {
  const store = useChatStoreApi();
  const queryClient = useQueryClient();
  const generation = useChatStore((s) => s.accounts[accountId]?.generation ?? 0);
  const initial = useQuery({
    queryKey: ['messages', accountId, generation, key, 'initial', anchor ?? 'first_unread'],
    queryFn: () =>
      fetchPage(store, accountId, key, anchor ?? 'first_unread', PAGE_SIZE / 2, PAGE_SIZE / 2),
    staleTime: Infinity,
    gcTime: 0,
    retry: 2,
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

  return { initial, loadMore };
}
