// Attachment records: one row per uploaded file (owner, name, path_id, size, create_time) and the
// messages that link to it (attachment_messages). Who may download a file follows from these links:
// its owner, anyone who received a message that links it, and anyone who can read the history of a
// channel with such a message.
//
// For the message code (send, edit, delete):
//   linkAttachmentsToMessage(db, senderId, messageId, contentOrPathIds) after inserting a message;
//   detachedUploadsAfterEdit(db, editorId, messageId, newContentOrPathIds) when content changes,
//     for PATCH /messages' detached_uploads;
//   unlinkAttachmentsFromMessages(db, messageIds) BEFORE deleting messages (attachment_messages
//     references messages(id) and foreign keys are on);
//   announceAttachmentUpdates(ctx, attachmentIds) to send the owners `attachment` update events.
import type { Db } from '../db';
import { toAuthUser } from '../http/auth';
import { canReadMessageHistory, type ChannelAccessRow } from '../realm/permissions';
import type { AuthUser, RealmContext } from '../realm/context';
import type { Attachment } from '../../shared/api/types';

export interface AttachmentRow {
  id: number;
  path_id: string;
  file_name: string;
  content_type: string | null;
  size: number;
  owner_id: number;
  create_time: number;
  is_web_public: number;
}

/** The API's attachment object at our feature level (create_time and date_sent in milliseconds). */
export type AttachmentDict = Attachment;

export interface NewAttachment {
  ownerId: number;
  name: string;
  pathId: string;
  size: number;
  contentType: string;
  createTime: number;
}

export function insertAttachment(db: Db, a: NewAttachment): AttachmentRow {
  const { lastInsertRowid } = db
    .prepare(
      `INSERT INTO attachments (path_id, file_name, content_type, size, owner_id, create_time)
       VALUES (?, ?, ?, ?, ?, ?)`,
    )
    .run(a.pathId, a.name, a.contentType, a.size, a.ownerId, a.createTime);
  return attachmentById(db, Number(lastInsertRowid))!;
}

export function attachmentById(db: Db, id: number): AttachmentRow | undefined {
  return db.prepare<[number], AttachmentRow>('SELECT * FROM attachments WHERE id = ?').get(id);
}

export function attachmentByPathId(db: Db, pathId: string): AttachmentRow | undefined {
  return db
    .prepare<[string], AttachmentRow>('SELECT * FROM attachments WHERE path_id = ?')
    .get(pathId);
}

/** Deletes the row and its message links (the caller removes the file). */
export function deleteAttachmentRow(db: Db, id: number): void {
  db.transaction(() => {
    db.prepare('DELETE FROM attachment_messages WHERE attachment_id = ?').run(id);
    db.prepare('DELETE FROM attachments WHERE id = ?').run(id);
  })();
}

export function ownedAttachments(db: Db, ownerId: number): AttachmentRow[] {
  return db
    .prepare<[number], AttachmentRow>(
      'SELECT * FROM attachments WHERE owner_id = ? ORDER BY create_time DESC, id DESC',
    )
    .all(ownerId);
}

/** Bytes used by every upload in the realm (the API's upload_space_used). */
export function uploadSpaceUsed(db: Db): number {
  const row = db.prepare('SELECT COALESCE(SUM(size), 0) AS used FROM attachments').get() as {
    used: number;
  };
  return row.used;
}

export function attachmentDict(db: Db, row: AttachmentRow): AttachmentDict {
  const messages = db
    .prepare<[number], { id: number; timestamp: number }>(
      `SELECT m.id, m.timestamp FROM attachment_messages am JOIN messages m ON m.id = am.message_id
        WHERE am.attachment_id = ? ORDER BY m.id`,
    )
    .all(row.id)
    .map((m) => ({ id: m.id, date_sent: m.timestamp * 1000 }));
  return {
    id: row.id,
    name: row.file_name,
    path_id: row.path_id,
    size: row.size,
    create_time: row.create_time * 1000,
    messages,
  };
}

/** Owner, a recipient of a linking message, or a reader of a linking channel message's history. */
export function canUserAccessAttachment(db: Db, user: AuthUser, row: AttachmentRow): boolean {
  if (row.owner_id === user.id) return true;
  const received = db
    .prepare(
      `SELECT 1 FROM attachment_messages am
         JOIN user_messages um ON um.message_id = am.message_id AND um.user_id = ?
        WHERE am.attachment_id = ? LIMIT 1`,
    )
    .get(user.id, row.id);
  if (received) return true;
  const channels = db
    .prepare<[number], ChannelAccessRow>(
      `SELECT DISTINCT c.id, c.invite_only, c.is_web_public, c.history_public_to_subscribers,
              c.is_archived, c.group_settings
         FROM attachment_messages am
         JOIN messages m ON m.id = am.message_id
         JOIN channels c ON c.id = m.channel_id
        WHERE am.attachment_id = ?`,
    )
    .all(row.id);
  return channels.some((channel) => canReadMessageHistory(db, user, channel));
}

