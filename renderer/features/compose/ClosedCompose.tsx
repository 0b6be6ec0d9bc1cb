// The compose box while closed: the public web app's bar under the messages. One button opens a
// message to the conversation on screen (its label names it), one starts a new topic, one a
// direct message. Closed, the box takes one row of the window instead of a third of it at 800x600.
import type { DragEvent } from 'react';
import { MessageSquarePlus, MessagesSquare } from 'lucide-react';
import type { ChannelsState } from '../../store/slices/channels';
import type { UsersState } from '../../store/slices/users';
import type { Destination } from './drafts';

export interface ClosedComposeProps {
  replyLabel: string;
  /** The conversation on screen has a draft (kept when the box was closed). */
  hasDraft: boolean;
  onReply: () => void;
  onNewTopic: () => void;
  onNewDirect: () => void;
  /** Files dropped on the bar open the box and upload there, as on the open box. */
  dropHandlers: {
    onDragOver: (e: DragEvent) => void;
    onDragLeave: () => void;
    onDrop: (e: DragEvent) => void;
  };
  dragging: boolean;
}

export function ClosedCompose(props: ClosedComposeProps) {
  const { dropHandlers } = props;
  return (
    <div
      role="group"
      aria-label="Compose"
      className={`compose compose-closed${props.dragging ? ' dragging' : ''}`}
      onDragOver={dropHandlers.onDragOver}
      onDragLeave={dropHandlers.onDragLeave}
      onDrop={(e) => {
        props.onReply();
        dropHandlers.onDrop(e);
      }}
    >
      <button
        type="button"
        className="compose-reply"
        data-testid="compose-reply"
        aria-keyshortcuts="R"
        title={`${props.replyLabel} (r)`}
        onClick={props.onReply}
      >
        <span className="compose-reply-label">{props.replyLabel}</span>
        {props.hasDraft ? <span className="compose-draft-tag">Draft</span> : null}
      </button>
      {[
        {
          key: 'C',
          label: 'New topic',
          hint: 'Start new conversation',
          Icon: MessageSquarePlus,
          onClick: props.onNewTopic,
        },
        {
          key: 'X',
          label: 'New direct message',
          hint: 'New direct message',
          Icon: MessagesSquare,
          onClick: props.onNewDirect,
        },
      ].map(({ key, label, hint, Icon, onClick }) => (
        <button
          key={key}
          type="button"
          className="icon-text-button"
          aria-keyshortcuts={key}
          title={`${hint} (${key.toLowerCase()})`}
          onClick={onClick}
        >
          <Icon aria-hidden size={16} />
          <span className="button-text">{label}</span>
        </button>
      ))}
    </div>
  );
}

/**
 * What the bar's first button says: the conversation a message goes to when opened from here
 * ("Message #design > dark mode", "Message Emma Member"), or "New message" where the view names none.
 */
export function replyLabel(
  destination: Destination | null,
  channels: ChannelsState | undefined,
  users: UsersState | undefined,
  selfUserId: number,
): string {
  if (!destination) return 'New message';
  if (destination.type === 'stream') {
    const name =
      channels?.subscriptions.get(destination.streamId)?.name ??
      channels?.channels.get(destination.streamId)?.name;
    if (!name) return 'New message';
    return destination.topic ? `Message #${name} > ${destination.topic}` : `Message #${name}`;
  }
  const others = destination.to.filter((id) => id !== selfUserId);
  const names = (others.length ? others : [selfUserId]).map(
    (id) => users?.users.get(id)?.full_name ?? 'Unknown user',
  );
  return `Message ${names.join(', ')}`;
}
