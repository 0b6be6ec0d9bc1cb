// The user's per-topic visibility policies (muted, unmuted in a muted channel, followed).
// Topic names compare case-insensitively, as on the server.
import type { UserTopic, VisibilityPolicy } from '../../../shared/api/types';
import type { ServerEvent, ServerEventType } from '../../../shared/api/events';
import type { EventContext } from '../context';
import type { SliceDraft } from '../sliceDraft';

export interface UserTopicsState {
  readonly version: number;
  /** channel id -> lower-cased topic -> policy record */
  readonly byChannel: Map<number, Map<string, UserTopic>>;
}

function put(s: UserTopicsState, t: UserTopic): void {
  const key = t.topic_name.toLowerCase();
  let topics = s.byChannel.get(t.stream_id);
  if (t.visibility_policy === 0) {
    topics?.delete(key);
    if (topics?.size === 0) s.byChannel.delete(t.stream_id);
    return;
  }
  if (!topics) s.byChannel.set(t.stream_id, (topics = new Map()));
  topics.set(key, t);
}

export function userTopicsFrom(list: readonly UserTopic[] | undefined): UserTopicsState {
  const s: UserTopicsState = { version: 0, byChannel: new Map() };
  for (const t of list ?? []) put(s, t);
  return s;
}

export function topicVisibility(
  s: UserTopicsState,
  streamId: number,
  topic: string,
): VisibilityPolicy {
  return s.byChannel.get(streamId)?.get(topic.toLowerCase())?.visibility_policy ?? 0;
}

/**
 * Whether a topic with this policy is muted for the user: muted itself (1), or in a muted channel
 * and neither unmuted (2) nor followed (3). The unread counts and the sidebar both decide with it.
 */
export function isTopicMuted(policy: VisibilityPolicy, channelMuted: boolean): boolean {
  return policy === 1 || (channelMuted && policy !== 2 && policy !== 3);
}

/** The event types handleUserTopicsEvent reacts to (the dispatcher calls it for these only). */
export const userTopicsEventTypes: readonly ServerEventType[] = ['user_topic'];

export function handleUserTopicsEvent(
  d: SliceDraft<UserTopicsState>,
  ev: ServerEvent,
  _ctx: EventContext,
): void {
  if (ev.type !== 'user_topic') return;
  const { stream_id, topic_name, last_updated, visibility_policy } = ev;
  const current = topicVisibility(d.read, stream_id, topic_name);
  if (current === visibility_policy && visibility_policy === 0) return;
  put(d.write, { stream_id, topic_name, last_updated, visibility_policy });
}
