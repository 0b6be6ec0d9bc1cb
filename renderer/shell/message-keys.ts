// What the message keys do to the message they act on (the selected one, else the last in view,
// as the web app's pointer): reply (r), star (Ctrl+S), react with 👍 (+) or toggle the first
// reaction (=), mute or unmute its topic (Shift+M), reply to its sender (Shift+R) or mentioning
// them (@), quote it (>), show its sender's card (u), and `s`, which goes to its conversation, then
// from a topic to the channel.
import type { ChatStore, AccountState } from '../store';
import { selectActiveAccount } from '../store';
import type { MessageWithFlags } from '../../shared/api/types';
import { channelNarrow } from '../../shared/narrow';
import { api } from '../bridge/api';
import { navigate, requestCompose, uiStore, type ComposeDestination } from '../store/ui-store';
import { destinationOfMessage } from '../features/compose/Compose';
import { isTopicMuted, topicVisibility } from '../store/slices/userTopics';
import { conversationOf, describeNarrow } from '../features/messages/narrow-info';
import { currentMessageId } from '../features/messages/selection-cursor';
import { toggleReaction } from '../features/messages/Reactions';
import { quoteAndReply } from '../features/messages/MessageActions';
import { setPolicyWithFeedback } from '../features/topics/topic-actions';
import { openUserPopover } from '../features/people/UserPopover';

const THUMBS_UP = '1f44d';
/** The public server's canonical name for U+1F44D. A literal: the emoji name table (140 KB) is
 * loaded only with the emoji picker, not with the app's first script. */
const THUMBS_UP_NAME = '+1';

interface Target {
  accountId: string;
  account: AccountState;
  message: MessageWithFlags;
}

/**
 * The message the keys act on, with its account: the open list's selected message or the last in
 * view (else the selection kept in the UI state); undefined when there is none.
 */
export function keyTarget(store: ChatStore): Target | undefined {
  const account = selectActiveAccount(store.getState());
  const id = currentMessageId() ?? uiStore.getState().selectedMessageId;
  const message = id === null ? undefined : account?.messages.byId.get(id);
  if (!account || !message) return undefined;
  // The key acts on it: it becomes the selected message, as the web app's pointer is.
  if (uiStore.getState().selectedMessageId !== message.id)
    uiStore.setState({ selectedMessageId: message.id });
  return { accountId: account.accountId, account, message };
}

/** Failures show nowhere else: the server's state (and so the view) simply stays as it was. */
const quietly = (request: Promise<unknown>) => void request.catch(() => undefined);

export function toggleStar(store: ChatStore): void {
  const t = keyTarget(store);
  if (!t) return;
  const starred = t.message.flags.includes('starred');
  quietly(
    api().updateFlags({
      accountId: t.accountId,
      messages: [t.message.id],
      op: starred ? 'remove' : 'add',
      flag: 'starred',
    }),
  );
}

/** `+`: adds 👍, or takes the user's 👍 back, as the web app toggles it. */
export function toggleThumbsUp(store: ChatStore): void {
  const t = keyTarget(store);
  if (!t) return;
  const emoji = {
    name: THUMBS_UP_NAME,
    code: THUMBS_UP,
    type: 'unicode_emoji' as const,
  };
  quietly(toggleReaction(t.accountId, t.message, emoji, t.account.selfUserId));
}

/** `=`: joins (or leaves) the message's first reaction; nothing when it has none. */
export function toggleFirstReaction(store: ChatStore): void {
  const t = keyTarget(store);
  const first = t?.message.reactions[0];
  if (!t || !first) return;
  const emoji = { name: first.emoji_name, code: first.emoji_code, type: first.reaction_type };
  quietly(toggleReaction(t.accountId, t.message, emoji, t.account.selfUserId));
}

/**
 * Shift+M: mutes the selected message's topic, or unmutes it when muted. In a muted channel the
 * topic is muted unless unmuted: the toggle there unmutes it, or takes the unmute back.
 */
export function toggleTopicMute(store: ChatStore): void {
  const t = keyTarget(store);
  if (!t || t.message.type !== 'stream') return;
  const { stream_id: streamId, subject: topic } = t.message;
  const channelMuted = t.account.channels.subscriptions.get(streamId)?.is_muted ?? false;
  const policy = topicVisibility(t.account.userTopics, streamId, topic);
  const next = channelMuted ? (policy === 2 ? 0 : 2) : isTopicMuted(policy, false) ? 0 : 1;
  const channelName = t.account.channels.channels.get(streamId)?.name ?? '';
  quietly(
    setPolicyWithFeedback({ accountId: t.accountId, streamId, topic, channelName }, next, policy),
  );
}

/**
 * `s`: from a topic view to its channel; from a direct-message conversation nowhere; elsewhere to
 * the selected message's conversation, at that message.
 */
export function toggleConversationView(store: ChatStore): void {
  const { route } = uiStore.getState();
  const account = selectActiveAccount(store.getState());
  const open = route.kind === 'narrow' ? describeNarrow(route.narrow, account) : undefined;
  if (open?.streamId !== undefined && open.topic !== undefined) {
    navigate({ kind: 'narrow', narrow: channelNarrow(open.streamId) });
    return;
  }
  if (open?.dmUserIds) return;
  const t = keyTarget(store);
  if (!t) return;
  navigate({
    kind: 'narrow',
    narrow: conversationOf(t.message, t.account.selfUserId),
    anchor: t.message.id,
  });
}

/**
 * Asks the open view's compose box for a reply to `to`, as the public web app does: the view stays
 * (a reply from All messages or a channel's feed is written there, addressed to the message's
 * conversation) and the message stays selected.
 */
function replyTo(to: ComposeDestination | null, text?: string): void {
  requestCompose('reply', text, to ?? undefined);
}

/** `r`: a reply in the message's conversation (with no message, in the open view's compose). */
export function replyToMessage(store: ChatStore): void {
  const t = keyTarget(store);
  if (t) replyTo(destinationOfMessage(t.message, t.account.selfUserId));
  else requestCompose('reply');
}

/** Shift+R: a direct message to the sender of the selected message. */
export function replyToSender(store: ChatStore): void {
  const t = keyTarget(store);
  if (!t) return;
  replyTo({ type: 'private', to: [t.message.sender_id] });
}

/** `@`: a reply in the message's conversation that starts by mentioning its sender. */
export function replyMentioningSender(store: ChatStore): void {
  const t = keyTarget(store);
  if (!t) return;
  const { sender_full_name: name, sender_id: id } = t.message;
  replyTo(destinationOfMessage(t.message, t.account.selfUserId), `@**${name}|${id}** `);
}

/** `>`: a reply that quotes the message, as its actions menu's "Quote and reply". */
export function quoteMessage(store: ChatStore): void {
  const t = keyTarget(store);
  if (t) void quoteAndReply(t.accountId, t.message, t.account.selfUserId);
}

/** `u`: the sender's card, beside their name (or the message, when its row shows no name). */
export function showSenderCard(store: ChatStore): void {
  const t = keyTarget(store);
  const row = t && document.querySelector<HTMLElement>(`[data-message-id="${t.message.id}"]`);
  if (!t || !row) return;
  openUserPopover(t.message.sender_id, row.querySelector<HTMLElement>('.sender') ?? row);
}
