// PATCH /messages/{id} (spec 4.2): validates the request, then applies a content edit (this file)
// and/or a move (messages-move.ts) in one transaction, records edit history, and emits
// update_message events (messages-events.ts), delete_message events for users who lost access,
// and notification-bot messages. The response lists uploads the edit left unreferenced.
import { createHash } from 'node:crypto';
import { parseJson } from '../../db';
import { LIMITS } from '../../config';
import { ApiError, badRequest } from '../../http/errors';
import { p } from '../../http/params';
import type { ApiRouter } from '../../http/router';
import type { AuthUser, RealmContext } from '../../realm/context';
import { canSeeChannelMetadata } from '../../realm/permissions';
import { databaseLookup } from '../../markdown/lookup';
import { MessageFlag } from '../../db/flags';
import { realmAlertWordMatcher, usersAlertedBy } from '../../realm/alert-word-matcher';
import { renderMessage, type RenderedMessage } from '../../markdown/render';
import { getChannel } from '../channels/channels-store';
import { realmSetting } from '../realm/realm-settings';
import {
  MENTION_FLAG_BITS,
  accessibleMessage,
  getMessage,
  messageAudience,
  type EditHistoryEntry,
  type MessageRow,
} from './messages-store';
import { normalizeTopic, topicParticipantIds } from './messages-rules';
import { mentionFlags } from './messages-send';
import { sendDeleteEvents, sendUpdateMessageEvent } from './messages-events';
import {
  announceAttachmentUpdates,
  relinkAttachmentsAfterEdit,
  type RelinkResult,
} from '../../uploads/attachments';
import {
  announceMovedTopicPolicies,
  applyMove,
  checkMovePermission,
  checkMoveTimeLimit,
  moveScope,
  resolveAction,
  sendMoveNotifications,
  moveExtent,
  type MoveExtent,
  type MovePlan,
  type PropagateMode,
} from './messages-move';

export interface EditRequest {
  content?: string;
  topic?: string;
  streamId?: number;
  propagateMode: PropagateMode;
  notifyOld: boolean;
  notifyNew: boolean;
  prevContentSha256?: string;
}

interface ContentEdit {
  content: string;
  rendered: RenderedMessage;
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

function checkRequestShape(message: MessageRow, request: EditRequest): void {
  const { content, topic, streamId } = request;
  if (content === undefined && topic === undefined && streamId === undefined) {
    throw badRequest('Nothing to change');
  }
  if (content !== undefined && streamId !== undefined) {
    throw badRequest('Cannot change message content while changing channel');
  }
  if (message.type !== 'stream' && (topic !== undefined || streamId !== undefined)) {
    throw badRequest('Direct messages cannot be moved to channels or given topics.');
  }
  if (
    content !== undefined &&
    topic === undefined &&
    streamId === undefined &&
    request.propagateMode !== 'change_one'
  ) {
    throw badRequest('Invalid propagate_mode without topic edit');
  }
}

/** Permission, time limit and staleness checks for a content edit; renders the new content. */
function prepareContentEdit(
  ctx: RealmContext,
  user: AuthUser,
  message: MessageRow,
  request: EditRequest,
  now: number,
): ContentEdit {
  const { db } = ctx;
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
    throw badRequest("'content' does not match prev_content_sha256: the message was edited since");
  }
  const trimmed = (request.content ?? '').trimEnd();
  if (trimmed.includes('\u0000')) throw badRequest('Message must not contain null bytes');
  // Emptying a message keeps a visible marker, as the public server does.
  const content = trimmed.trim() === '' ? '(deleted)' : trimmed;
  if ([...content].length > LIMITS.maxMessageLength) {
    throw badRequest(`Message too long (maximum ${LIMITS.maxMessageLength} characters)`);
  }
  return { content, rendered: renderMessage(content, databaseLookup(db, user)) };
}

/** The move part of the request, or null when topic and channel stay as they are. */
function planMove(
  ctx: RealmContext,
  user: AuthUser,
  message: MessageRow,
  request: EditRequest,
): MovePlan | null {
  const { db } = ctx;
  if (message.type !== 'stream' || message.channel_id === null) return null;
  let newTopic: string | undefined;
  if (request.topic !== undefined) {
    newTopic = normalizeTopic(db, request.topic);
    if (newTopic === message.topic) newTopic = undefined;
  }
  let newChannel;
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
  if (newTopic === undefined && newChannel === undefined) return null;
  return {
    message,
    oldChannel: getChannel(db, message.channel_id)!,
    newChannel,
    newTopic,
    mode: request.propagateMode,
    resolution:
      newTopic !== undefined && newChannel === undefined
        ? resolveAction(message.topic, newTopic, request.propagateMode)
        : null,
  };
}

/**
 * Stores new content, brings the message's upload links in line with it (the returned links are
 * announced after the commit) and recomputes the mention and alert-word flags of every recipient.
 */
