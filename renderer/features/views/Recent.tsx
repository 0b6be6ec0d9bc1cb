// Recent conversations: topics and direct-message conversations by their latest message.
import { useMemo } from 'react';
import { useQuery } from '@tanstack/react-query';
import { useChatStore, useChatStoreApi, useUnreadCounts } from '../../store/hooks';
import { selectActiveAccount } from '../../store';
import { narrowKey, type Narrow } from '../../../shared/narrow';
import { api } from '../../src/tributary';
import { navigate } from '../../src/ui-store';
import { conversationOf, describeNarrow } from '../messages/narrow-info';

export function Recent({ accountId }: { accountId: string }) {
  const store = useChatStoreApi();
  const account = useChatStore(selectActiveAccount);
  const counts = useUnreadCounts();
  // The latest page of all messages, so the view has something to list right after start-up.
  useQuery({
    queryKey: ['recent', accountId, account?.generation],
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
  });
  const rows = useMemo(() => {
    if (!account) return [];
    const latest = new Map<string, { narrowKey: string; narrow: Narrow; id: number }>();
    for (const m of account.messages.byId.values()) {
      const narrow = conversationOf(m, account.selfUserId);
      const key = narrowKey(narrow);
      const cur = latest.get(key);
      if (!cur || m.id > cur.id) latest.set(key, { narrowKey: key, narrow, id: m.id });
    }
    return [...latest.values()].sort((a, b) => b.id - a.id).slice(0, 100);
  }, [account]);
  return (
    <section className="view recent" aria-label="Recent conversations">
      <h1>Recent conversations</h1>
      <ul>
        {rows.map((r) => {
          const { narrow } = r;
          const info = describeNarrow(narrow, account);
          const unread =
            info.streamId !== undefined && info.topic !== undefined
              ? (counts.channels.get(info.streamId)?.topics.get(info.topic)?.count ?? 0)
              : info.dmUserIds
                ? (counts.dms.get(info.dmUserIds.join(',')) ?? 0)
                : 0;
          return (
            <li key={r.narrowKey}>
              <button
                type="button"
                className="link"
                onClick={() => navigate({ kind: 'narrow', narrow })}
              >
                {info.title}
              </button>
              {unread > 0 ? <span className="count">{unread}</span> : null}
            </li>
          );
        })}
      </ul>
    </section>
  );
}
