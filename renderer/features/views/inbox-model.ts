// What the Inbox shows of the unread counts: the filter typed above it and the groups folded away,
// as in the public web app's Inbox. Pure, so the view stays a rendering of it.
import type { ChannelUnreads, TopicUnreads } from '../../store/selectors';
import { readKept, writeKept } from '../../lib/kept-choice';

/** The words of a filter, lower-cased; empty when it filters nothing. */
export function filterWords(filter: string): string[] {
  return filter.toLowerCase().split(/\s+/).filter(Boolean);
}

/** Whether every word occurs in `text` (the web app matches "channel topic" the same way). */
export function matchesWords(words: readonly string[], text: string): boolean {
  if (words.length === 0) return true;
  const lower = text.toLowerCase();
  return words.every((w) => lower.includes(w));
}

/** The topics of a channel the Inbox lists: unread, not muted, matching the filter. */
export function shownTopics(
  channel: ChannelUnreads,
  channelName: string,
  words: readonly string[],
): TopicUnreads[] {
  const shown: TopicUnreads[] = [];
  for (const t of channel.topics.values()) {
    if (t.muted || t.count === 0) continue;
    if (!matchesWords(words, `${channelName} ${t.topic}`)) continue;
    shown.push(t);
  }
  return shown;
}

/** The key a folded group is remembered by: a channel's id, or "dm" for direct messages. */
export type GroupKey = number | 'dm';

const COLLAPSED_KEY = 'tributary:inbox-collapsed';

/** The groups folded away, as this window last left them (kept across launches, like the web app). */
export function readCollapsed(): Set<GroupKey> {
  return readKept(
    COLLAPSED_KEY,
    (list) =>
      Array.isArray(list)
        ? new Set(list.filter((k): k is GroupKey => k === 'dm' || Number.isInteger(k)))
        : undefined,
    new Set(),
  );
}

export function writeCollapsed(collapsed: ReadonlySet<GroupKey>): void {
  writeKept(COLLAPSED_KEY, [...collapsed]);
}
