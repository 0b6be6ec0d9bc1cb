// DELETE /messages/{id}: anyone in can_delete_any_message_group (realm or channel), or the sender
// when in can_delete_own_message_group and within realm_message_content_delete_limit_seconds.
// Everyone who could see the message gets delete_message events (messages-events.ts).
import type { Db } from '../../db';
import { badRequest } from '../../http/errors';
import type { ApiRouter } from '../../http/router';
import type { AuthUser, RealmContext } from '../../realm/context';
import { channelGroupSettingAllows, realmGroupSettingAllows } from '../../realm/permissions';
import { getChannel } from '../channels/channels-store';
import { realmSetting } from '../realm/realm-settings';
import { accessibleMessage, messageAudience, type MessageRow } from './messages-store';
import { sendDeleteEvents } from './messages-events';
import {
  announceAttachmentUpdates,
  unlinkAttachmentsFromMessages,
} from '../../uploads/attachments';

function checkCanDelete(ctx: RealmContext, user: AuthUser, message: MessageRow): void {
  const { db } = ctx;
  if (realmGroupSettingAllows(db, user, 'can_delete_any_message_group')) return;
  const channel = message.channel_id !== null ? getChannel(db, message.channel_id) : undefined;
  if (channel && channelGroupSettingAllows(db, user, channel, 'can_delete_any_message_group'))
    return;
  const ownAllowed =
    message.sender_id === user.id &&
    (realmGroupSettingAllows(db, user, 'can_delete_own_message_group') ||
      (channel !== undefined &&
        channelGroupSettingAllows(db, user, channel, 'can_delete_own_message_group')));
  if (!ownAllowed) throw badRequest("You don't have permission to delete this message");
  const limit = realmSetting<number | null>(db, 'message_content_delete_limit_seconds', null);
  if (limit !== null && ctx.nowSeconds() - message.timestamp > limit) {
    throw badRequest('The time limit for deleting this message has passed');
  }
}

/** The channel's oldest message, through the recipient's (recipient_id, id) index. */
export function channelFirstMessageId(db: Db, channelId: number): number | null {
  const row = db
    .prepare<[number], { first: number | null }>(
      `SELECT (SELECT MIN(m.id) FROM messages m WHERE m.recipient_id = r.id) AS first
         FROM recipients r WHERE r.channel_id = ?`,
    )
    .get(channelId);
  return row?.first ?? null;
}

/**
 * When a deletion took the channel's oldest message, tells the deletion's audience the channel's
 * new first_message_id (null once it has none), as the public server's
 * check_update_first_message_id does, before the delete_message events; without it a client's
 * channel object keeps pointing at a message that no longer exists until it registers again.
 */
export function announceFirstMessageId(
  ctx: RealmContext,
  channelId: number,
  firstBefore: number | null,
  deletedIds: readonly number[],
  audience: Iterable<number>,
): void {
  if (firstBefore === null || !deletedIds.includes(firstBefore)) return;
  const channel = getChannel(ctx.db, channelId);
  if (!channel) return;
  ctx.events.send(audience, {
    type: 'stream',
    op: 'update',
    stream_id: channel.id,
    name: channel.name,
    property: 'first_message_id',
    value: channelFirstMessageId(ctx.db, channel.id),
  });
}

/**
 * Removes messages and everything hanging off them. Returns the attachments that lost a link (the
 * caller announces them with announceAttachmentUpdates once committed).
 */
export function deleteMessageRows(db: Db, ids: readonly number[]): number[] {
  const statements = [
    'DELETE FROM reactions WHERE message_id = ?',
    'DELETE FROM submessages WHERE message_id = ?',
    'DELETE FROM user_messages WHERE message_id = ?',
    'DELETE FROM messages WHERE id = ?',
  ].map((sql) => db.prepare(sql));
  return db.transaction(() => {
    const unlinked = unlinkAttachmentsFromMessages(db, ids);
    for (const id of ids) for (const statement of statements) statement.run(id);
    return unlinked;
  })();
}

export function registerDeleteRoute(api: ApiRouter, ctx: RealmContext): void {
  api.delete('/messages/:message_id', { ids: ['message_id'] }, ({ user, ids }) => {
    const message = accessibleMessage(ctx.db, user, ids.message_id);
    if (!message) throw badRequest('Invalid message(s)');
    checkCanDelete(ctx, user, message);
    const audience = messageAudience(ctx.db, message);
    const channelId = message.channel_id;
    const firstBefore = channelId !== null ? channelFirstMessageId(ctx.db, channelId) : null;
    const unlinked = deleteMessageRows(ctx.db, [message.id]);
    if (channelId !== null) {
      announceFirstMessageId(ctx, channelId, firstBefore, [message.id], audience);
    }
    sendDeleteEvents(ctx, audience, [message]);
    announceAttachmentUpdates(ctx, unlinked);
  });
}
