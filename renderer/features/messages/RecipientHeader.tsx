// The bar above a conversation's messages in the list: the channel and topic, or the people of a
// direct message, with the day of the message under it (as the public app's recipient bar). Also
// drawn for a local echo, from its destination, and as the list's sticky header. A channel's bar
// has the topic menu (features/topics), as the public web app's recipient bar does.
import { useChatStore } from '../../store/hooks';
import { selectActiveAccount } from '../../store';
import type { MessageWithFlags } from '../../../shared/api/types';
import type { LocalEchoDestination } from '../../store';
import { channelNarrow, dmNarrow, topicNarrow } from '../../../shared/narrow';
import { dayLabel } from '../../lib/format';
import { navigate } from '../../store/ui-store';
import { TopicMenu } from '../topics/TopicMenu';

/** The day of a message, at the right end of its recipient bar. */
function RecipientDate({ timestamp }: { timestamp: number }) {
  return (
    <time className="recipient-date" dateTime={new Date(timestamp * 1000).toISOString()}>
      {dayLabel(timestamp)}
    </time>
  );
}

function ChannelHeader({
  streamId,
  topic,
  topicHtml,
  fallbackName,
  timestamp,
  messageId,
}: {
  streamId: number;
  topic: string;
  /** Sanitized HTML of the topic with a search's matched words marked. */
  topicHtml?: string;
  fallbackName: string;
  timestamp: number;
  /** The first message under the bar (none for a local echo): a move may start at it. */
  messageId?: number;
}) {
  const accountId = useChatStore((s) => s.activeAccountId);
  const color = useChatStore(
    (s) => selectActiveAccount(s)?.channels.subscriptions.get(streamId)?.color,
  );
  const channelName = useChatStore(
    (s) => selectActiveAccount(s)?.channels.channels.get(streamId)?.name,
  );
  return (
    <div className="recipient-header" style={{ borderLeftColor: color ?? '#888' }}>
      <button
        type="button"
        className="link"
        onClick={() => navigate({ kind: 'narrow', narrow: channelNarrow(streamId) })}
      >
        #{channelName ?? fallbackName}
      </button>
      <span aria-hidden="true"> › </span>
      <button
        type="button"
        className="link"
        onClick={() => navigate({ kind: 'narrow', narrow: topicNarrow(streamId, topic) })}
      >
        {topicHtml ? (
          // Sanitized by the row (lib/sanitize.ts): the server's escaped topic and highlight spans.
          <span dangerouslySetInnerHTML={{ __html: topicHtml }} />
        ) : (
          topic || '(no topic)'
        )}
      </button>
      {accountId ? (
        <TopicMenu accountId={accountId} streamId={streamId} topic={topic} messageId={messageId} />
      ) : null}
      <RecipientDate timestamp={timestamp} />
    </div>
  );
}

function DirectHeader({
  recipients,
  timestamp,
}: {
  /** Everyone in the conversation, self included or not. */
  recipients: ReadonlyArray<{ id: number; full_name: string }>;
  timestamp: number;
}) {
  const self = useChatStore((s) => selectActiveAccount(s)?.selfUserId ?? 0);
  const others = recipients.filter((r) => r.id !== self);
  return (
    <div className="recipient-header dm">
      <button
        type="button"
        className="link"
        onClick={() =>
          navigate({
            kind: 'narrow',
            narrow: dmNarrow(others.length ? others.map((r) => r.id) : [self]),
          })
        }
      >
        {others.length === 0
          ? 'You (notes to self)'
          : `You and ${others.map((r) => r.full_name).join(', ')}`}
      </button>
      <RecipientDate timestamp={timestamp} />
    </div>
  );
}

export function RecipientHeader({
  message,
  topicHtml,
}: {
  message: MessageWithFlags;
  topicHtml?: string;
}) {
  if (message.type === 'stream')
    return (
      <ChannelHeader
        streamId={message.stream_id}
        topic={message.subject}
        topicHtml={topicHtml}
        fallbackName={message.display_recipient}
        timestamp={message.timestamp}
        messageId={message.id}
      />
    );
  return <DirectHeader recipients={message.display_recipient} timestamp={message.timestamp} />;
}

/** The recipient bar of a message not yet confirmed by the server, from where it is going. */
export function EchoRecipientHeader({
  destination,
  createdAt,
}: {
  destination: LocalEchoDestination;
  /** Milliseconds. */
  createdAt: number;
}) {
  const users = useChatStore((s) => selectActiveAccount(s)?.users.users);
  const timestamp = Math.floor(createdAt / 1000);
  if (destination.type === 'stream')
    return (
      <ChannelHeader
        streamId={destination.streamId}
        topic={destination.topic}
        fallbackName={`channel ${destination.streamId}`}
        timestamp={timestamp}
      />
    );
  const recipients = destination.to.map((id) => ({
    id,
    full_name: users?.get(id)?.full_name ?? `User ${id}`,
  }));
  return <DirectHeader recipients={recipients} timestamp={timestamp} />;
}
