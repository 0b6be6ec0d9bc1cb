// A narrow on screen: its title and actions, the message list, who is typing, and compose pointed
// at the conversation.
import { useChatStore } from '../../store/hooks';
import { selectActiveAccount } from '../../store';
import { narrowKey, type Narrow } from '../../../shared/narrow';
import { MessageList } from './MessageList';
import { describeNarrow } from './narrow-info';
import { Compose, destinationForView } from '../compose/Compose';
import { TypingIndicator } from '../people/TypingIndicator';
import { markNarrowRead } from '../sidebar/Sidebar';

export function NarrowView({
  accountId,
  narrow,
  anchor,
}: {
  accountId: string;
  narrow: Narrow;
  anchor?: number;
}) {
  const account = useChatStore(selectActiveAccount);
  const key = narrowKey(narrow);
  const info = describeNarrow(narrow, account);
  return (
    <section className="narrow-view" aria-label={info.title}>
      <header className="narrow-header">
        <h1>{info.title}</h1>
        <button
          type="button"
          onClick={() => void markNarrowRead(accountId, narrow).catch(() => undefined)}
        >
          Mark all as read
        </button>
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
        dmUserIds={info.dmUserIds}
      />
      <Compose
        accountId={accountId}
        defaultDestination={destinationForView(info.streamId, info.topic, info.dmUserIds)}
      />
    </section>
  );
}