// /user_uploads/<path_id> in raw markdown, rendered HTML or an absolute URL; the path_id ends at
// whitespace, quotes, brackets, '?', '#' or '<'.
const UPLOAD_LINK = /\/user_uploads\/(?:download\/)?(\d+\/[0-9a-f]{2}\/[\w-]+\/[^\s"'<>()?#[\]]+)/g;

/** Distinct path_ids linked from message content (markdown or HTML), percent-decoded. */
export function extractUploadPathIds(content: string): string[] {
  const found = new Set<string>();
  for (const match of content.matchAll(UPLOAD_LINK)) {
    let pathId = match[1].replace(/&amp;/g, '&');
    try {
      pathId = decodeURIComponent(pathId);
    } catch {
      // keep the raw text: it simply will not match a stored path_id
    }
    found.add(pathId);
  }
  return [...found];
}

function resolveLinkedAttachments(
  db: Db,
  senderId: number,
  contentOrPathIds: string | readonly string[],
): AttachmentRow[] {
  const pathIds =
    typeof contentOrPathIds === 'string'
      ? extractUploadPathIds(contentOrPathIds)
      : contentOrPathIds.map((p) => p.replace(/^download\//, ''));
  if (pathIds.length === 0) return [];
  const sender = loadUser(db, senderId);
  const rows: AttachmentRow[] = [];
  for (const pathId of new Set(pathIds)) {
    const row = attachmentByPathId(db, pathId);
    // A sender may only share files they could download themselves; anything else stays unlinked
    // so a guessed path_id never grants access to someone else's private file.
    if (row && sender && canUserAccessAttachment(db, sender, row)) rows.push(row);
  }
  return rows;
}

/**
 * Links the uploads a new message refers to (by content, or by the path_ids the renderer found).
 * Returns the ids of attachments that gained a link.
 */
export function linkAttachmentsToMessage(
  db: Db,
  senderId: number,
  messageId: number,
  contentOrPathIds: string | readonly string[],
): number[] {
  const rows = resolveLinkedAttachments(db, senderId, contentOrPathIds);
  const insert = db.prepare(
    'INSERT OR IGNORE INTO attachment_messages (attachment_id, message_id) VALUES (?, ?)',
  );
  const linked: number[] = [];
  db.transaction(() => {
    for (const row of rows) {
      if (insert.run(row.id, messageId).changes > 0) linked.push(row.id);
    }
  })();
  return linked;
}

export interface RelinkResult {
  linked: number[];
  unlinked: number[];
  /** The editor's own uploads this edit left referenced by no message at all. */
  detached: AttachmentDict[];
}

/** Brings a message's links in line with its edited content. */
export function relinkAttachmentsAfterEdit(
  db: Db,
  editorId: number,
  messageId: number,
  newContentOrPathIds: string | readonly string[],
): RelinkResult {
  const wanted = new Map(
    resolveLinkedAttachments(db, editorId, newContentOrPathIds).map((row) => [row.id, row]),
  );
  const current = db
    .prepare<[number], { attachment_id: number }>(
      'SELECT attachment_id FROM attachment_messages WHERE message_id = ?',
    )
    .all(messageId)
    .map((r) => r.attachment_id);
  const result: RelinkResult = { linked: [], unlinked: [], detached: [] };
  db.transaction(() => {
    const remove = db.prepare(
      'DELETE FROM attachment_messages WHERE attachment_id = ? AND message_id = ?',
    );
    for (const id of current) {
      if (wanted.has(id)) continue;
      remove.run(id, messageId);
      result.unlinked.push(id);
    }
    const insert = db.prepare(
      'INSERT OR IGNORE INTO attachment_messages (attachment_id, message_id) VALUES (?, ?)',
    );
    for (const id of wanted.keys()) {
      if (insert.run(id, messageId).changes > 0) result.linked.push(id);
    }
  })();
  const stillLinked = db.prepare(
    'SELECT 1 FROM attachment_messages WHERE attachment_id = ? LIMIT 1',
  );
  for (const id of result.unlinked) {
    const row = attachmentById(db, id);
    if (row && row.owner_id === editorId && !stillLinked.get(id)) {
      result.detached.push(attachmentDict(db, row));
    }
  }
  return result;
}

/** PATCH /messages' detached_uploads: relinks the message and returns the uploads left orphaned. */
export function detachedUploadsAfterEdit(
  db: Db,
  editorId: number,
  messageId: number,
  newContentOrPathIds: string | readonly string[],
): AttachmentDict[] {
  return relinkAttachmentsAfterEdit(db, editorId, messageId, newContentOrPathIds).detached;
}

/** Removes the links of messages about to be deleted; returns the attachments that lost one. */
export function unlinkAttachmentsFromMessages(db: Db, messageIds: readonly number[]): number[] {
  if (messageIds.length === 0) return [];
  const affected = new Set<number>();
  const select = db.prepare<[number], { attachment_id: number }>(
    'SELECT attachment_id FROM attachment_messages WHERE message_id = ?',
  );
  const remove = db.prepare('DELETE FROM attachment_messages WHERE message_id = ?');
  db.transaction(() => {
    for (const messageId of messageIds) {
      for (const r of select.all(messageId)) affected.add(r.attachment_id);
      remove.run(messageId);
    }
  })();
  return [...affected];
}

/** Sends each affected owner an `attachment` update event with the attachment's current links. */
export function announceAttachmentUpdates(ctx: RealmContext, attachmentIds: readonly number[]) {
  if (attachmentIds.length === 0) return;
  const used = uploadSpaceUsed(ctx.db);
  for (const id of new Set(attachmentIds)) {
    const row = attachmentById(ctx.db, id);
    if (!row) continue;
    ctx.events.send([row.owner_id], {
      type: 'attachment',
      op: 'update',
      attachment: attachmentDict(ctx.db, row),
      upload_space_used: used,
    });
  }
}

function loadUser(db: Db, userId: number): AuthUser | undefined {
  const row = db
    .prepare(
      `SELECT id, email, delivery_email, full_name, role, is_active, is_bot, bot_type, bot_owner_id,
              can_create_users, api_key
         FROM users WHERE id = ?`,
    )
    .get(userId) as Parameters<typeof toAuthUser>[0] | undefined;
  return row ? toAuthUser(row) : undefined;
}
