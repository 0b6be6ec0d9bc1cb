// PATCH /messages/{id} (spec 4.2): content edits, topic edits and moves between channels with
// propagate_mode, resolving and unresolving topics, time limits, edit history, notification-bot
// messages, update_message events (api-notes §4.2) and delete_message events for users who lose
// access through a move.
import { createHash } from 'node:crypto';
import { MessageFlag } from '../db/flags';
import { ApiError, badRequest } from '../http/errors';
import { p } from '../http/params';
import type { ApiRouter } from '../http/router';
import type { AuthUser, RealmContext } from '../realm/context';
import { isModerator } from '../realm/roles';
import {
  canReadMessageHistory,
  canSeeChannelMetadata,
  channelGroupSettingAllows,
  realmGroupSettingAllows,
} from '../realm/permissions';
import { databaseLookup } from '../markdown/lookup';
import { renderMessage, type RenderedMessage } from '../markdown/render';
import { getChannel, subscriberIds, type ChannelRow } from './channels-store';
import { realmSetting } from './realm-settings';
import {
  MENTION_FLAG_BITS,
  MessageViewBuilder,
  RESOLVED_TOPIC_PREFIX,
  accessibleMessage,
  apiFlags,
  channelRecipientId,
  getMessage,
  messageAudience,
  type EditHistoryEntry,
  type MessageRow,
} from './messages-store';
import { parseJson } from '../db';
import { checkTopicAllowed, normalizeTopic, topicParticipantIds } from './messages-rules';
import {
  checkCanPostToChannel,
  createMessage,
  mentionFlags,
  notificationBot,
} from './messages-send';
import { sendDeleteEvents } from './messages-events';
import { attachmentIdsOf, detachedUploads, setMessageAttachments } from './messages-attachments';
import { NarrowQuery } from './narrow-query';

type PropagateMode = 'change_one' | 'change_later' | 'change_all';

interface EditRequest {
  content?: string;
  topic?: string;
  streamId?: number;
  propagateMode: PropagateMode;
  notifyOld: boolean;
  notifyNew: boolean;
  prevContentSha256?: string;
}

function isModeratorOrAbove(user: AuthUser): boolean {
  return isModerator(user.role);
}

/** Resolving adds "✔ " to the same topic; unresolving removes it. */
function resolveAction(oldTopic: string, newTopic: string): 'resolve' | 'unresolve' | null {
  if (newTopic === RESOLVED_TOPIC_PREFIX + oldTopic) return 'resolve';
  if (oldTopic === RESOLVED_TOPIC_PREFIX + newTopic) return 'unresolve';
  return null;
}

function timeLimitError(allowed: MessageRow[], total: number): ApiError {
  return new ApiError(
    'MOVE_MESSAGES_TIME_LIMIT_EXCEEDED',
    `You only have permission to move the ${allowed.length}/${total} most recent messages in this topic.`,
    400,
    {
      first_message_id_allowed_to_move: allowed.length > 0 ? allowed[0].id : null,
      total_messages_in_topic: total,
      total_messages_allowed_to_move: allowed.length,
    },
  );
}

/** The messages a topic/channel move applies to, as visible to the acting user. */
function moveScope(ctx: RealmContext, user: AuthUser, message: MessageRow, mode: PropagateMode) {
  if (mode === 'change_one') return [message];
  const query = new NarrowQuery(ctx.db, user, [
    { operator: 'channel', operand: message.channel_id!, negated: false },
    { operator: 'topic', operand: message.topic, negated: false },
  ]);
  const start = mode === 'change_later' ? message.id : 0;
  return query.range(start, 0, Number.MAX_SAFE_INTEGER, true).rows;
}

function sha256(text: string): string {
  return createHash('sha256').update(text, 'utf8').digest('hex');
}

