// Links between messages and uploaded files. The attachments table belongs to the uploads module;
// messages only maintain attachment_messages (which messages reference which of the author's files)
// and report uploads an edit left unreferenced (PATCH /messages detached_uploads, spec 2.5).
import type { Db } from '../db';

interface AttachmentRow {
  id: number;
  path_id: string;
  file_name: string;
  size: number;
  create_time: number;
}

function findOwnedAttachment(db: Db, ownerId: number, pathId: string): AttachmentRow | undefined {
  // Links may carry the realm id in front of the stored path_id ("/user_uploads/1/ab/cd/x.png").
  const candidates = [pathId, pathId.replace(/^\d+\//, '')];
  for (const candidate of candidates) {
    const row = db
      .prepare<[string, number], AttachmentRow>(
        `SELECT id, path_id, file_name, size, create_time FROM attachments
          WHERE path_id = ? AND owner_id = ?`,
      )
      .get(candidate, ownerId);
    if (row) return row;
  }
  return undefined;
}

/** Replaces the message's links to the author's uploads with those in pathIds. */
export function setMessageAttachments(
  db: Db,
  authorId: number,
  messageId: number,
  pathIds: readonly string[],
): void {
  db.prepare('DELETE FROM attachment_messages WHERE message_id = ?').run(messageId);
  const link = db.prepare(
    'INSERT OR IGNORE INTO attachment_messages (attachment_id, message_id) VALUES (?, ?)',
  );
  for (const pathId of pathIds) {
    const attachment = findOwnedAttachment(db, authorId, pathId);
    if (attachment) link.run(attachment.id, messageId);
  }
}

export function attachmentIdsOf(db: Db, messageId: number): number[] {
  return db
    .prepare<[number], { attachment_id: number }>(
      'SELECT attachment_id FROM attachment_messages WHERE message_id = ?',
    )
    .all(messageId)
    .map((r) => r.attachment_id);
}

/** Detached upload records (spec 2.5) for attachments of ownerId no message references any more. */
export function detachedUploads(
  db: Db,
  ownerId: number,
  attachmentIds: Iterable<number>,
): Array<Record<string, unknown>> {
  const out: Array<Record<string, unknown>> = [];
  for (const id of new Set(attachmentIds)) {
    const row = db
      .prepare<[number, number], AttachmentRow>(
        `SELECT id, path_id, file_name, size, create_time FROM attachments
          WHERE id = ? AND owner_id = ?
            AND NOT EXISTS (SELECT 1 FROM attachment_messages am WHERE am.attachment_id = attachments.id)`,
      )
      .get(id, ownerId);
    if (row) {
      out.push({
        id: row.id,
        name: row.file_name,
        path_id: row.path_id,
        size: row.size,
        create_time: row.create_time,
        message_ids: [],
      });
    }
  }
  return out;
}
