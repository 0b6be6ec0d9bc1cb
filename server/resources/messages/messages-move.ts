// Moving messages (the topic and channel half of PATCH /messages/{id}, spec 4.2): which messages a
// propagate_mode covers, who may move or resolve, the move time limits
// (MOVE_MESSAGES_TIME_LIMIT_EXCEEDED), the row updates including who gains or loses the messages
// on a channel change, and the notification-bot messages.
import { MessageFlag } from '../../db/flags';
import { ApiError, badRequest } from '../../http/errors';
import type { AuthUser, RealmContext } from '../../realm/context';
import { isModerator } from '../../realm/roles';
import {
  canReadMessageHistory,
  channelGroupSettingAllows,
  realmGroupSettingAllows,
} from '../../realm/permissions';
import { subscriberIds, type ChannelRow } from '../channels/channels-store';
import { realmSetting } from '../realm/realm-settings';
import { RESOLVED_TOPIC_PREFIX, channelRecipientId, type MessageRow } from './messages-store';
import { checkTopicAllowed } from './messages-rules';
import { checkCanPostToChannel, createMessage } from './messages-send';
import { notificationBot } from '../users/system-bots';
import { NarrowQuery } from './narrow-query';
import { announceTopicPolicyChanges, type TopicPolicyChange } from './messages-visibility';
import { databaseLookup } from '../../markdown/lookup';
import { renderMessage } from '../../markdown/render';
import { topicFragment } from '../../../shared/narrow/link';

export type PropagateMode = 'change_one' | 'change_later' | 'change_all';

/** A validated move: at least one of newTopic / newChannel is set. */
export interface MovePlan {
  message: MessageRow;
  oldChannel: ChannelRow;
  newChannel?: ChannelRow;
  newTopic?: string;
  mode: PropagateMode;
  /** Resolving or unresolving the whole topic: its own permission, no time limit, not a "move". */
  resolution: 'resolve' | 'unresolve' | null;
}

/** Resolving adds "✔ " to the same topic; unresolving removes it. Only whole-topic changes count. */
export function resolveAction(
  oldTopic: string,
  newTopic: string,
  mode: PropagateMode,
): 'resolve' | 'unresolve' | null {
  if (mode !== 'change_all') return null;
  if (newTopic === RESOLVED_TOPIC_PREFIX + oldTopic) return 'resolve';
  if (oldTopic === RESOLVED_TOPIC_PREFIX + newTopic) return 'unresolve';
  return null;
}

/** The narrow of a topic as the acting user sees it. */
function topicQuery(ctx: RealmContext, user: AuthUser, channelId: number, topic: string) {
  return new NarrowQuery(ctx.db, user, [
    { operator: 'channel', operand: channelId, negated: false },
    { operator: 'topic', operand: topic, negated: false },
  ]);
}

/** A topic's messages as visible to the acting user, oldest first, from `start` on. */
function visibleTopicMessages(
  ctx: RealmContext,
  user: AuthUser,
  channelId: number,
  topic: string,
  start = 0,
): MessageRow[] {
  return topicQuery(ctx, user, channelId, topic).range(start, 0, Number.MAX_SAFE_INTEGER, true)
    .rows;
}

/** The messages a move applies to, as visible to the acting user, oldest first. */
export function moveScope(ctx: RealmContext, user: AuthUser, plan: MovePlan): MessageRow[] {
  const { message, mode } = plan;
  if (mode === 'change_one') return [message];
  const start = mode === 'change_later' ? message.id : 0;
  return visibleTopicMessages(ctx, user, message.channel_id!, message.topic, start);
}

/**
 * What the notification bot's notices say about a move, decided before it is applied, as the
 * public server decides it with the mover's own access: whether every message of the topic the
 * mover can see moves (whatever the propagate_mode), and whether the destination topic already
 * had messages the mover can see.
 */
export interface MoveExtent {
  count: number;
  movedAll: boolean;
  destinationHadMessages: boolean;
}

