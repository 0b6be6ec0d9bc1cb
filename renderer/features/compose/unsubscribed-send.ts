// A message sent to a channel the sender is not subscribed to (a public channel, as the web app
// allows): the public server keeps it for them only "historically" and sends their queue no
// message event, so its echo would say "Sending…" for ever. The web app keeps its echo as the
// message; here the message is fetched by its id and shown as its event would have been.
import { topicNarrow } from '../../../shared/narrow';
import type { AccountState, ChatState } from '../../store';
import { api } from '../../bridge/api';

/** Whether no message event will follow a send to this channel: the sender is not subscribed. */
export function sentWithoutEvent(account: AccountState | undefined, streamId: number): boolean {
  return !!account && !account.channels.subscriptions.has(streamId);
}

/** Fetches the sent message and applies it; a failure leaves the echo as it was. */
export async function showSentMessage(
  actions: Pick<ChatState, 'addSentMessage'>,
  accountId: string,
  localId: string,
  sent: { messageId: number; streamId: number; topic: string },
): Promise<void> {
  const res = await api().getMessages({
    accountId,
    anchor: sent.messageId,
    numBefore: 0,
    numAfter: 0,
    // A channel narrow: "all messages" holds only the user's own rows, which this one lacks.
    narrow: topicNarrow(sent.streamId, sent.topic),
  });
  const message = res.messages.find((m) => m.id === sent.messageId);
  if (message) actions.addSentMessage(accountId, localId, message);
}
