// Message-derived register state: unread_msgs (api-notes §1.3), starred_messages,
// recent_private_conversations and max_message_id. Reads the message tables only; messages,
// flags and their events belong to the message resources.
import type { Db } from '../../db';
import type { ResourceModule } from '../module';
import type { AuthUser, RealmContext } from '../../realm/context';
import { LIMITS } from '../../config';
import { MessageFlag } from '../../db/flags';
import { topicForClient } from './messages-rules';

interface UnreadGroup {
  type: string;
  channel_id: number | null;
  topic: string;
  user_ids: string | null;
  first: number;
  n: number;
  /** The group's message ids, ascending, comma-separated (as every list below). */
  ids: string;
  /** Those that mention the user by name: always counted as mentions. */
  mentioned: string | null;
  /** Those that mention everyone or the topic only: mentions unless the topic is muted. */
  wildcard: string | null;
}

const MENTION_BITS =
  MessageFlag.mentioned |
  MessageFlag.stream_wildcard_mentioned |
  MessageFlag.topic_wildcard_mentioned;

/** The user's unread rows, newest first; read from the covering index user_messages_unread. */
export const UNREAD_ROWS_SQL = `SELECT um.message_id, um.flags, m.type, m.channel_id, m.topic, m.sender_id, r.user_ids
   FROM user_messages um
   JOIN messages m ON m.id = um.message_id
   JOIN recipients r ON r.id = m.recipient_id
   LEFT JOIN subscriptions s ON s.user_id = um.user_id AND s.channel_id = m.channel_id
  WHERE um.user_id = ? AND (um.flags & 1) = 0
    AND (m.type = 'private' OR s.active = 1)
  ORDER BY um.message_id DESC LIMIT ?`;

/**
 * The same rows grouped by conversation (a channel's exact topic, or a direct conversation), each
 * group's ids as text, oldest group first. A large organization's owner has 20,000 unread rows in
 * 2,000 topics: read as 20,000 row objects and grouped in JavaScript, they were the largest part
 * of a first register's unread_msgs (docs/benchmarks.md, sixteenth pass).
 */
const UNREAD_GROUPS_SQL = `SELECT type, channel_id, topic, user_ids, MIN(message_id) AS first,
       COUNT(*) AS n,
       group_concat(message_id, ',' ORDER BY message_id) AS ids,
       group_concat(CASE WHEN flags & ${MessageFlag.mentioned} THEN message_id END, ','
                    ORDER BY message_id) AS mentioned,
       group_concat(CASE WHEN (flags & ${MessageFlag.mentioned}) = 0 AND flags & ${MENTION_BITS}
                    THEN message_id END, ',' ORDER BY message_id) AS wildcard
  FROM (${UNREAD_ROWS_SQL})
 GROUP BY channel_id, topic, user_ids
 ORDER BY first`;

/**
 * The user's starred message ids, from the partial index user_messages_starred. Named: without
 * statistics the planner takes the primary key, which reads every one of the user's rows to find
 * the starred few (a large organization's owner: 156,199 rows for 1,301 ids, 21-29 against 4-7 ms
 * of CPU on a fresh connection; docs/benchmarks.md, thirteenth pass).
 */
export const STARRED_IDS_SQL = `SELECT message_id FROM user_messages INDEXED BY user_messages_starred
  WHERE user_id = ? AND (flags & 2) <> 0 ORDER BY message_id`;

const idList = (text: string | null): number[] => (text ? text.split(',').map(Number) : []);

/** `to` with `more` (both ascending) in order. */
const mergeIds = (to: number[], more: number[]): void => {
  const last = to[to.length - 1];
  to.push(...more);
  if (last !== undefined && more.length > 0 && more[0] < last) to.sort((a, b) => a - b);
};

/** Whether an unread message in a channel's topic is muted for the user (not counted). */
export function unreadMuting(
  db: Db,
  userId: number,
): (channelId: number, topic: string) => boolean {
  const mutedChannels = new Set(
    db
      .prepare<[number], { channel_id: number }>(
        'SELECT channel_id FROM subscriptions WHERE user_id = ? AND active = 1 AND is_muted = 1',
      )
      .all(userId)
      .map((r) => r.channel_id),
  );
  const topicPolicy = new Map<string, number>();
  for (const row of db
    .prepare<[number], { channel_id: number; topic_name: string; visibility_policy: number }>(
      'SELECT channel_id, topic_name, visibility_policy FROM user_topics WHERE user_id = ?',
    )
    .all(userId)) {
    topicPolicy.set(
      `${row.channel_id}\u0000${row.topic_name.toLowerCase()}`,
      row.visibility_policy,
    );
  }
  return (channelId, topic) => {
    const policy = topicPolicy.get(`${channelId}\u0000${topic.toLowerCase()}`);
    if (mutedChannels.has(channelId)) return policy !== 2 && policy !== 3;
    return policy === 1;
  };
}

/** unread_msgs as it is built: each conversation's ids ascending, in order of its oldest. */
export interface UnreadParts {
  count: number;
  pms: Map<number, number[]>;
  /** By channel and topic in lower case. */
  streams: Map<string, { stream_id: number; topic: string; unread_message_ids: number[] }>;
  huddles: Map<string, number[]>;
  mentions: number[];
}

export const emptyUnreadParts = (): UnreadParts => ({
  count: 0,
  pms: new Map(),
  streams: new Map(),
  huddles: new Map(),
  mentions: [],
});

