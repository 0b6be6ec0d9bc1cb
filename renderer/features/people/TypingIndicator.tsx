// "X is typing…" for the open conversation; expired entries are pruned on a timer.
import { useEffect } from 'react';
import { useChatActions, useChatStore, useTypers } from '../../store/hooks';
import {
  selectActiveAccount,
  typingKeyForChannel,
  typingKeyForDm,
  typingUsersAt,
} from '../../store';
import { userName } from '../messages/narrow-info';
import { clockNow } from '../../lib/format';

export function TypingIndicator({
  accountId,
  streamId,
  topic,
  dmUserIds,
}: {
  accountId: string;
  streamId?: number;
  topic?: string;
  dmUserIds?: number[];
}) {
  const selfUserId = useChatStore((s) => selectActiveAccount(s)?.selfUserId ?? 0);
  const actions = useChatActions();
  const key =
    streamId !== undefined && topic !== undefined
      ? typingKeyForChannel(streamId, topic)
      : dmUserIds
        ? typingKeyForDm(dmUserIds, selfUserId)
        : '';
  const typers = useTypers(key);
  useEffect(() => {
    if (!typers || typers.size === 0) return;
    const timer = setInterval(() => actions.pruneTyping(accountId), 2000);
    return () => clearInterval(timer);
  }, [typers, actions, accountId]);
  const ids = typingUsersAt(typers, clockNow());
  // One string, so only a typer's name change re-renders, not other store updates.
  const names = useChatStore((s) => {
    const account = selectActiveAccount(s);
    return ids.map((id) => userName(account, id)).join(', ');
  });
  return (
    <div className="typing" aria-live="polite">
      {ids.length > 0 ? `${names} ${ids.length === 1 ? 'is' : 'are'} typing…` : ''}
    </div>
  );
}