export function moveExtent(
  ctx: RealmContext,
  user: AuthUser,
  plan: MovePlan,
  scope: readonly MessageRow[],
): MoveExtent {
  const { message } = plan;
  // Counted and probed in the database: neither topic's messages are loaded for this.
  const movedAll =
    plan.mode === 'change_all' ||
    topicQuery(ctx, user, message.channel_id!, message.topic).count() === scope.length;
  // The moved messages themselves do not count (a rename that changes only letter case).
  const destinationHadMessages = topicQuery(
    ctx,
    user,
    (plan.newChannel ?? plan.oldChannel).id,
    plan.newTopic ?? message.topic,
  ).exists('m.id NOT IN (SELECT value FROM json_each(?))', [
    JSON.stringify(scope.map((m) => m.id)),
  ]);
  return { count: scope.length, movedAll, destinationHadMessages };
}

export function checkMovePermission(ctx: RealmContext, user: AuthUser, plan: MovePlan): void {
  const { db } = ctx;
  const { message, oldChannel, newChannel, newTopic } = plan;
  const resolvingGeneralChat =
    message.topic === '' &&
    (plan.resolution === 'resolve' || newTopic === RESOLVED_TOPIC_PREFIX.trim());
  if (resolvingGeneralChat) throw badRequest('General chat cannot be marked as resolved');
  if (plan.resolution !== null) {
    const allowed =
      realmGroupSettingAllows(db, user, 'can_resolve_topics_group') ||
      channelGroupSettingAllows(db, user, oldChannel, 'can_resolve_topics_group');
    if (!allowed) throw badRequest("You don't have permission to resolve topics in this channel.");
  } else {
    if (newTopic !== undefined) {
      const allowed =
        realmGroupSettingAllows(db, user, 'can_move_messages_between_topics_group') ||
        channelGroupSettingAllows(db, user, oldChannel, 'can_move_messages_within_channel_group');
      if (!allowed) throw badRequest("You don't have permission to edit this message's topic");
    }
    if (newChannel !== undefined) {
      const allowed =
        realmGroupSettingAllows(db, user, 'can_move_messages_between_channels_group') ||
        channelGroupSettingAllows(db, user, oldChannel, 'can_move_messages_out_of_channel_group');
      if (!allowed) throw badRequest("You don't have permission to move this message");
      checkCanPostToChannel(ctx, user, newChannel);
    }
  }
  checkTopicAllowed(db, newChannel ?? oldChannel, newTopic ?? message.topic);
}

/** Non-moderators may move only messages younger than the realm's move limit. */
export function checkMoveTimeLimit(
  ctx: RealmContext,
  user: AuthUser,
  plan: MovePlan,
  scope: readonly MessageRow[],
  now: number,
): void {
  if (isModerator(user.role) || plan.resolution !== null) return;
  const limit = realmSetting<number | null>(
    ctx.db,
    plan.newChannel !== undefined
      ? 'move_messages_between_streams_limit_seconds'
      : 'move_messages_within_stream_limit_seconds',
    null,
  );
  if (limit === null) return;
  const allowed = scope.filter((m) => now - m.timestamp <= limit);
  if (allowed.length === scope.length) return;
  throw new ApiError(
    'MOVE_MESSAGES_TIME_LIMIT_EXCEEDED',
    `You only have permission to move the ${allowed.length}/${scope.length} most recent messages in this topic.`,
    400,
    {
      first_message_id_allowed_to_move: allowed.length > 0 ? allowed[0].id : null,
      total_messages_in_topic: scope.length,
      total_messages_allowed_to_move: allowed.length,
    },
  );
}

export interface AppliedMove {
  /** Users who can no longer see the messages (they get delete_message events). */
  losingAccess: Set<number>;
  /** Followers and muters carried to the new topic; announce with announceMovedTopicPolicies. */
  topicPolicyChanges: TopicPolicyChange[];
}

