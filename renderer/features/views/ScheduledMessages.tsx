// Scheduled messages: the user's messages the server will send later, soonest first, with where
// and when each goes; edited in place (text and time) or deleted. Kept live by scheduled_messages
// events, so a delivered one leaves the list on its own.
import { useMemo, useState } from 'react';
import type { ScheduledMessage } from '../../../shared/api/types';
import { dmNarrow, topicNarrow } from '../../../shared/narrow';
import { useAccountNames, useChatStore, useTwentyFourHour } from '../../store/hooks';
import { selectActiveAccount } from '../../store';
import { scheduledMessagesInOrder } from '../../store/slices/scheduledMessages';
import type { AccountNames } from '../../store/account';
import { api, errorText } from '../../bridge/api';
import { navigate } from '../../store/ui-store';
import { formatDateTime } from '../../lib/format';
import { userName } from '../messages/narrow-info';
import { messageBodyHtml } from '../messages/rich-content';
import { handleContentClick, handleContentKeyDown } from '../messages/content-controls';
import { EditScheduled } from './EditScheduled';
import { Reminders } from './Reminders';

function destinationTitle(account: AccountNames | undefined, m: ScheduledMessage): string {
  if (m.type === 'stream') {
    const id = m.to as number;
    return `#${account?.channels.channels.get(id)?.name ?? id} > ${m.topic ?? ''}`;
  }
  return (m.to as number[]).map((id) => userName(account, id)).join(', ');
}

export function ScheduledMessages({ accountId }: { accountId: string }) {
  const state = useChatStore((s) => selectActiveAccount(s)?.scheduledMessages);
  const account = useAccountNames();
  const messages = useMemo(() => (state ? scheduledMessagesInOrder(state) : []), [state]);
  return (
    <section className="view scheduled-messages" aria-label="Scheduled messages">
      <h1>Scheduled messages</h1>
      {messages.length === 0 ? (
        <>
          <p>No scheduled messages.</p>
          <p className="muted">
            To send a message later, choose Schedule beside Send in the compose box.
          </p>
        </>
      ) : null}
      <ul>
        {messages.map((m) => (
          <ScheduledItem
            key={m.scheduled_message_id}
            accountId={accountId}
            message={m}
            title={destinationTitle(account, m)}
          />
        ))}
      </ul>
      <Reminders accountId={accountId} />
    </section>
  );
}

function ScheduledItem({
  accountId,
  message,
  title,
}: {
  accountId: string;
  message: ScheduledMessage;
  title: string;
}) {
  const [editing, setEditing] = useState(false);
  const twentyFourHour = useTwentyFourHour();
  const [error, setError] = useState<string | null>(null);
  const id = message.scheduled_message_id;
  const run = (p: Promise<unknown>, after?: () => void) => {
    setError(null);
    p.then(after).catch((e: unknown) => setError(errorText(e)));
  };
  return (
    <li data-testid="scheduled-message" className={message.failed ? 'failed' : undefined}>
      <div className="scheduled-head">
        <button
          type="button"
          className="link"
          onClick={() =>
            navigate({
              kind: 'narrow',
              narrow:
                message.type === 'stream'
                  ? topicNarrow(message.to as number, message.topic ?? '')
                  : dmNarrow(message.to as number[]),
            })
          }
        >
          {title}
        </button>
        <time dateTime={new Date(message.scheduled_delivery_timestamp * 1000).toISOString()}>
          {formatDateTime(message.scheduled_delivery_timestamp, twentyFourHour)}
        </time>
        {message.failed ? <span className="badge error">Not sent</span> : null}
      </div>
      {editing ? (
        <EditScheduled
          label="Edit scheduled message"
          timeLabel="Send at"
          content={message.content}
          at={message.scheduled_delivery_timestamp}
          onCancel={() => setEditing(false)}
          onSave={(content, deliverAt) =>
            run(
              api().editScheduledMessage({
                accountId,
                scheduledMessageId: id,
                message:
                  message.type === 'stream'
                    ? {
                        type: 'channel',
                        to: message.to as number,
                        topic: message.topic ?? '',
                        content,
                      }
                    : { type: 'direct', to: message.to as number[], content },
                deliverAt,
              }),
              () => setEditing(false),
            )
          }
        />
      ) : (
        <>
          <div
            className="content draft-content"
            onClick={handleContentClick}
            onKeyDown={handleContentKeyDown}
            // The server's rendering, sanitized by DOMPurify (lib/sanitize.ts) as message rows are.
            dangerouslySetInnerHTML={{
              __html: messageBodyHtml(message.rendered_content, accountId),
            }}
          />
          <div className="scheduled-actions">
            <button type="button" onClick={() => setEditing(true)}>
              Edit
            </button>
            <button
              type="button"
              aria-label={`Delete scheduled message to ${title}`}
              onClick={() =>
                run(api().deleteScheduledMessage({ accountId, scheduledMessageId: id }))
              }
            >
              Delete
            </button>
          </div>
        </>
      )}
      {error ? (
        <p role="alert" className="error">
          {error}
        </p>
      ) : null}
    </li>
  );
}
