// Delivery of scheduled messages and reminders at their time: one timer per server, armed for the
// soonest pending row and re-armed whenever a row changes. On start, whatever fell due while the
// server was down is delivered at once. A scheduled message goes out as its owner through the
// send path's own checks; when they refuse it, or it is over ten minutes late (the server was
// down), the row is marked failed (as the public server does) and the Notification Bot tells the
// owner why. A failed reminder or a deactivated owner's message fails quietly.
import { ApiError } from '../../http/errors';
import type { RealmContext } from '../../realm/context';
import { deadlineTimer, type DeadlineTimer } from '../../realm/deadline-timer';
import { createMessage, resolveSendTarget } from '../messages/messages-send';
import { getUserRow, toViewer } from '../users/users-store';
import { notificationBot } from '../users/system-bots';
import {
  dueRows,
  getScheduledRow,
  nextDeliveryTimestamp,
  reminderObject,
  scheduledMessageObject,
  scheduledTo,
  type ScheduledRow,
} from './scheduled-messages-store';

/** As the public server: a message more than this late (the server was down) is not sent. */
const LATE_CUTOFF_SECONDS = 10 * 60;

/** The owner can no longer send: failed quietly, as the public server does for a deactivated user. */
class OwnerDeactivated extends Error {}

/** Tells the owner's queues about a change to one of their rows. */
export function announceScheduled(
  ctx: RealmContext,
  op: 'add' | 'update' | 'remove',
  row: ScheduledRow,
): void {
  const isReminder = row.delivery_type === 'reminder';
  const type = isReminder ? 'reminders' : 'scheduled_messages';
  const object = isReminder ? reminderObject(row) : scheduledMessageObject(row);
  if (op === 'add') {
    ctx.events.send([row.user_id], { type, op, [type]: [object] });
  } else if (op === 'update') {
    // The public server has no reminders update event; a failed reminder stays listed as it is.
    if (!isReminder) ctx.events.send([row.user_id], { type, op, scheduled_message: object });
  } else {
    const idKey = isReminder ? 'reminder_id' : 'scheduled_message_id';
    ctx.events.send([row.user_id], { type, op, [idKey]: row.id });
  }
}

const schedulers = new WeakMap<RealmContext, DeadlineTimer>();

/** Re-arms the timer after rows were added, changed or removed. */
export function rescheduleDeliveries(ctx: RealmContext): void {
  schedulers.get(ctx)?.rearm();
}

export function startScheduledDelivery(ctx: RealmContext): () => void {
  const timer = deadlineTimer(
    () => nextDeliveryTimestamp(ctx.db),
    () => deliverDue(ctx),
  );
  schedulers.set(ctx, timer);
  deliverDue(ctx);
  timer.rearm();
  return timer.stop;
}

function deliverDue(ctx: RealmContext): void {
  for (const row of dueRows(ctx.db, ctx.nowSeconds())) {
    try {
      const messageId = deliverRow(ctx, row);
      ctx.db
        .prepare(
          'UPDATE scheduled_messages SET delivered = 1, delivered_message_id = ? WHERE id = ?',
        )
        .run(messageId, row.id);
      announceScheduled(ctx, 'remove', row);
    } catch (error) {
      ctx.db.prepare('UPDATE scheduled_messages SET failed = 1 WHERE id = ?').run(row.id);
      if (error instanceof OwnerDeactivated || row.delivery_type === 'reminder') continue;
      if (!(error instanceof ApiError)) console.error(error);
      const reason = error instanceof ApiError ? error.message : 'Internal server error';
      announceScheduled(ctx, 'update', getScheduledRow(ctx.db, row.id)!);
      notifyFailure(ctx, row, reason);
    }
  }
}

/** Sends the row's message and returns its id; throws the send path's ApiError on refusal. */
function deliverRow(ctx: RealmContext, row: ScheduledRow): number {
  const ownerRow = getUserRow(ctx.db, row.user_id);
  if (!ownerRow || ownerRow.is_active !== 1) throw new OwnerDeactivated();
  const owner = toViewer(ownerRow);
  if (row.delivery_type === 'reminder') {
    const created = createMessage(
      ctx,
      notificationBot(ctx.db),
      { kind: 'direct', userIds: [owner.id] },
      row.content,
      { client: 'Internal', readBySender: false },
    );
    return created.row.id;
  }
  if (ctx.nowSeconds() > row.scheduled_delivery_timestamp + LATE_CUTOFF_SECONDS) {
    throw new ApiError('BAD_REQUEST', 'Message could not be sent at the scheduled time.');
  }
  const { target, rendered } = resolveSendTarget(ctx, owner, {
    type: row.type,
    to: scheduledTo(row),
    topic: row.topic,
    content: row.content,
  });
  const created = createMessage(ctx, owner, target, row.content, {
    client: 'Internal',
    readBySender: row.read_by_sender === 1,
    rendered,
  });
  return created.row.id;
}

function notifyFailure(ctx: RealmContext, row: ScheduledRow, reason: string): void {
  const when = new Date(row.scheduled_delivery_timestamp * 1000).toISOString();
  const content =
    `The message you scheduled for <time:${when}> was not sent because of the following error:\n\n` +
    `> ${reason}\n\n[View scheduled messages](#scheduled)\n\n`;
  try {
    createMessage(
      ctx,
      notificationBot(ctx.db),
      { kind: 'direct', userIds: [row.user_id] },
      content,
      {
        client: 'Internal',
        readBySender: false,
      },
    );
  } catch (error) {
    console.error(error);
  }
}
