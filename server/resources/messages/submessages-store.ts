// The submessages table: the widget submessage stored with a /poll or /todo message, and loading
// each message's submessages for message objects (shared by sending, fetching and events).
import type { Db } from '../../db';
import { pythonJson, widgetContentFor } from '../../realm/widgets';
import type { Submessage } from '../../../shared/api/types';

export function insertSubmessage(db: Db, row: Omit<Submessage, 'id'>): number {
  return Number(
    db
      .prepare(
        'INSERT INTO submessages (message_id, sender_id, msg_type, content) VALUES (?, ?, ?, ?)',
      )
      .run(row.message_id, row.sender_id, row.msg_type, row.content).lastInsertRowid,
  );
}

/** Stores the widget submessage of a message being sent, when its text asks for one. */
export function storeWidgetSubmessage(
  db: Db,
  messageId: number,
  senderId: number,
  content: string,
): void {
  const widget = widgetContentFor(content);
  if (!widget) return;
  insertSubmessage(db, {
    message_id: messageId,
    sender_id: senderId,
    msg_type: 'widget',
    content: pythonJson(widget),
  });
}

/** Each message's submessages in the order they were made, for a batch of message ids. */
export function submessagesFor(db: Db, ids: readonly number[]): Map<number, Submessage[]> {
  const map = new Map<number, Submessage[]>();
  // Chunked to stay under SQLite's bound-parameter limit for 5000-message fetches.
  for (let i = 0; i < ids.length; i += 500) {
    const chunk = ids.slice(i, i + 500);
    const rows = db
      .prepare<number[], Submessage>(
        `SELECT id, message_id, sender_id, msg_type, content FROM submessages
          WHERE message_id IN (${chunk.map(() => '?').join(',')}) ORDER BY message_id, id`,
      )
      .all(...chunk);
    for (const row of rows) {
      const list = map.get(row.message_id);
      if (list) list.push(row);
      else map.set(row.message_id, [row]);
    }
  }
  return map;
}
