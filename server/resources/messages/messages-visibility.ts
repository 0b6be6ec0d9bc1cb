// Automatic topic visibility after sending (spec 3, "topic visibility default"): the sender's
// automatically_follow_topics_policy and automatically_unmute_topics_in_muted_streams_policy
// (1 topics the user participates in, 2 topics the user sends to, 3 topics the user starts,
// 4 never) may follow or unmute the topic, and recipients mentioned by name follow it when their
// automatically_follow_topics_where_mentioned setting is on (default true, api-notes §10).
//
// Changes are written inside the send's transaction but announced only after it commits: the
// functions here return TopicPolicyChange records and the caller passes them to
// announceTopicPolicyChanges once the data is durable (like message events), so a rolled-back
// send never leaves a client believing it follows a topic.
import type { Db } from '../../db';
import { MessageFlag } from '../../db/flags';
import { sharedTableCache } from '../../db/table-cache';
import type { AuthUser, RealmContext } from '../../realm/context';
import { userSettings } from '../../realm/accounts';
import { DEFAULT_USER_SETTINGS } from '../../realm/settings-defaults';
import { topicForClient } from './messages-rules';

export const VisibilityPolicy = { none: 0, muted: 1, unmuted: 2, followed: 3 } as const;

const ON_PARTICIPATION = 1;
const ON_SEND = 2;
const ON_INITIATION = 3;

/** A stored user_topics change whose user_topic event is still to be sent. */
export interface TopicPolicyChange {
  userId: number;
  channelId: number;
  topic: string;
  policy: number;
  lastUpdated: number;
}

function userSetting(ctx: RealmContext, userId: number, name: string): unknown {
  // Every send reads the sender's settings (and a mentioned user's); parsing the JSON each time
  // showed in profiles, so the parsed object is cached until user_settings changes.
  const settings = sharedTableCache(ctx.db, 'user-settings', ['user_settings'], userSettings).get(
    userId,
  );
  const value = settings[name];
  return value === undefined ? DEFAULT_USER_SETTINGS[name] : value;
}

function triggers(policy: unknown, startedTopic: boolean): boolean {
  return (
    policy === ON_PARTICIPATION || policy === ON_SEND || (policy === ON_INITIATION && startedTopic)
  );
}

export function currentTopicPolicy(
  ctx: RealmContext,
  userId: number,
  channelId: number,
  topic: string,
): number {
  return (
    ctx.db
      .prepare<[number, number, string], { visibility_policy: number }>(
        `SELECT visibility_policy FROM user_topics
          WHERE user_id = ? AND channel_id = ? AND topic_name = ?`,
      )
      .get(userId, channelId, topic)?.visibility_policy ?? VisibilityPolicy.none
  );
}

/** The sender's own automatic follow/unmute; undefined when nothing changed. */
export function applyAutomaticVisibility(
  ctx: RealmContext,
  sender: AuthUser,
  channelId: number,
  topic: string,
  startedTopic: boolean,
): TopicPolicyChange | undefined {
  if (sender.is_bot) return undefined;
  const current = currentTopicPolicy(ctx, sender.id, channelId, topic);
  if (current === VisibilityPolicy.followed) return undefined;
  let next: number | undefined;
  if (triggers(userSetting(ctx, sender.id, 'automatically_follow_topics_policy'), startedTopic)) {
    next = VisibilityPolicy.followed;
  } else if (current !== VisibilityPolicy.unmuted) {
    const muted =
      ctx.db
        .prepare(
          'SELECT 1 FROM subscriptions WHERE user_id = ? AND channel_id = ? AND active = 1 AND is_muted = 1',
        )
        .get(sender.id, channelId) !== undefined;
    const unmutePolicy = userSetting(
      ctx,
      sender.id,
      'automatically_unmute_topics_in_muted_streams_policy',
    );
    if (muted && triggers(unmutePolicy, startedTopic)) next = VisibilityPolicy.unmuted;
  }
  if (next === undefined || next === current) return undefined;
  return storeTopicPolicy(ctx, sender.id, channelId, topic, next);
}

/**
 * Taking part in a topic without sending to it (a widget's submessage, as the public server's
 * do_add_submessage): only the "topics the user participates in" policies apply, for a subscriber;
 * unmuting in a muted channel wins over following, and nothing lowers a followed topic.
 */