function applyContentEdit(
  ctx: RealmContext,
  editor: AuthUser,
  message: MessageRow,
  edit: ContentEdit,
  now: number,
): RelinkResult {
  const { db } = ctx;
  const { rendered } = edit;
  db.prepare(
    `UPDATE messages SET content = ?, rendered_content = ?, is_me_message = ?, has_link = ?,
       has_image = ?, has_attachment = ?, last_edit_timestamp = ? WHERE id = ?`,
  ).run(
    edit.content,
    rendered.html,
    rendered.isMeMessage ? 1 : 0,
    rendered.hasLink ? 1 : 0,
    rendered.hasImage ? 1 : 0,
    rendered.hasAttachment ? 1 : 0,
    now,
    message.id,
  );
  const links = relinkAttachmentsAfterEdit(db, editor.id, message.id, rendered.uploadPathIds);
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
  // An edit re-evaluates alert words for every recipient, the sender included, as the public
  // server does over the message's user messages; users who only read it historically are left out.
  const candidates = new Set(
    recipients.filter((r) => !(r.flags & MessageFlag.historical)).map((r) => r.user_id),
  );
  const alerted = usersAlertedBy(realmAlertWordMatcher(db), rendered.alertText, (id) =>
    candidates.has(id),
  );
  for (const r of recipients) {
    const alertBit = alerted.has(r.user_id) ? MessageFlag.has_alert_word : 0;
    const next =
      (r.flags & ~(MENTION_FLAG_BITS | MessageFlag.has_alert_word)) |
      (mentions.get(r.user_id) ?? 0) |
      alertBit;
    if (next !== r.flags) update.run(next, r.user_id, message.id);
  }
  return links;
}

/** One edit_history entry per changed message, newest first. */
function recordHistory(
  ctx: RealmContext,
  user: AuthUser,
  message: MessageRow,
  edit: ContentEdit | null,
  move: MovePlan | null,
  scope: readonly MessageRow[],
  now: number,
): void {
  const { db } = ctx;
  const update = db.prepare('UPDATE messages SET edit_history = ? WHERE id = ?');
  for (const m of scope) {
    const entry: EditHistoryEntry = { user_id: user.id, timestamp: now };
    if (edit && m.id === message.id) {
      entry.prev_content = message.content;
      entry.prev_rendered_content = message.rendered_content;
    }
    if (move?.newChannel) {
      entry.prev_stream = m.channel_id!;
      entry.stream = move.newChannel.id;
    }
    if (move?.newTopic !== undefined) {
      entry.prev_topic = m.topic;
      entry.topic = move.newTopic;
    }
    if (Object.keys(entry).length === 2) continue;
    const history = parseJson<EditHistoryEntry[]>(getMessage(db, m.id)!.edit_history, []);
    history.unshift(entry);
    update.run(JSON.stringify(history), m.id);
  }
}

export function editMessage(
  ctx: RealmContext,
  user: AuthUser,
  message: MessageRow,
  request: EditRequest,
): Record<string, unknown> {
  const { db } = ctx;
  const now = ctx.nowSeconds();
  checkRequestShape(message, request);
  const edit =
    request.content !== undefined ? prepareContentEdit(ctx, user, message, request, now) : null;
  const move = planMove(ctx, user, message, request);
  if (!edit && !move) return { detached_uploads: [] };
  let scope: MessageRow[] = [message];
  let extent: MoveExtent = { count: 1, movedAll: false, destinationHadMessages: false };
  if (move) {
    checkMovePermission(ctx, user, move);
    scope = moveScope(ctx, user, move);
    checkMoveTimeLimit(ctx, user, move, scope, now);
    // What the notices will say depends on the topics as they are before the move.
    // (A resolve's notice and a move without notices need none of it.)
    if (!move.resolution && (request.notifyOld || request.notifyNew))
      extent = moveExtent(ctx, user, move, scope);
  }

  const oldAudience = messageAudience(db, message);
  // Events go out only after the commit, from what the transaction returns.
  const { links, applied } = db.transaction(() => {
    const result = {
      links: edit ? applyContentEdit(ctx, user, message, edit, now) : null,
      applied: move ? applyMove(ctx, move, scope, now) : null,
    };
    recordHistory(ctx, user, message, edit, move, scope, now);
    return result;
  })();
  const losingAccess = applied?.losingAccess ?? new Set<number>();
  if (applied) announceMovedTopicPolicies(ctx, applied);

  sendUpdateMessageEvent(ctx, {
    editor: user,
    before: message,
    after: getMessage(db, message.id)!,
    movedIds: scope.map((m) => m.id).sort((a, b) => a - b),
    oldAudience,
    losingAccess,
    contentChanged: edit !== null,
    topicChanged: move?.newTopic !== undefined,
    newChannelId: move?.newChannel?.id,
    propagateMode: request.propagateMode,
    now,
  });
  if (losingAccess.size > 0) {
    sendDeleteEvents(
      ctx,
      losingAccess,
      scope.map((m) => ({ id: m.id, type: 'stream', channel_id: m.channel_id, topic: m.topic })),
    );
  }
  if (move) {
    sendMoveNotifications(ctx, user, move, extent, {
      old: request.notifyOld,
      new: request.notifyNew,
    });
  }
  if (links) announceAttachmentUpdates(ctx, [...links.linked, ...links.unlinked]);
  return { detached_uploads: links?.detached ?? [] };
}