export function registerEditRoute(api: ApiRouter, ctx: RealmContext): void {
  api.patch(
    '/messages/:message_id',
    {
      ids: ['message_id'],
      params: {
        topic: p.string().optional().alias('subject'),
        propagate_mode: p
          .enumOf(['change_one', 'change_later', 'change_all'])
          .default('change_one'),
        send_notification_to_old_thread: p.bool().default(false),
        send_notification_to_new_thread: p.bool().default(true),
        content: p.string().optional(),
        prev_content_sha256: p.string().optional(),
        stream_id: p.int().optional(),
      },
    },
    ({ user, ids, params }) => {
      const message = accessibleMessage(ctx.db, user, ids.message_id);
      if (!message) throw badRequest('Invalid message(s)');
      return editMessage(ctx, user, message, {
        content: params.content,
        topic: params.topic,
        streamId: params.stream_id,
        propagateMode: params.propagate_mode,
        notifyOld: params.send_notification_to_old_thread,
        notifyNew: params.send_notification_to_new_thread,
        prevContentSha256: params.prev_content_sha256,
      });
    },
  );
}

export function editMessage(
  ctx: RealmContext,
  user: AuthUser,
  message: MessageRow,
  request: EditRequest,
): Record<string, unknown> {
  const { db } = ctx;
  const now = ctx.nowSeconds();
  if (
    request.content === undefined &&
    request.topic === undefined &&
    request.streamId === undefined
  ) {
    throw badRequest('Nothing to change');
  }
  if (request.content !== undefined && request.streamId !== undefined) {
    throw badRequest('Cannot change message content while changing channel');
  }
  if (
    message.type !== 'stream' &&
    (request.topic !== undefined || request.streamId !== undefined)
  ) {
    throw badRequest('Direct messages cannot be moved to channels or given topics.');
  }
  if (
    request.content !== undefined &&
    request.topic === undefined &&
    request.streamId === undefined &&
    request.propagateMode !== 'change_one'
  ) {
    throw badRequest('Invalid propagate_mode without topic edit');
  }

  // --- Content ---
  let newContent: string | undefined;
  let rendered: RenderedMessage | undefined;
  if (request.content !== undefined) {
    if (realmSetting(db, 'allow_message_editing', true) !== true) {
      throw badRequest('Your organization has turned off message editing');
    }
    if (message.sender_id !== user.id) {
      throw badRequest("You don't have permission to edit this message");
    }
    const limit = realmSetting<number | null>(db, 'message_content_edit_limit_seconds', null);
    if (limit !== null && now - message.timestamp > limit) {
      throw badRequest('The time limit for editing this message has passed');
    }
    if (
      request.prevContentSha256 !== undefined &&
      request.prevContentSha256 !== sha256(message.content)
    ) {
      throw badRequest(
        "'content' does not match prev_content_sha256: the message was edited since",
      );
    }
    const trimmed = request.content.trimEnd();
    if (trimmed.includes('\u0000')) throw badRequest('Message must not contain null bytes');
    // Emptying a message keeps a visible marker, as the public server does.
    newContent = trimmed.trim() === '' ? '(deleted)' : trimmed;
    if ([...newContent].length > 10000) {
      throw badRequest('Message too long (maximum 10000 characters)');
    }
    rendered = renderMessage(newContent, databaseLookup(db, user));
  }

  // --- Topic and channel ---
  const oldChannel = message.channel_id !== null ? getChannel(db, message.channel_id) : undefined;
  let newTopic: string | undefined;
  if (request.topic !== undefined) {
    newTopic = normalizeTopic(db, request.topic);
    if (newTopic === message.topic) newTopic = undefined;
  }
  let newChannel: ChannelRow | undefined;
  if (request.streamId !== undefined && request.streamId !== message.channel_id) {
    newChannel = getChannel(db, request.streamId);
    if (!newChannel || !canSeeChannelMetadata(db, user, newChannel)) {
      throw new ApiError(
        'STREAM_DOES_NOT_EXIST',
        `Channel with ID '${request.streamId}' does not exist`,
        400,
        { stream_id: request.streamId },
      );
    }
  }
  const moving = newTopic !== undefined || newChannel !== undefined;
  if (!moving && newContent === undefined) {
    // The requested topic/channel equal the current ones.
    if (request.content === undefined) return { detached_uploads: [] };
  }
  const resolution =
    newTopic !== undefined && newChannel === undefined
      ? resolveAction(message.topic, newTopic)
      : null;
  if (moving && oldChannel) {
    if (resolution === 'resolve' && message.topic === '') {
      throw badRequest('General chat cannot be marked as resolved');
    }
    if (newTopic === RESOLVED_TOPIC_PREFIX.trim() && message.topic === '') {
      throw badRequest('General chat cannot be marked as resolved');
    }
    const isResolveOnly = resolution !== null && request.propagateMode === 'change_all';
    if (isResolveOnly) {
      const allowed =
        realmGroupSettingAllows(db, user, 'can_resolve_topics_group') ||
        channelGroupSettingAllows(db, user, oldChannel, 'can_resolve_topics_group');
      if (!allowed)
        throw badRequest("You don't have permission to resolve topics in this channel.");
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

  const scope = moving ? moveScope(ctx, user, message, request.propagateMode) : [message];
  if (
    moving &&
    !isModeratorOrAbove(user) &&
    !(resolution !== null && request.propagateMode === 'change_all')
  ) {
    const limit =
      newChannel !== undefined
        ? realmSetting<number | null>(db, 'move_messages_between_streams_limit_seconds', null)
        : realmSetting<number | null>(db, 'move_messages_within_stream_limit_seconds', null);
    if (limit !== null) {
      const allowed = scope.filter((m) => now - m.timestamp <= limit);
      if (allowed.length < scope.length) throw timeLimitError(allowed, scope.length);
    }
  }

  // --- Apply ---
  const movedIds = scope.map((m) => m.id).sort((a, b) => a - b);
  const oldAudience = new Set(messageAudience(db, message));
  const losingAccess = new Set<number>();
  let detachedAttachmentIds: number[] = [];
  db.transaction(() => {
    if (newContent !== undefined && rendered) {
      detachedAttachmentIds = attachmentIdsOf(db, message.id);
      db.prepare(
        `UPDATE messages SET content = ?, rendered_content = ?, is_me_message = ?, has_link = ?,
           has_image = ?, has_attachment = ?, last_edit_timestamp = ? WHERE id = ?`,
      ).run(
        newContent,
        rendered.html,
        rendered.isMeMessage ? 1 : 0,
        rendered.hasLink ? 1 : 0,
        rendered.hasImage ? 1 : 0,
        rendered.hasAttachment ? 1 : 0,
        now,
        message.id,
      );
      setMessageAttachments(db, message.sender_id, message.id, rendered.uploadPathIds);
      // Mentions are recomputed: new mentions set the flags, removed ones clear them.
      const recipients = db
        .prepare<[number], { user_id: number; flags: number }>(
          'SELECT user_id, flags FROM user_messages WHERE message_id = ?',
        )
        .all(message.id);
      const participants =
        message.type === 'stream' && rendered.topicWildcard
          ? new Set(topicParticipantIds(db, message.channel_id!, message.topic))
          : new Set<number>();
      const mentions = mentionFlags(
        ctx,
        rendered,
        recipients.map((r) => r.user_id),
        participants,
      );
      const update = db.prepare(
        'UPDATE user_messages SET flags = ? WHERE user_id = ? AND message_id = ?',
      );
      for (const r of recipients) {
        const next = (r.flags & ~MENTION_FLAG_BITS) | (mentions.get(r.user_id) ?? 0);
        if (next !== r.flags) update.run(next, r.user_id, message.id);
      }
    }
    if (moving) {
      const targetChannel = newChannel ?? oldChannel!;
      const recipientId = channelRecipientId(db, targetChannel.id);
      const markMoved = resolution === null || request.propagateMode !== 'change_all';
      const update = db.prepare(
        `UPDATE messages SET channel_id = ?, recipient_id = ?, topic = ?,
           last_moved_timestamp = CASE WHEN ? THEN ? ELSE last_moved_timestamp END WHERE id = ?`,
      );
      for (const m of scope) {
        update.run(
          targetChannel.id,
          recipientId,
          newTopic ?? m.topic,
          markMoved ? 1 : 0,
          now,
          m.id,
        );
      }
      if (newChannel) {
        applyChannelChangeToUserMessages(ctx, oldChannel!, newChannel, movedIds, losingAccess);
      }
    }
    // One history entry per edited message, newest first.
    for (const m of moving ? scope : [message]) {
      const entry: EditHistoryEntry = { user_id: user.id, timestamp: now };
      if (m.id === message.id && newContent !== undefined) {
        entry.prev_content = message.content;
        entry.prev_rendered_content = message.rendered_content;
      }
      if (newChannel) {
        entry.prev_stream = m.channel_id!;
        entry.stream = newChannel.id;
      }
      if (newTopic !== undefined) {
        entry.prev_topic = m.topic;
        entry.topic = newTopic;
      }
      if (Object.keys(entry).length === 2) continue;
      const current = getMessage(db, m.id)!;
      const history = parseJson<EditHistoryEntry[]>(current.edit_history, []);
      history.unshift(entry);
      db.prepare('UPDATE messages SET edit_history = ? WHERE id = ?').run(
        JSON.stringify(history),
        m.id,
      );
    }
  })();

  const updated = getMessage(db, message.id)!;
  sendUpdateEvent(ctx, user, message, updated, {
    movedIds,
    oldAudience,
    losingAccess,
    contentChanged: newContent !== undefined,
    topicChanged: newTopic !== undefined,
    newChannel,
    propagateMode: request.propagateMode,
    now,
  });
  if (losingAccess.size > 0) {
    sendDeleteEvents(
      ctx,
      losingAccess,
      scope.map((m) => ({
        id: m.id,
        type: 'stream' as const,
        channel_id: m.channel_id,
        topic: m.topic,
      })),
    );
  }
  if (moving && oldChannel) {
    sendMoveNotifications(
      ctx,
      user,
      message,
      oldChannel,
      newChannel ?? oldChannel,
      newTopic ?? message.topic,
      {
        resolution: request.propagateMode === 'change_all' ? resolution : null,
        notifyOld: request.notifyOld,
        notifyNew: request.notifyNew,
        count: scope.length,
        mode: request.propagateMode,
      },
    );
  }
  return {
    detached_uploads:
      newContent !== undefined ? detachedUploads(db, user.id, detachedAttachmentIds) : [],
  };
}

/**
 * After a channel move: subscribers of the old channel who are not subscribed to the new one lose
 * their rows (and, when they cannot read the new channel at all, the message: delete_message);
 * subscribers of the new channel without rows gain them, marked read.
 */
function applyChannelChangeToUserMessages(
  ctx: RealmContext,
  oldChannel: ChannelRow,
  newChannel: ChannelRow,
  movedIds: number[],
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
  for (const id of movedIds) {
    for (const { user_id } of holders.all(id)) {
      if (newSubscribers.has(user_id)) continue;
      // Whoever cannot read the new channel loses the message. Old subscribers who still can
      // (a public destination) keep it as public history without a row, as the public server does.
      const viewer = { id: user_id, role: roleOf.get(user_id)?.role ?? 400 } as AuthUser;
      const canRead = canReadMessageHistory(db, viewer, newChannel);
      if (canRead && !oldSubscribers.has(user_id)) continue;
      remove.run(user_id, id);
      if (!canRead) losingAccess.add(user_id);
    }
    for (const userId of newSubscribers) insert.run(userId, id, MessageFlag.read);
  }
}

interface UpdateEventContext {
  movedIds: number[];
  oldAudience: Set<number>;
  losingAccess: Set<number>;
  contentChanged: boolean;
  topicChanged: boolean;
  newChannel: ChannelRow | undefined;
  propagateMode: PropagateMode;
  now: number;
}

function sendUpdateEvent(
  ctx: RealmContext,
  user: AuthUser,
  before: MessageRow,
  after: MessageRow,
  info: UpdateEventContext,
): void {
  const { db } = ctx;
  const audience = new Set([...messageAudience(db, after), ...info.oldAudience]);
  for (const id of info.losingAccess) audience.delete(id);
  const moved = info.topicChanged || info.newChannel !== undefined;
  const builder = new MessageViewBuilder(ctx);
  const flagsOf = db.prepare<[number, number], { flags: number }>(
    'SELECT flags FROM user_messages WHERE user_id = ? AND message_id = ?',
  );
  ctx.events.send(audience, (queue) => {
    const allowEmpty = queue.hasCapability('empty_topic_name');
    const event: Record<string, unknown> & { type: string } = {
      type: 'update_message',
      user_id: user.id,
      edit_timestamp: info.now,
      message_id: before.id,
      message_ids: info.movedIds.length > 0 ? info.movedIds : [before.id],
      flags: apiFlags(flagsOf.get(queue.userId, before.id)?.flags),
      rendering_only: false,
    };
    if (before.type === 'stream') {
      event.stream_id = before.channel_id;
      event.stream_name =
        before.channel_id !== null ? (getChannel(db, before.channel_id)?.name ?? '') : '';
    }
    if (moved) {
      event.propagate_mode = info.propagateMode;
      event.orig_subject = builder.topicFor(before, allowEmpty);
      if (info.newChannel) event.new_stream_id = info.newChannel.id;
      if (info.topicChanged) {
        event.subject = builder.topicFor(after, allowEmpty);
        event.topic_links = [];
      }
    }
    if (info.contentChanged) {
      event.orig_content = before.content;
      event.orig_rendered_content = before.rendered_content;
      event.content = after.content;
      event.rendered_content = after.rendered_content;
      event.is_me_message = after.is_me_message === 1;
    }
    return event;
  });
}

function topicLink(channel: ChannelRow, topic: string): string {
  return `#**${channel.name}>${topic}**`;
}

function sendMoveNotifications(
  ctx: RealmContext,
  user: AuthUser,
  message: MessageRow,
  oldChannel: ChannelRow,
  newChannel: ChannelRow,
  newTopic: string,
  options: {
    resolution: 'resolve' | 'unresolve' | null;
    notifyOld: boolean;
    notifyNew: boolean;
    count: number;
    mode: PropagateMode;
  },
): void {
  const bot = notificationBot(ctx);
  const who = `@_**${user.full_name}|${user.id}**`;
  const post = (channel: ChannelRow, topic: string, content: string) =>
    createMessage(ctx, bot, { kind: 'channel', channel, topic }, content, {
      client: 'Internal',
      readBySender: true,
    });
  if (options.resolution) {
    // Resolving notifies once in the topic itself; send_notification_to_new_thread adds nothing.
    const verb = options.resolution === 'resolve' ? 'resolved' : 'unresolved';
    post(newChannel, newTopic, `${who} has marked this topic as ${verb}.`);
    return;
  }
  const whole = options.mode === 'change_all';
  const what = whole
    ? 'This topic'
    : options.count === 1
      ? 'A message'
      : `${options.count} messages`;
  if (options.notifyNew) {
    post(
      newChannel,
      newTopic,
      `${what} ${whole ? 'was' : options.count === 1 ? 'was' : 'were'} moved here from ${topicLink(oldChannel, message.topic)} by ${who}.`,
    );
  }
  if (options.notifyOld) {
    post(
      oldChannel,
      message.topic,
      `${what} ${whole || options.count === 1 ? 'was' : 'were'} moved to ${topicLink(newChannel, newTopic)} by ${who}.`,
    );
  }
}
