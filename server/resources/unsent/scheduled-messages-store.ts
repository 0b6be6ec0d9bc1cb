// The scheduled_messages table (migration 8): scheduled messages and message reminders, both sent
// by the server at scheduled_delivery_timestamp (scheduled-delivery.ts), and their API objects.
import type { Db } from '../../db';
import { parseJson } from '../../db';
import { notFound } from '../../http/errors';

export interface ScheduledRow {
  id: number;
  user_id: number;
  delivery_type: 'send' | 'reminder';
  type: 'stream' | 'private';
  to_ids: string;
  topic: string;
  content: string;
  rendered_content: string;
  scheduled_delivery_timestamp: number;
  read_by_sender: number;
  reminder_target_message_id: number | null;
  failed: number;
  delivered: number;
  delivered_message_id: number | null;
}

/** A channel id for channel messages, the recipients' ids for direct messages. */
export function scheduledTo(row: ScheduledRow): number | number[] {
  return row.type === 'stream'
    ? Number(row.to_ids)
    : parseJson<number[]>(row.to_ids, []).sort((a, b) => a - b);
}

export function scheduledMessageObject(row: ScheduledRow): Record<string, unknown> {
  const object: Record<string, unknown> = {
    scheduled_message_id: row.id,
    to: scheduledTo(row),
    type: row.type,
    content: row.content,
    rendered_content: row.rendered_content,
    scheduled_delivery_timestamp: row.scheduled_delivery_timestamp,
    failed: row.failed === 1,
  };
  // The public server leaves topic out for direct messages.
  if (row.type === 'stream') object.topic = row.topic;
  return object;
}

export function reminderObject(row: ScheduledRow): Record<string, unknown> {
  return {
    reminder_id: row.id,
    type: row.type,
    to: scheduledTo(row),
    content: row.content,
    rendered_content: row.rendered_content,
    scheduled_delivery_timestamp: row.scheduled_delivery_timestamp,
    failed: row.failed === 1,
    reminder_target_message_id: row.reminder_target_message_id,
  };
}

/** The user's undelivered rows of one kind, soonest first. */
export function pendingRows(
  db: Db,
  userId: number,
  deliveryType: ScheduledRow['delivery_type'],
): ScheduledRow[] {
  return db
    .prepare<[number, string], ScheduledRow>(
      `SELECT * FROM scheduled_messages WHERE user_id = ? AND delivery_type = ? AND delivered = 0
       ORDER BY scheduled_delivery_timestamp, id`,
    )
    .all(userId, deliveryType);
}

export function getScheduledRow(db: Db, id: number): ScheduledRow | undefined {
  return db
    .prepare<[number], ScheduledRow>('SELECT * FROM scheduled_messages WHERE id = ?')
    .get(id);
}

/** The user's own undelivered row of that kind, or the public server's 404. */
export function ownPendingRow(
  db: Db,
  userId: number,
  id: number,
  deliveryType: ScheduledRow['delivery_type'],
): ScheduledRow {
  const row = getScheduledRow(db, id);
  if (!row || row.user_id !== userId || row.delivery_type !== deliveryType || row.delivered === 1) {
    throw notFound(
      deliveryType === 'send' ? 'Scheduled message does not exist' : 'Reminder does not exist',
    );
  }
  return row;
}

/** Rows due at `now` that have neither been delivered nor failed, oldest first. */
export function dueRows(db: Db, now: number): ScheduledRow[] {
  return db
    .prepare<[number], ScheduledRow>(
      `SELECT * FROM scheduled_messages
       WHERE delivered = 0 AND failed = 0 AND scheduled_delivery_timestamp <= ?
       ORDER BY scheduled_delivery_timestamp, id`,
    )
    .all(now);
}

export function nextDeliveryTimestamp(db: Db): number | undefined {
  return (
    db
      .prepare<[], { t: number | null }>(
        `SELECT MIN(scheduled_delivery_timestamp) AS t FROM scheduled_messages
         WHERE delivered = 0 AND failed = 0`,
      )
      .get()?.t ?? undefined
  );
}
