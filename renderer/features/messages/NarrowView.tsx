// A narrow on screen: its title and actions, the message list, who is typing, and compose pointed
// at the conversation.
import { useMemo } from 'react';
import { useShallow } from 'zustand/shallow';
import { useChatStore } from '../../store/hooks';
import { selectActiveAccount } from '../../store';
import { narrowKey, type Narrow } from '../../../shared/narrow';
import { MessageList } from './MessageList';
import { describeNarrow, dmIdsOf } from './narrow-info';
import { Compose, destinationForView, destinationOfMessage } from '../compose/Compose';
import { useUi } from '../../store/ui-store';
import { TypingIndicator } from '../people/TypingIndicator';
import { markNarrowRead } from '../sidebar/Sidebar';
import { api } from '../../bridge/api';

/**
 * All messages: main's one "mark all as read" (queued offline like other flag changes, and made
 * as the server's feature level asks); any other narrow: its unread messages, batch by batch.
 */
function markRead(accountId: string, narrow: Narrow): Promise<unknown> {
  return narrow.length === 0
    ? api().markAllAsRead({ accountId })
    : markNarrowRead(accountId, narrow);
}

export function NarrowView({
  accountId,
  narrow,
  anchor,
}: {
  accountId: string;
  narrow: Narrow;
  anchor?: number;
}) {
  // Only what the header, typing line and compose use: the title changes with a channel's or a
  // user's name, not with messages, unreads or typing elsewhere.
  const info = useChatStore(
    useShallow((s) => {
      const { title, streamId, topic, dmUserIds } = describeNarrow(narrow, selectActiveAccount(s));
      return { title, streamId, topic, dm: dmUserIds !== undefined };
    }),
  );
  const dmUserIds = useMemo(() => (info.dm ? dmIdsOf(narrow) : undefined), [info.dm, narrow]);
  const viewDestination = destinationForView(info.streamId, info.topic, dmUserIds);
  // A view of no one conversation (all messages, mentions, a search) points compose at the selected
  // message's conversation, or at nothing, as the web app does; never at the previous view's.
  const selectedId = useUi((s) => (viewDestination ? null : s.selectedMessageId));
  const selected = useChatStore((s) =>
    selectedId === null ? undefined : selectActiveAccount(s)?.messages.byId.get(selectedId),
  );
  const selfUserId = useChatStore((s) => selectActiveAccount(s)?.selfUserId ?? 0);
  const defaultDestination = viewDestination ?? destinationOfMessage(selected, selfUserId);
  const key = narrowKey(narrow);
  return (
    <section className="narrow-view" aria-label={info.title}>
      <header className="narrow-header">
        <h1>{info.title}</h1>
        {/* Not over search results, as in the web app: "all" would read as every message. */}
        {narrow.some((term) => term.operator === 'search') ? null : (
          <button
            type="button"
            onClick={() => void markRead(accountId, narrow).catch(() => undefined)}
          >
            Mark all as read
          </button>
        )}
      </header>
      <MessageList
        key={`${accountId}:${key}`}
        accountId={accountId}
        narrowKey={key}
        anchor={anchor}
      />
      <TypingIndicator
        accountId={accountId}
        streamId={info.streamId}
        topic={info.topic}
        dmUserIds={dmUserIds}
      />
      <Compose accountId={accountId} defaultDestination={defaultDestination} viewNarrowKey={key} />
    </section>
  );
}
