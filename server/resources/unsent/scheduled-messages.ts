// Scheduled messages (FL179/184): GET/POST /scheduled_messages, PATCH/DELETE
// /scheduled_messages/{id}, scheduled_messages events to the owner and the register key. The
// destination and content pass the send path's checks when scheduled (and again when delivered).
import type { ResourceModule } from '../module';
import type { AuthUser, RealmContext } from '../../realm/context';
import { p } from '../../http/params';
import { badRequest } from '../../http/errors';
import { resolveSendTarget, toParam, type SendRequest } from '../messages/messages-send';
import { validateContent } from '../messages/messages-rules';
import { clientNameFrom, defaultReadBySender } from '../messages/client-name';
import {
  getScheduledRow,
  ownPendingRow,
  pendingRows,
  scheduledMessageObject,
  scheduledTo,
  type ScheduledRow,
} from './scheduled-messages-store';
import {
  announceScheduled,
  rescheduleDeliveries,
  startScheduledDelivery,
} from './scheduled-delivery';

const SEND_TYPES = ['direct', 'channel', 'stream', 'private'] as const;

export function checkFutureTimestamp(ctx: RealmContext, timestamp: number): void {
  if (timestamp <= ctx.nowSeconds()) {
    throw badRequest('Scheduled delivery time must be in the future.');
  }
}

/** The stored destination columns of a send request that passed the send path's checks. */
function checkedDestination(
  ctx: RealmContext,
  user: AuthUser,
  request: SendRequest,
): Pick<ScheduledRow, 'type' | 'to_ids' | 'topic' | 'rendered_content'> {
  const { target, rendered } = resolveSendTarget(ctx, user, request);
  return target.kind === 'channel'
    ? {
        type: 'stream',
        to_ids: String(target.channel.id),
        topic: target.topic,
        rendered_content: rendered.html,
      }
    : {
        type: 'private',
        to_ids: JSON.stringify(target.userIds),
        topic: '',
        rendered_content: rendered.html,
      };
}

export const scheduledMessagesResource: ResourceModule = {
  name: 'scheduled-messages',
  routes(api, ctx) {
    api.get('/scheduled_messages', {}, ({ user }) => ({
      scheduled_messages: pendingRows(ctx.db, user.id, 'send').map(scheduledMessageObject),
    }));

    api.post(
      '/scheduled_messages',
      {
        params: {
          type: p.enumOf(SEND_TYPES),
          to: toParam,
          content: p.string(),
          topic: p.string().optional(),
          scheduled_delivery_timestamp: p.int(),
          read_by_sender: p.bool().optional(),
        },
      },
      ({ user, params, request }) => {
        checkFutureTimestamp(ctx, params.scheduled_delivery_timestamp);
        const content = validateContent(params.content);
        const destination = checkedDestination(ctx, user, {
          type: params.type,
          to: params.to,
          topic: params.topic,
          content,
        });
        const readBySender =
          params.read_by_sender ??
          defaultReadBySender(clientNameFrom(undefined, request.headers['user-agent']));
        const id = Number(
          ctx.db
            .prepare(
              `INSERT INTO scheduled_messages (user_id, delivery_type, type, to_ids, topic, content,
                 rendered_content, scheduled_delivery_timestamp, read_by_sender)
               VALUES (?, 'send', ?, ?, ?, ?, ?, ?, ?)`,
            )
            .run(
              user.id,
              destination.type,
              destination.to_ids,
              destination.topic,
              content,
              destination.rendered_content,
              params.scheduled_delivery_timestamp,
              readBySender ? 1 : 0,
            ).lastInsertRowid,
        );
        announceScheduled(ctx, 'add', getScheduledRow(ctx.db, id)!);
        rescheduleDeliveries(ctx);
        return { scheduled_message_id: id };
      },
    );

    api.patch(
      '/scheduled_messages/:scheduled_message_id',
      {
        ids: ['scheduled_message_id'],
        params: {
          type: p.enumOf(SEND_TYPES).optional(),
          to: toParam.optional(),
          content: p.string().optional(),
          topic: p.string().optional(),
          scheduled_delivery_timestamp: p.int().optional(),
        },
      },
      ({ user, params, ids }) => {
        const row = ownPendingRow(ctx.db, user.id, ids.scheduled_message_id, 'send');
        const { type, to, content, topic, scheduled_delivery_timestamp: timestamp } = params;
        if ([type, to, content, topic, timestamp].every((v) => v === undefined)) {
          throw badRequest('Nothing to change');
        }
        if (type !== undefined && to === undefined) {
          throw badRequest('Recipient required when updating type of scheduled message.');
        }
        // A failed message is only retried with a new time, still ahead.
        if (row.failed === 1 && timestamp === undefined) {
          throw badRequest('Scheduled delivery time must be in the future.');
        }
        if (timestamp !== undefined) checkFutureTimestamp(ctx, timestamp);
        const newTimestamp = timestamp ?? row.scheduled_delivery_timestamp;
        const newContent = content === undefined ? row.content : validateContent(content);
        const destination = checkedDestination(ctx, user, {
          type: type ?? row.type,
          to: to ?? scheduledTo(row),
          topic: topic ?? row.topic,
          content: newContent,
        });
        ctx.db
          .prepare(
            `UPDATE scheduled_messages SET type = ?, to_ids = ?, topic = ?, content = ?,
               rendered_content = ?, scheduled_delivery_timestamp = ?, failed = 0 WHERE id = ?`,
          )
          .run(
            destination.type,
            destination.to_ids,
            destination.topic,
            newContent,
            destination.rendered_content,
            newTimestamp,
            row.id,
          );
        announceScheduled(ctx, 'update', getScheduledRow(ctx.db, row.id)!);
        rescheduleDeliveries(ctx);
      },
    );

    api.delete(
      '/scheduled_messages/:scheduled_message_id',
      { ids: ['scheduled_message_id'] },
      ({ user, ids }) => {
        const row = ownPendingRow(ctx.db, user.id, ids.scheduled_message_id, 'send');
        ctx.db.prepare('DELETE FROM scheduled_messages WHERE id = ?').run(row.id);
        announceScheduled(ctx, 'remove', row);
        rescheduleDeliveries(ctx);
      },
    );
  },

  initialState(ctx, user, request) {
    if (!request.wants('scheduled_messages')) return {};
    return {
      scheduled_messages: pendingRows(ctx.db, user.id, 'send').map(scheduledMessageObject),
    };
  },

  start: startScheduledDelivery,
};
