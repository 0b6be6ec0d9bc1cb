// Recent conversations: topics and direct-message conversations by their latest message.
import { useQuery } from '@tanstack/react-query';
import { useAccountNames, useChatStore, useChatStoreApi, useUnreadCounts } from '../../store/hooks';
import { selectActiveAccount } from '../../store';
import { narrowKey } from '../../../shared/narrow';
import { api } from '../../src/tributary';
import { navigate } from '../../src/ui-store';
import { describeNarrow } from '../messages/narrow-info';
import { selectRecentConversations } from './recent-model';

export function Recent({ accountId }: { accountId: string }) {
  const store = useChatStoreApi();
  // Each of these changes only with what the view shows (see recent-model.ts).
  const generation = useChatStore((s) => selectActiveAccount(s)?.generation);
  const names = useAccountNames();
  const rows = useChatStore((s) => selectRecentConversations(selectActiveAccount(s)));
  const counts = useUnreadCounts();
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
  return (
    <section className="view recent" aria-label="Recent conversations">
      <h1>Recent conversations</h1>
      <ul>
        {rows.map((r) => {
          const { narrow } = r;
          const info = describeNarrow(narrow, names);
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
