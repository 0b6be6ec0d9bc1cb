// Automatic topic visibility after sending (spec 3, "topic visibility default"): the sender's
// automatically_follow_topics_policy and automatically_unmute_topics_in_muted_streams_policy
// (1 topics the user participates in, 2 topics the user sends to, 3 topics the user starts,
// 4 never) may follow or unmute the topic; the change is stored in user_topics, returned as
// automatic_new_visibility_policy and announced with a user_topic event.
import { parseJson } from '../db';
import type { AuthUser, RealmContext } from '../realm/context';
import { DEFAULT_USER_SETTINGS } from '../realm/settings-defaults';

export const VisibilityPolicy = { none: 0, muted: 1, unmuted: 2, followed: 3 } as const;

const ON_PARTICIPATION = 1;
const ON_SEND = 2;
const ON_INITIATION = 3;

function userSetting(ctx: RealmContext, userId: number, name: string): unknown {
  const row = ctx.db
    .prepare<[number], { settings: string }>('SELECT settings FROM user_settings WHERE user_id = ?')
    .get(userId);
  const value = parseJson<Record<string, unknown>>(row?.settings, {})[name];
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

/** Returns the new policy when the send changed it (the caller reports it), else undefined. */
export function applyAutomaticVisibility(
  ctx: RealmContext,
  sender: AuthUser,
  channelId: number,
  topic: string,
  startedTopic: boolean,
): number | undefined {
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
  setTopicPolicy(ctx, sender.id, channelId, topic, next);
  return next;
}

function setTopicPolicy(
  ctx: RealmContext,
  userId: number,
  channelId: number,
  topic: string,
  policy: number,
): void {
  const now = ctx.nowSeconds();
  ctx.db
    .prepare(
      `INSERT INTO user_topics (user_id, channel_id, topic_name, visibility_policy, last_updated)
       VALUES (?, ?, ?, ?, ?)
       ON CONFLICT(user_id, channel_id, topic_name) DO UPDATE SET
         visibility_policy = excluded.visibility_policy, last_updated = excluded.last_updated`,
    )
    .run(userId, channelId, topic, policy, now);
  ctx.events.send([userId], {
    type: 'user_topic',
    stream_id: channelId,
    topic_name: topic,
    last_updated: now,
    visibility_policy: policy,
  });
}
