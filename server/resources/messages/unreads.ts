// Message-derived register state: unread_msgs (api-notes §1.3), starred_messages,
// recent_private_conversations and max_message_id. Reads the message tables only; messages,
// flags and their events belong to the message resources.
import type { ResourceModule } from '../module';
import type { AuthUser, RealmContext } from '../../realm/context';
import { LIMITS } from '../../config';
import { MessageFlag } from '../../db/flags';
import { topicForClient } from './messages-rules';

interface UnreadRow {
  message_id: number;
  flags: number;
  type: string;
  channel_id: number | null;
  topic: string;
  sender_id: number;
  user_ids: string | null;
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
 * The user's starred message ids, from the partial index user_messages_starred. Named: without
 * statistics the planner takes the primary key, which reads every one of the user's rows to find
 * the starred few (a large organization's owner: 156,199 rows for 1,301 ids, 21-29 against 4-7 ms
 * of CPU on a fresh connection; docs/benchmarks.md, thirteenth pass).
 */
export const STARRED_IDS_SQL = `SELECT message_id FROM user_messages INDEXED BY user_messages_starred
  WHERE user_id = ? AND (flags & 2) <> 0 ORDER BY message_id`;

export function unreadMessages(
  ctx: RealmContext,
  user: AuthUser,
  allowEmptyTopicName: boolean,
): Record<string, unknown> {
  // Newest first so truncation drops the oldest, then ascending for the response.
  const rows = ctx.db
    .prepare<[number, number], UnreadRow>(UNREAD_ROWS_SQL)
    .all(user.id, LIMITS.maxUnreadMessages + 1)
    .reverse();
  const truncated = rows.length > LIMITS.maxUnreadMessages;
  if (truncated) rows.shift();

  const mutedChannels = new Set(
    ctx.db
      .prepare<[number], { channel_id: number }>(
        'SELECT channel_id FROM subscriptions WHERE user_id = ? AND active = 1 AND is_muted = 1',
      )
      .all(user.id)
      .map((r) => r.channel_id),
  );
  const topicPolicy = new Map<string, number>();
  for (const row of ctx.db
    .prepare<[number], { channel_id: number; topic_name: string; visibility_policy: number }>(
      'SELECT channel_id, topic_name, visibility_policy FROM user_topics WHERE user_id = ?',
    )
    .all(user.id)) {
    topicPolicy.set(
      `${row.channel_id}\u0000${row.topic_name.toLowerCase()}`,
      row.visibility_policy,
    );
  }
  const isMuted = (channelId: number, topic: string): boolean => {
    const policy = topicPolicy.get(`${channelId}\u0000${topic.toLowerCase()}`);
    if (mutedChannels.has(channelId)) return policy !== 2 && policy !== 3;
    return policy === 1;
  };

  const pms = new Map<number, number[]>();
  const streams = new Map<
    string,
    { stream_id: number; topic: string; unread_message_ids: number[] }
  >();
  const huddles = new Map<string, number[]>();
  const mentions: number[] = [];
  let count = 0;
  for (const row of rows) {
    let muted = false;
    if (row.type === 'stream' && row.channel_id !== null) {
      muted = isMuted(row.channel_id, row.topic);
      const key = `${row.channel_id}\u0000${row.topic.toLowerCase()}`;
      let entry = streams.get(key);
      if (!entry)
        streams.set(
          key,
          (entry = {
            stream_id: row.channel_id,
            topic: topicForClient(ctx.db, row.topic, allowEmptyTopicName),
            unread_message_ids: [],
          }),
        );
      entry.unread_message_ids.push(row.message_id);
    } else {
      const participants = (row.user_ids ?? '').split(',').filter(Boolean).map(Number);
      if (participants.length <= 2) {
        const other = participants.find((id) => id !== user.id) ?? user.id;
        const list = pms.get(other) ?? [];
        list.push(row.message_id);
        pms.set(other, list);
      } else {
        const key = [...participants].sort((a, b) => a - b).join(',');
        const list = huddles.get(key) ?? [];
        list.push(row.message_id);
        huddles.set(key, list);
      }
    }
    if (row.flags & MessageFlag.mentioned) mentions.push(row.message_id);
    else if (row.flags & MENTION_BITS && !muted) mentions.push(row.message_id);
    if (!muted) count += 1;
  }
  return {
    count,
    pms: [...pms].map(([other, ids]) => ({
      other_user_id: other,
      sender_id: other,
      unread_message_ids: ids,
    })),
    streams: [...streams.values()],
    huddles: [...huddles].map(([key, ids]) => ({ user_ids_string: key, unread_message_ids: ids })),
    mentions,
    old_unreads_missing: truncated,
  };
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
