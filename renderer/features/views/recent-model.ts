// What the Recent conversations view lists: topics and direct-message conversations by their newest
// stored message, read from the store's conversation index (messages.conversations) rather than
// from every stored message. The same array comes back until the listed conversations or their
// order change, so a message in a conversation already at the top re-renders nothing.
import type { AccountState } from '../../store';
import { dmNarrow, narrowKey, topicNarrow, type Narrow } from '../../../shared/narrow';

export interface RecentConversation {
  narrowKey: string;
  narrow: Narrow;
}

const NONE: RecentConversation[] = [];
const memo = new Map<
  string,
  { messages: AccountState['messages']; result: RecentConversation[]; limit: number }
>();

export function selectRecentConversations(
  account: AccountState | undefined,
  limit = 100,
): RecentConversation[] {
  if (!account) return NONE;
  const hit = memo.get(account.accountId);
  if (hit && hit.messages === account.messages && hit.limit === limit) return hit.result;
  const latest: Array<{ narrow: Narrow; lastId: number }> = [];
  const { channels, dms } = account.messages.conversations;
  for (const [streamId, topics] of channels)
    for (const [topic, ids] of topics)
      if (ids.size > 0) latest.push({ narrow: topicNarrow(streamId, topic), lastId: ids.newest });
  for (const [participants, ids] of dms) {
    if (ids.size === 0) continue;
    const others = participants
      .split(',')
      .map(Number)
      .filter((id) => id !== account.selfUserId);
    latest.push({
      narrow: dmNarrow(others.length ? others : [account.selfUserId]),
      lastId: ids.newest,
    });
  }
  latest.sort((a, b) => b.lastId - a.lastId);
  let result = latest
    .slice(0, limit)
    .map(({ narrow }) => ({ narrowKey: narrowKey(narrow), narrow }));
  if (
    hit &&
    hit.result.length === result.length &&
    hit.result.every((r, i) => r.narrowKey === result[i]!.narrowKey)
  )
    result = hit.result;
  memo.set(account.accountId, { messages: account.messages, result, limit });
  return result;
}