/** Rewrites channel and topic of the scope (inside the caller's transaction). */
export function applyMove(
  ctx: RealmContext,
  plan: MovePlan,
  scope: readonly MessageRow[],
  now: number,
): AppliedMove {
  const { db } = ctx;
  const target = plan.newChannel ?? plan.oldChannel;
  const recipientId = channelRecipientId(db, target.id);
  // Resolving or unresolving does not count as a move (FL 365).
  const markMoved = plan.resolution === null;
  const update = db.prepare(`UPDATE messages SET channel_id = ?, recipient_id = ?, topic = ?,
       last_moved_timestamp = CASE WHEN ? THEN ? ELSE last_moved_timestamp END WHERE id = ?`);
  for (const m of scope) {
    update.run(target.id, recipientId, plan.newTopic ?? m.topic, markMoved ? 1 : 0, now, m.id);
  }
  const losingAccess = new Set<number>();
  if (plan.newChannel) {
    moveUserMessages(ctx, plan.oldChannel, plan.newChannel, scope, losingAccess);
  }
  const topicPolicyChanges = plan.mode === 'change_all' ? moveTopicPolicies(ctx, plan, now) : [];
  return { losingAccess, topicPolicyChanges };
}

/** The user_topic events of a committed whole-topic move. */
export function announceMovedTopicPolicies(ctx: RealmContext, applied: AppliedMove): void {
  announceTopicPolicyChanges(ctx, applied.topicPolicyChanges);
}

/**
 * A whole topic keeps its followers and muters when renamed or moved (an existing setting for the
 * destination topic wins). Returned as changes to announce after the commit: cleared for the old
 * name, set for the new.
 */
function moveTopicPolicies(ctx: RealmContext, plan: MovePlan, now: number): TopicPolicyChange[] {
  const { db } = ctx;
  const target = plan.newChannel ?? plan.oldChannel;
  const newTopic = plan.newTopic ?? plan.message.topic;
  const rows = db
    .prepare<[number, string], { user_id: number; visibility_policy: number }>(
      'SELECT user_id, visibility_policy FROM user_topics WHERE channel_id = ? AND topic_name = ?',
    )
    .all(plan.oldChannel.id, plan.message.topic);
  const remove = db.prepare(
    'DELETE FROM user_topics WHERE user_id = ? AND channel_id = ? AND topic_name = ?',
  );
  const insert =
    db.prepare(`INSERT OR IGNORE INTO user_topics (user_id, channel_id, topic_name, visibility_policy, last_updated)
     VALUES (?, ?, ?, ?, ?)`);
  const changes: TopicPolicyChange[] = [];
  for (const row of rows) {
    remove.run(row.user_id, plan.oldChannel.id, plan.message.topic);
    const moved = insert.run(row.user_id, target.id, newTopic, row.visibility_policy, now).changes;
    changes.push({
      userId: row.user_id,
      channelId: plan.oldChannel.id,
      topic: plan.message.topic,
      policy: 0,
      lastUpdated: now,
    });
    if (moved > 0) {
      changes.push({
        userId: row.user_id,
        channelId: target.id,
        topic: newTopic,
        policy: row.visibility_policy,
        lastUpdated: now,
      });
    }
  }
  return changes;
}

/**
 * After a channel change: holders who cannot read the new channel lose their rows (and the
 * message); old subscribers who still can (a public destination) keep it as public history
 * without a row, as the public server does; subscribers of the new channel gain rows, marked read.
 */
