// Where clicking a channel in the sidebar goes, by the user's web_channel_default_view (as the public
// web app): 1 the top topic (the most recently active one that is not muted), 4 the top topic with
// unread messages (else the top topic), 2 the channel feed, 3 the channel's topics (here: the channel
// feed, whose topics the sidebar lists under the channel). A channel without topics opens its feed.
import { channelNarrow, topicNarrow, type Narrow } from '../../../shared/narrow';
import type { TopicItem } from './sidebar-model';

export const CHANNEL_VIEW = { topTopic: 1, feed: 2, topicList: 3, topUnreadTopic: 4 } as const;

/** Whether the view needs the channel's topics to decide (the caller fetches them first). */
export function needsTopics(view: number): boolean {
  return view === CHANNEL_VIEW.topTopic || view === CHANNEL_VIEW.topUnreadTopic;
}

/** `topics`: the channel's topics newest first, as the sidebar lists them. */
export function channelClickNarrow(
  streamId: number,
  view: number,
  topics: readonly TopicItem[],
): Narrow {
  if (!needsTopics(view)) return channelNarrow(streamId);
  const listed = topics.filter((t) => !t.muted);
  const top =
    (view === CHANNEL_VIEW.topUnreadTopic ? listed.find((t) => t.unread > 0) : undefined) ??
    listed[0];
  return top ? topicNarrow(streamId, top.name) : channelNarrow(streamId);
}
