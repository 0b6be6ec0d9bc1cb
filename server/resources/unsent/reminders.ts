// Message reminders (FL381; GET, DELETE, register and events FL399): at the time, the Notification
// Bot sends the user a direct message quoting the message they asked to be reminded of.
import type { ResourceModule } from '../module';
import type { AuthUser, RealmContext } from '../../realm/context';
import { p } from '../../http/params';
import { badRequest } from '../../http/errors';
import { accessibleMessage, type MessageRow } from '../messages/messages-store';
import { getChannel } from '../channels/channels-store';
import { getUserRow } from '../users/users-store';
import { databaseLookup } from '../../markdown/lookup';
import { renderMessage } from '../../markdown/render';
import { checkFutureTimestamp } from './scheduled-messages';
import {
  getScheduledRow,
  ownPendingRow,
  pendingRows,
  reminderObject,
} from './scheduled-messages-store';
import { announceScheduled, rescheduleDeliveries } from './scheduled-delivery';

/** The reminder's text, written when it is created (as the public server does). */
function reminderContent(ctx: RealmContext, message: MessageRow): string {
  const channel = message.channel_id === null ? undefined : getChannel(ctx.db, message.channel_id);
  const intro = channel
    ? `You requested a reminder for #**${channel.name}>${message.topic}@${message.id}**.`
    : 'You requested a reminder for the following direct message.';
  const sender = getUserRow(ctx.db, message.sender_id);
  const said = sender ? `@_**${sender.full_name}|${sender.id}** said:` : 'A user said:';
  return `${intro}\n\n${said}\n\`\`\`\`quote\n${message.content}\n\`\`\`\``;
}

function createReminder(
  ctx: RealmContext,
  user: AuthUser,
  message: MessageRow,
  timestamp: number,
): number {
  const content = reminderContent(ctx, message);
  const rendered = renderMessage(content, databaseLookup(ctx.db, user)).html;
  return Number(
    ctx.db
      .prepare(
        `INSERT INTO scheduled_messages (user_id, delivery_type, type, to_ids, topic, content,
           rendered_content, scheduled_delivery_timestamp, read_by_sender,
           reminder_target_message_id)
         VALUES (?, 'reminder', 'private', ?, '', ?, ?, ?, 0, ?)`,
      )
      .run(user.id, JSON.stringify([user.id]), content, rendered, timestamp, message.id)
      .lastInsertRowid,
  );
}

export const remindersResource: ResourceModule = {
  name: 'reminders',
  routes(api, ctx) {
    api.get('/reminders', {}, ({ user }) => ({
      reminders: pendingRows(ctx.db, user.id, 'reminder').map(reminderObject),
    }));

    api.post(
      '/reminders',
      { params: { message_id: p.int(), scheduled_delivery_timestamp: p.int() } },
      ({ user, params }) => {
        checkFutureTimestamp(ctx, params.scheduled_delivery_timestamp);
        const message = accessibleMessage(ctx.db, user, params.message_id);
        if (!message) throw badRequest('Invalid message(s)');
        const id = createReminder(ctx, user, message, params.scheduled_delivery_timestamp);
        announceScheduled(ctx, 'add', getScheduledRow(ctx.db, id)!);
        rescheduleDeliveries(ctx);
        return { reminder_id: id };
      },
    );

    api.delete('/reminders/:reminder_id', { ids: ['reminder_id'] }, ({ user, ids }) => {
      const row = ownPendingRow(ctx.db, user.id, ids.reminder_id, 'reminder');
      ctx.db.prepare('DELETE FROM scheduled_messages WHERE id = ?').run(row.id);
      announceScheduled(ctx, 'remove', row);
      rescheduleDeliveries(ctx);
    });
  },

  initialState(ctx, user, request) {
    if (!request.wants('reminders')) return {};
    return { reminders: pendingRows(ctx.db, user.id, 'reminder').map(reminderObject) };
  },
};
