// What the topic menus do (the sidebar's topic rows and the message list's recipient headers), as
// the public web app's topic menu does it, each through the public API:
// - move or rename: PATCH /messages/{id} with a topic and/or stream_id, a propagate_mode (this
//   message, this and later, all) and whether the notification bot tells the old and the new topic;
// - resolve / unresolve: the same request renaming every message to or from "✔ topic";
// - mark as unread: POST /messages/flags/narrow removing `read` from the whole topic, batch after
//   batch until the server reaches the newest message;
// - copy link: the web app's `#narrow/channel/ID-name/topic/…` link on the realm;
// - delete (administrators): main repeats POST /streams/{id}/delete_topic until the server says
//   complete; the topic leaves the lists at once and an open view of it goes to its channel.
// Nothing changes locally until the server's update_message or flags events arrive, so a request the
// server refuses (a time limit, a permission) leaves everything as it was.
import type { Query, QueryClient } from '@tanstack/react-query';
import type { AccountState } from '../../store';
import { replaceRoute, uiStore } from '../../store/ui-store';
import { describeNarrow } from '../messages/narrow-info';
import {
  type Narrow,
  channelNarrow,
  isTopicResolved,
  RESOLVED_TOPIC_PREFIX,
  topicNarrow,
  unresolvedTopicName,
} from '../../../shared/narrow';
import { topicFragment } from '../../../shared/narrow/link';
import { api } from '../../bridge/api';
import { showFeedback } from '../../lib/ui/feedback';

export type PropagateMode = 'change_one' | 'change_later' | 'change_all';

export interface TopicRef {
  accountId: string;
  streamId: number;
  topic: string;
}

/** The topic's link on its realm, as "Copy link to topic" in the public web app writes it. */
export function topicLink(site: string, streamId: number, channelName: string, topic: string) {
  return `${site.replace(/\/$/, '')}/${topicFragment(streamId, channelName, topic)}`;
}

/** The name a topic gets when resolved, or back when unresolved. */
export function toggledResolution(topic: string): string {
  return isTopicResolved(topic) ? unresolvedTopicName(topic) : RESOLVED_TOPIC_PREFIX + topic;
}

/**
 * A message of the topic to address a whole-topic edit through (the API edits topics through one
 * of their messages): the newest stored one, else the newest the server has.
 */
export async function topicMessageId(
  t: TopicRef,
  account: AccountState | undefined,
): Promise<number> {
  const stored = account?.messages.conversations.channels.get(t.streamId)?.get(t.topic);
  if (stored && stored.size > 0) return stored.newest;
  const res = await api().getMessages({
    accountId: t.accountId,
    anchor: 'newest',
    numBefore: 1,
    numAfter: 0,
    narrow: topicNarrow(t.streamId, t.topic),
  });
  const id = res.messages.at(-1)?.id;
  if (id === undefined) throw new Error('This topic has no messages to move.');
  return id;
}

export interface MoveRequest {
  accountId: string;
  messageId: number;
  /** The channel the messages are in now, and where they go (the same when only renamed). */
  fromStreamId: number;
  toStreamId: number;
  fromTopic: string;
  topic: string;
  propagateMode: PropagateMode;
  notifyOld: boolean;
  notifyNew: boolean;
}

export function moveMessages(r: MoveRequest): Promise<unknown> {
  return api().editMessage({
    accountId: r.accountId,
    messageId: r.messageId,
    // Only what changes: the same topic sent with a channel move would read as a rename.
    topic: r.topic === r.fromTopic ? undefined : r.topic,
    streamId: r.toStreamId === r.fromStreamId ? undefined : r.toStreamId,
    propagateMode: r.propagateMode,
    sendNotificationToOldThread: r.notifyOld,
    sendNotificationToNewThread: r.notifyNew,
  });
}

/** Resolves or unresolves the whole topic, as the web app does (the notice goes to the topic). */
export function toggleResolved(accountId: string, messageId: number, topic: string) {
  return api().editMessage({
    accountId,
    messageId,
    topic: toggledResolution(topic),
    propagateMode: 'change_all',
    sendNotificationToOldThread: false,
    sendNotificationToNewThread: true,
  });
}

/** Marks every message of the topic unread (the public web app's "Mark as unread"). */
export function markTopicUnread(t: TopicRef) {
  return updateWholeNarrow(t.accountId, topicNarrow(t.streamId, t.topic), 'remove');
}