/** unread_msgs from its parts. */
export function unreadState(parts: UnreadParts, truncated: boolean): Record<string, unknown> {
  return {
    count: parts.count,
    pms: [...parts.pms].map(([other, ids]) => ({
      other_user_id: other,
      sender_id: other,
      unread_message_ids: ids,
    })),
    streams: [...parts.streams.values()],
    huddles: [...parts.huddles].map(([key, ids]) => ({
      user_ids_string: key,
      unread_message_ids: ids,
    })),
    mentions: parts.mentions,
    old_unreads_missing: truncated,
  };
}

export function unreadMessages(
  ctx: RealmContext,
  user: AuthUser,
  allowEmptyTopicName: boolean,
): Record<string, unknown> {
  // The newest unread rows (one more than the limit, to know whether older ones were left out),
  // grouped by conversation, oldest group first.
  const groups = ctx.db
    .prepare<[number, number], UnreadGroup>(UNREAD_GROUPS_SQL)
    .all(user.id, LIMITS.maxUnreadMessages + 1);
  let total = 0;
  for (const group of groups) total += group.n;
  const truncated = total > LIMITS.maxUnreadMessages;
  // Over the limit: the oldest row goes, which is the first of the oldest group; that group then
  // begins with its next message, so it takes its place among the others by that one.
  let dropped: number | null = null;
  const oldest = truncated ? groups.shift() : undefined;
  if (oldest) {
    dropped = oldest.first;
    if (oldest.n > 1) {
      oldest.n -= 1;
      oldest.first = idList(oldest.ids)[1];
      const at = groups.findIndex((group) => group.first > oldest.first);
      groups.splice(at === -1 ? groups.length : at, 0, oldest);
    }
  }

  const isMuted = unreadMuting(ctx.db, user.id);

  // A topic is one conversation whatever the case of its letters: the groups of one topic in
  // other cases join the oldest one's entry, which names the topic as its oldest message does.
  const parts = emptyUnreadParts();
  const { pms, streams, huddles, mentions } = parts;
  for (const group of groups) {
    const ids = idList(group.ids);
    let muted = false;
    if (dropped !== null && ids[0] === dropped) ids.shift();
    if (group.type === 'stream' && group.channel_id !== null) {
      muted = isMuted(group.channel_id, group.topic);
      const key = `${group.channel_id}\u0000${group.topic.toLowerCase()}`;
      const entry = streams.get(key);
      if (entry) mergeIds(entry.unread_message_ids, ids);
      else
        streams.set(key, {
          stream_id: group.channel_id,
          topic: topicForClient(ctx.db, group.topic, allowEmptyTopicName),
          unread_message_ids: ids,
        });
    } else {
      const participants = (group.user_ids ?? '').split(',').filter(Boolean).map(Number);
      if (participants.length <= 2) {
        const other = participants.find((id) => id !== user.id) ?? user.id;
        const list = pms.get(other);
        if (list) mergeIds(list, ids);
        else pms.set(other, ids);
      } else {
        const key = [...participants].sort((a, b) => a - b).join(',');
        const list = huddles.get(key);
        if (list) mergeIds(list, ids);
        else huddles.set(key, ids);
      }
    }
    for (const id of idList(group.mentioned)) if (id !== dropped) mentions.push(id);
    if (!muted) for (const id of idList(group.wildcard)) if (id !== dropped) mentions.push(id);
    if (!muted) parts.count += ids.length;
  }
  mentions.sort((a, b) => a - b);
  return unreadState(parts, truncated);
}

export const unreadsResource: ResourceModule = {
  name: 'unreads',
  routes() {},
  initialState(ctx, user, request) {
    const state: Record<string, unknown> = {};
    if (request.wants('message') && request.wants('update_message_flags')) {
      state.unread_msgs = unreadMessages(ctx, user, request.capabilities.empty_topic_name === true);
    }
    if (request.wants('message')) {
      const row = ctx.db
        .prepare<[number], { id: number | null }>(
          'SELECT MAX(message_id) AS id FROM user_messages WHERE user_id = ?',
        )
        .get(user.id);
      state.max_message_id = row?.id ?? -1;
    }
    if (request.wants('starred_messages')) {
      state.starred_messages = ctx.db
        .prepare<[number], { message_id: number }>(STARRED_IDS_SQL)
        .all(user.id)
        .map((r) => r.message_id);
    }
    if (request.wants('recent_private_conversations')) {
      state.recent_private_conversations = ctx.db
        // From the user's direct conversations (recipient_members), each one's newest message
        // the user has: grouping all of the user's messages by recipient read every one of them
        // (100,000 rows for a member of a large organization's busy channels).
        .prepare<{ user: number }, { max_message_id: number; user_ids: string }>(
          `SELECT * FROM (
             SELECT r.user_ids,
                    (SELECT m.id FROM messages m
                       JOIN user_messages um ON um.user_id = :user AND um.message_id = m.id
                      WHERE m.recipient_id = r.id ORDER BY m.id DESC LIMIT 1) AS max_message_id
               FROM recipient_members rm JOIN recipients r ON r.id = rm.recipient_id
              WHERE rm.user_id = :user AND r.user_ids IS NOT NULL)
            WHERE max_message_id IS NOT NULL ORDER BY max_message_id DESC LIMIT 1000`,
        )
        .all({ user: user.id })
        .map((r) => ({
          max_message_id: r.max_message_id,
          user_ids: r.user_ids
            .split(',')
            .map(Number)
            .filter((id) => id !== user.id)
            .sort((a, b) => a - b),
        }));
    }
    return state;
  },
};