function moveUserMessages(
  ctx: RealmContext,
  oldChannel: ChannelRow,
  newChannel: ChannelRow,
  scope: readonly MessageRow[],
  losingAccess: Set<number>,
): void {
  const { db } = ctx;
  const newSubscribers = new Set(subscriberIds(db, newChannel.id));
  const oldSubscribers = new Set(subscriberIds(db, oldChannel.id));
  const remove = db.prepare('DELETE FROM user_messages WHERE user_id = ? AND message_id = ?');
  const insert = db.prepare(
    'INSERT OR IGNORE INTO user_messages (user_id, message_id, flags) VALUES (?, ?, ?)',
  );
  const holders = db.prepare<[number], { user_id: number }>(
    'SELECT user_id FROM user_messages WHERE message_id = ?',
  );
  const roleOf = db.prepare<[number], { role: number }>('SELECT role FROM users WHERE id = ?');
  const canRead = new Map<number, boolean>();
  for (const m of scope) {
    for (const { user_id } of holders.all(m.id)) {
      if (newSubscribers.has(user_id)) continue;
      let readable = canRead.get(user_id);
      if (readable === undefined) {
        const viewer = { id: user_id, role: roleOf.get(user_id)?.role ?? 400 } as AuthUser;
        readable = canReadMessageHistory(db, viewer, newChannel);
        canRead.set(user_id, readable);
      }
      if (readable && !oldSubscribers.has(user_id)) continue;
      remove.run(user_id, m.id);
      if (!readable) losingAccess.add(user_id);
    }
    for (const userId of newSubscribers) insert.run(userId, m.id, MessageFlag.read);
  }
}

/**
 * Where messages went or came from, as shown to the readers of the other side: a private channel
 * they may not see is not named.
 */
function placeName(channel: ChannelRow, topic: string, readersChannel: ChannelRow): string {
  if (channel.id !== readersChannel.id && channel.invite_only === 1) return 'a private channel';
  return `#**${channel.name}>${topic}**`;
}

/** Notification-bot messages after a move (or the resolved/unresolved notice), in the public
 * server's words. */
export function sendMoveNotifications(
  ctx: RealmContext,
  user: AuthUser,
  plan: MovePlan,
  extent: MoveExtent,
  notify: { old: boolean; new: boolean },
): void {
  const { message, oldChannel } = plan;
  const newChannel = plan.newChannel ?? oldChannel;
  const newTopic = plan.newTopic ?? message.topic;
  const bot = notificationBot(ctx.db);
  const who = `@_**${user.full_name}|${user.id}**`;
  // Rendered as the mover sees the realm, so links to channels they can see resolve.
  const post = (channel: ChannelRow, topic: string, content: string) =>
    createMessage(ctx, bot, { kind: 'channel', channel, topic }, content, {
      client: 'Internal',
      readBySender: true,
      rendered: renderMessage(content, databaseLookup(ctx.db, user)),
    });
  if (plan.resolution) {
    // Resolving notifies once in the topic itself; send_notification_to_new_thread adds nothing.
    const verb = plan.resolution === 'resolve' ? 'resolved' : 'unresolved';
    post(newChannel, newTopic, `${who} has marked this topic as ${verb}.`);
    return;
  }
  const { count, movedAll } = extent;
  if (notify.new) {
    const from = placeName(oldChannel, message.topic, newChannel);
    // The moved message, where it now is (the public server links a single moved message).
    const link = `${ctx.realmUrl.replace(/\/$/, '')}/${topicFragment(newChannel.id, newChannel.name, newTopic)}/near/${message.id}`;
    post(
      newChannel,
      newTopic,
      movedAll && !extent.destinationHadMessages
        ? `This topic was moved here from ${from} by ${who}.`
        : count === 1
          ? `[A message](${link}) was moved here from ${from} by ${who}.`
          : `${count} messages were moved here from ${from} by ${who}.`,
    );
  }
  if (notify.old) {
    const to = placeName(newChannel, newTopic, oldChannel);
    post(
      oldChannel,
      message.topic,
      movedAll
        ? `This topic was moved to ${to} by ${who}.`
        : count === 1
          ? `A message was moved from this topic to ${to} by ${who}.`
          : `${count} messages were moved from this topic to ${to} by ${who}.`,
    );
  }
}