/** Sets the user's visibility policy of a topic (0 none, 1 muted, 2 unmuted, 3 followed). */
export function setPolicy(
  accountId: string,
  streamId: number,
  topic: string,
  visibilityPolicy: number,
) {
  return api().setUserTopic({ accountId, streamId, topic, visibilityPolicy });
}

/**
 * Sets a topic's visibility policy, and after a mute offers to undo it, as the public web app's
 * feedback widget does (a mute hides the topic's messages, so it is easy to regret).
 */
export async function setPolicyWithFeedback(
  t: TopicRef & { channelName: string },
  next: number,
  before: number,
): Promise<void> {
  await setPolicy(t.accountId, t.streamId, t.topic, next);
  if (next !== 1) return;
  showFeedback({
    title: 'Topic muted',
    text: `You muted #${t.channelName} > ${t.topic || '(no topic)'}.`,
    undo: { label: 'Undo mute', run: () => setPolicy(t.accountId, t.streamId, t.topic, before) },
  });
}

/** Marks every unread message of a narrow (a channel, a topic) read. */
export function markNarrowRead(accountId: string, narrow: Narrow) {
  return updateWholeNarrow(accountId, [...narrow, { operator: 'is', operand: 'unread' }], 'add');
}

/** Messages the server is asked to flag per request, as the public web app asks. */
const FLAG_BATCH = 1000;

/**
 * Adds or removes `read` on every message of a narrow, batch after batch, as the public web app does:
 * each request goes on after the last message the previous one processed, until the server says it
 * reached the newest. Resolves with the last answer.
 */
async function updateWholeNarrow(accountId: string, narrow: Narrow, op: 'add' | 'remove') {
  let anchor: number | 'oldest' = 'oldest';
  for (;;) {
    const answer = await api().updateFlagsForNarrow({
      accountId,
      anchor,
      includeAnchor: anchor === 'oldest',
      numBefore: 0,
      numAfter: FLAG_BATCH,
      narrow,
      op,
      flag: 'read',
    });
    const last = answer.last_processed_id;
    if (answer.found_newest || last === null || last === anchor) return answer;
    anchor = last;
  }
}

type TopicsAnswer = { topics: Array<{ name: string; max_id: number }> } | undefined;

/**
 * Asks the server again for a channel's topics (the sidebar's and compose's lists), first dropping
 * `gone` from what they show, when a topic is known to have no messages left.
 */
export async function refreshChannelTopics(
  queryClient: QueryClient,
  accountId: string,
  streamId: number,
  gone?: string,
): Promise<void> {
  const inChannel = (key: readonly unknown[]) => key[1] === accountId && key[3] === streamId;
  const filter = { queryKey: ['channel-topics'], predicate: (q: Query) => inChannel(q.queryKey) };
  // A request still on its way was asked before the change: its answer would bring the old name
  // back (a first fetch is not replaced by a refetch, it is joined).
  await queryClient.cancelQueries(filter);
  if (gone !== undefined) {
    const name = gone.toLowerCase();
    queryClient.setQueriesData<TopicsAnswer>(
      filter,
      (data) =>
        data && { ...data, topics: data.topics.filter((t) => t.name.toLowerCase() !== name) },
    );
  }
  await queryClient.invalidateQueries(filter);
}

/** Whether a view's narrow is that topic (names match without regard to case, as topics do). */
export function isOpenTopic(
  narrow: Narrow,
  account: AccountState | undefined,
  streamId: number,
  topic: string,
): boolean {
  const open = describeNarrow(narrow, account);
  return (
    open.conversation &&
    open.streamId === streamId &&
    open.topic?.toLowerCase() === topic.toLowerCase()
  );
}

/**
 * Deletes every message of a topic (main repeats the request until the server is done), then takes
 * the topic out of the lists and, when it is the open view, shows its channel instead of an empty
 * topic.
 */
export async function deleteTopic(
  t: TopicRef,
  queryClient: QueryClient,
  account: () => AccountState | undefined,
): Promise<void> {
  await api().deleteTopic({ accountId: t.accountId, streamId: t.streamId, topic: t.topic });
  void refreshChannelTopics(queryClient, t.accountId, t.streamId, t.topic);
  const { route } = uiStore.getState();
  if (route.kind === 'narrow' && isOpenTopic(route.narrow, account(), t.streamId, t.topic)) {
    replaceRoute({ kind: 'narrow', narrow: channelNarrow(t.streamId) });
  }
}
