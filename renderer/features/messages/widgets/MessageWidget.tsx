// A message's widget (poll or to-do list) in place of its text, as the web app shows /poll and
// /todo messages. The widget is rebuilt from the message's submessages, which the store keeps
// current from submessage events, so every reader's votes and tasks appear live.
import { useMemo, type ReactNode } from 'react';
import type { MessageWithFlags } from '../../../../shared/api/types';
import { widgetFromSubmessages } from '../../../../shared/widgets/widget';
import { useChatStore } from '../../../store/hooks';
import { selectActiveAccount } from '../../../store';
import { PollWidget } from './PollWidget';
import { TodoWidget } from './TodoWidget';
import './widgets.css';

function MessageWidget({
  accountId,
  message,
  fallback,
}: {
  accountId: string;
  message: MessageWithFlags;
  fallback: ReactNode;
}) {
  const selfUserId = useChatStore((s) => selectActiveAccount(s)?.selfUserId ?? 0);
  const { submessages, sender_id: senderId } = message;
  const widget = useMemo(
    () => widgetFromSubmessages(senderId, submessages),
    [senderId, submessages],
  );
  // Submessages that make no widget this app knows: the message's text, as the web app does.
  if (!widget) return fallback;
  return widget.widgetType === 'poll' ? (
    <PollWidget
      accountId={accountId}
      messageId={message.id}
      poll={widget}
      selfUserId={selfUserId}
    />
  ) : (
    <TodoWidget
      accountId={accountId}
      messageId={message.id}
      todo={widget}
      selfUserId={selfUserId}
    />
  );
}

/** The message's content box, or its widget when it has submessages. */
export function withWidget(accountId: string, message: MessageWithFlags, content: ReactNode) {
  // Older servers and local echoes may carry no submessages at all.
  if (!message.submessages?.length) return content;
  return <MessageWidget accountId={accountId} message={message} fallback={content} />;
}