export function applyParticipationVisibility(
  ctx: RealmContext,
  user: AuthUser,
  channelId: number,
  topic: string,
): TopicPolicyChange | undefined {
  if (user.is_bot) return undefined;
  const subscription = ctx.db
    .prepare<[number, number], { is_muted: number }>(
      'SELECT is_muted FROM subscriptions WHERE user_id = ? AND channel_id = ? AND active = 1',
    )
    .get(user.id, channelId);
  if (!subscription) return undefined;
  let next: number | undefined;
  if (userSetting(ctx, user.id, 'automatically_follow_topics_policy') === ON_PARTICIPATION) {
    next = VisibilityPolicy.followed;
  }
  const unmutePolicy = userSetting(
    ctx,
    user.id,
    'automatically_unmute_topics_in_muted_streams_policy',
  );
  if (subscription.is_muted === 1 && unmutePolicy === ON_PARTICIPATION) {
    next = VisibilityPolicy.unmuted;
  }
  if (next === undefined) return undefined;
  const current = currentTopicPolicy(ctx, user.id, channelId, topic);
  if (current === next || current === VisibilityPolicy.followed) return undefined;
  return storeTopicPolicy(ctx, user.id, channelId, topic, next);
}

/**
 * automatically_follow_topics_where_mentioned: recipients whose flags carry a personal (or group)
 * mention follow the topic. Silent and wildcard mentions do not count; bots never follow.
 */
export function followTopicWhereMentioned(
  ctx: RealmContext,
  senderId: number,
  flagsByUser: ReadonlyMap<number, number>,
  channelId: number,
  topic: string,
): TopicPolicyChange[] {
  const changes: TopicPolicyChange[] = [];
  const isBot = ctx.db.prepare<[number], { is_bot: number }>(
    'SELECT is_bot FROM users WHERE id = ?',
  );
  for (const [userId, flags] of flagsByUser) {
    if (userId === senderId || (flags & MessageFlag.mentioned) === 0) continue;
    if (isBot.get(userId)?.is_bot === 1) continue;
    if (userSetting(ctx, userId, 'automatically_follow_topics_where_mentioned') !== true) continue;
    if (currentTopicPolicy(ctx, userId, channelId, topic) === VisibilityPolicy.followed) continue;
    changes.push(storeTopicPolicy(ctx, userId, channelId, topic, VisibilityPolicy.followed));
  }
  return changes;
}

/** Sets one user's visibility policy for a topic (1 muted, 2 unmuted, 3 followed). */
export function storeTopicPolicy(
  ctx: RealmContext,
  userId: number,
  channelId: number,
  topic: string,
  policy: number,
): TopicPolicyChange {
  const now = ctx.nowSeconds();
  ctx.db
    .prepare(
      `INSERT INTO user_topics (user_id, channel_id, topic_name, visibility_policy, last_updated)
       VALUES (?, ?, ?, ?, ?)
       ON CONFLICT(user_id, channel_id, topic_name) DO UPDATE SET
         visibility_policy = excluded.visibility_policy, last_updated = excluded.last_updated`,
    )
    .run(userId, channelId, topic, policy, now);
  return { userId, channelId, topic, policy, lastUpdated: now };
}

/** Sends the user_topic events of committed changes, in the order they were made. */
export function announceTopicPolicyChanges(
  ctx: RealmContext,
  changes: readonly TopicPolicyChange[],
): void {
  for (const change of changes) {
    ctx.events.send([change.userId], (queue) => ({
      type: 'user_topic',
      stream_id: change.channelId,
      topic_name: topicForClient(ctx.db, change.topic, queue.hasCapability('empty_topic_name')),
      last_updated: change.lastUpdated,
      visibility_policy: change.policy,
    }));
  }
  // The deprecated full list follows every change, as on the public server, except to queues
  // that asked for user_topic by name (they have the modern event).
  for (const userId of new Set(changes.map((change) => change.userId))) {
    const lists = new Map<boolean, [string, string, number][]>();
    const listFor = (allowEmpty: boolean) => {
      let list = lists.get(allowEmpty);
      if (!list) lists.set(allowEmpty, (list = mutedTopics(ctx.db, userId, allowEmpty)));
      return list;
    };
    ctx.events.send([userId], (queue) =>
      queue.options.eventTypes?.has('user_topic')
        ? null
        : {
            type: 'muted_topics',
            muted_topics: listFor(queue.hasCapability('empty_topic_name')),
          },
    );
  }
}

const MUTED = 1;

/** The deprecated muted_topics shape: [[channel name, topic, last_updated], ...]. */
export function mutedTopics(
  db: Db,
  userId: number,
  allowEmptyTopicName: boolean,
): [string, string, number][] {
  return db
    .prepare<[number, number], { name: string; topic_name: string; last_updated: number }>(
      `SELECT c.name, t.topic_name, t.last_updated
         FROM user_topics t JOIN channels c ON c.id = t.channel_id
        WHERE t.user_id = ? AND t.visibility_policy = ? ORDER BY t.last_updated`,
    )
    .all(userId, MUTED)
    .map((row) => [
      row.name,
      topicForClient(db, row.topic_name, allowEmptyTopicName),
      row.last_updated,
    ]);
}
