// Custom (realm) emoji: GET /realm/emoji, POST /realm/emoji/{emoji_name} (one multipart image),
// DELETE /realm/emoji/{emoji_name} (deactivates), the realm_emoji register state and the
// realm_emoji update event (the full dict, api-notes §5.8). Images live in DIR/uploads/emoji/
// and are served without credentials at /user_avatars/1/emoji/images/<file> (the public server's
// path), because every client renders them in plain <img> tags. Reactions and statuses validate
// realm_emoji against customEmojiTable().
import { randomBytes } from 'node:crypto';
import { mkdirSync } from 'node:fs';
import { rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { MultipartFile } from '@fastify/multipart';
import type { Db } from '../../db';
import { ApiError, badRequest, notFound } from '../../http/errors';
import { SENT } from '../../http/router';
import type { AuthUser, RealmContext } from '../../realm/context';
import { unicodeEmojiCodeForName, type CustomEmojiTable } from '../../realm/emoji';
import { realmGroupSettingAllows } from '../../realm/permissions';
import { isAdmin } from '../../realm/roles';
import { REALM_ID } from '../../uploads/storage';
import { sendPublicImage } from '../../uploads/public-image';
import type { ResourceModule } from '../module';
import { activeUserIds } from '../users/users-store';
import { emojiNameProblem, normalizeEmojiName } from '../../../shared/emoji/custom-emoji-name';
import { mediaTypeForName } from '../../../shared/media-types';

/** The public server's MAX_EMOJI_FILE_SIZE_MIB. */
export const MAX_EMOJI_FILE_SIZE_MIB = 5;
const IMAGE_PATH = `/user_avatars/${REALM_ID}/emoji/images`;
const FILE_NAME = /^[0-9a-f]{32}\.(png|gif|jpg|webp)$/;

interface RealmEmojiRow {
  id: number;
  name: string;
  author_id: number | null;
  file_name: string;
  content_type: string;
  deactivated: number;
}

const emojiFolder = (ctx: RealmContext) => join(ctx.uploadsDir, 'emoji');

function allEmoji(db: Db): RealmEmojiRow[] {
  return db.prepare<[], RealmEmojiRow>('SELECT * FROM realm_emoji ORDER BY id').all();
}

function activeEmojiByName(db: Db, name: string): RealmEmojiRow | undefined {
  return db
    .prepare<[string], RealmEmojiRow>(
      'SELECT * FROM realm_emoji WHERE name = ? AND deactivated = 0',
    )
    .get(name);
}

/** The custom emoji lookups reactions, statuses and markdown validate against. */
export function customEmojiTable(db: Db): CustomEmojiTable {
  const toEmoji = (row: RealmEmojiRow | undefined) =>
    row && { id: String(row.id), name: row.name, deactivated: row.deactivated === 1 };
  return {
    byId(id) {
      if (!/^\d+$/.test(id)) return undefined;
      return toEmoji(
        db
          .prepare<[number], RealmEmojiRow>('SELECT * FROM realm_emoji WHERE id = ?')
          .get(Number(id)),
      );
    },
    activeByName: (name) => toEmoji(activeEmojiByName(db, name)),
  };
}

export function emojiSourceUrl(fileName: string): string {
  return `${IMAGE_PATH}/${fileName}`;
}

/** realm_emoji as register, GET /realm/emoji and the update event carry it: every emoji by id. */
export function realmEmojiDict(db: Db): Record<string, Record<string, unknown>> {
  const dict: Record<string, Record<string, unknown>> = {};
  for (const row of allEmoji(db)) {
    dict[String(row.id)] = {
      id: String(row.id),
      name: row.name,
      source_url: emojiSourceUrl(row.file_name),
      deactivated: row.deactivated === 1,
      author_id: row.author_id,
      // Animated images would need a still frame rendered; none are produced here.
      still_url: null,
    };
  }
  return dict;
}

function announce(ctx: RealmContext): void {
  ctx.events.send(activeUserIds(ctx.db), {
    type: 'realm_emoji',
    op: 'update',
    realm_emoji: realmEmojiDict(ctx.db),
  });
}

/** The public server's emoji name rule (shared/emoji/custom-emoji-name.ts). */
export function checkEmojiName(name: string): void {
  const problem = emojiNameProblem(name);
  if (problem !== null) throw badRequest(problem);
}

/** The image type from the file's first bytes; the declared type and file name are not trusted. */
export function sniffImage(bytes: Buffer): { extension: string; contentType: string } | null {
  const starts = (signature: number[], offset = 0) =>
    bytes.length >= offset + signature.length &&
    signature.every((byte, i) => bytes[offset + i] === byte);
  if (starts([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) {
    return { extension: 'png', contentType: 'image/png' };
  }
  if (starts([0x47, 0x49, 0x46, 0x38]) && (bytes[4] === 0x37 || bytes[4] === 0x39)) {
    return { extension: 'gif', contentType: 'image/gif' };
  }
  if (starts([0xff, 0xd8, 0xff])) return { extension: 'jpg', contentType: 'image/jpeg' };
  if (starts([0x52, 0x49, 0x46, 0x46]) && starts([0x57, 0x45, 0x42, 0x50], 8)) {
    return { extension: 'webp', contentType: 'image/webp' };
  }
  return null;
}

/** The file parts of a multipart body (attachFieldsToBody: true). */
export function fileParts(body: unknown): MultipartFile[] {
  if (body == null || typeof body !== 'object') return [];
  return Object.values(body as Record<string, unknown>)
    .flat()
    .filter(
      (value): value is MultipartFile =>
        value != null && typeof value === 'object' && (value as { type?: unknown }).type === 'file',
    );
}

/** The public server's THUMBNAIL_ACCEPT_IMAGE_TYPES: what an uploaded image may declare. */
const DECLARED_IMAGE_TYPES = new Set([
  'image/avif',
  'image/gif',
  'image/heic',
  'image/jpeg',
  'image/png',
  'image/tiff',
  'image/webp',
]);

/**
 * Refuses an image part the public server refuses by its declaration: emoji and icons go by the
 * part's type, else its name's (get_file_info); avatars by the name alone (upload_avatar_image).
 * Only then do the bytes decide.
 */
export function checkDeclaredImage(file: MultipartFile, by: 'type' | 'name'): void {
  const declared = (by === 'type' ? file.mimetype : '') || mediaTypeForName(file.filename ?? '');
  if (!DECLARED_IMAGE_TYPES.has(declared)) {
    throw new ApiError('BAD_IMAGE', 'Invalid image format', 400);
  }
}

/**
 * The bytes of the body's one image file, refused (with `countMessage`) unless there is exactly
 * one, and when larger than `maxMib`. The route reads at most a byte past the limit
 * (maxFileBytes), so a larger file is never held whole. A part declared as no image
 * (application/octet-stream) is refused whatever its bytes, as on the public server.
 */
export async function exactlyOneFile(
  body: unknown,
  maxMib: number,
  countMessage: string,
): Promise<Buffer> {
  const files = fileParts(body);
  if (files.length !== 1) throw badRequest(countMessage);
  const bytes = await files[0].toBuffer();
  if (files[0].file.truncated || bytes.length > maxMib * 1024 * 1024) {
    throw badRequest(`Uploaded file is larger than the allowed limit of ${maxMib} MiB`);
  }
  checkDeclaredImage(files[0], 'type');
  return bytes;
}

/**
 * Adds an active custom emoji: the image is written first, then the row, so a failure leaves no
 * row pointing at a missing file (and the file is removed again if the row cannot be stored).
 */
export async function addRealmEmoji(
  ctx: RealmContext,
  emoji: { name: string; authorId: number | null; image: Buffer },
): Promise<number> {
  const type = sniffImage(emoji.image);
  if (!type) throw new ApiError('BAD_IMAGE', 'Invalid image format', 400);
  const fileName = `${randomBytes(16).toString('hex')}.${type.extension}`;
  const path = join(emojiFolder(ctx), fileName);
  await writeFile(path, emoji.image, { flag: 'wx' });
  try {
    return Number(
      ctx.db
        .prepare(
          `INSERT INTO realm_emoji (name, author_id, file_name, content_type, deactivated)
           VALUES (?, ?, ?, ?, 0)`,
        )
        .run(emoji.name, emoji.authorId, fileName, type.contentType).lastInsertRowid,
    );
  } catch (error) {
    await rm(path, { force: true });
    if ((error as { code?: string }).code === 'SQLITE_CONSTRAINT_UNIQUE') {
      throw badRequest('A custom emoji with this name already exists.');
    }
    throw error;
  }
}

function mayDelete(user: AuthUser, row: RealmEmojiRow): boolean {
  return isAdmin(user.role) || row.author_id === user.id;
}

export const realmEmojiResource: ResourceModule = {
  name: 'realm-emoji',
  routes(api, ctx) {
    mkdirSync(emojiFolder(ctx), { recursive: true });

    api.get('/realm/emoji', {}, () => ({ emoji: realmEmojiDict(ctx.db) }));

    const maxBytes = MAX_EMOJI_FILE_SIZE_MIB * 1024 * 1024;
    api.post(
      '/realm/emoji/:emoji_name',
      { maxFileBytes: maxBytes },
      async ({ user, path, request }) => {
        if (!realmGroupSettingAllows(ctx.db, user, 'can_add_custom_emoji_group')) {
          throw badRequest('Insufficient permission');
        }
        // As the public server does: surrounding spaces dropped, inner spaces become underscores.
        const name = normalizeEmojiName(path.emoji_name);
        checkEmojiName(name);
        if (unicodeEmojiCodeForName(name) !== undefined && !isAdmin(user.role)) {
          throw badRequest('Only administrators can override default emoji.');
        }
        if (activeEmojiByName(ctx.db, name)) {
          throw badRequest('A custom emoji with this name already exists.');
        }
        const image = await exactlyOneFile(
          request.body,
          MAX_EMOJI_FILE_SIZE_MIB,
          'You must upload exactly one file.',
        );
        await addRealmEmoji(ctx, { name, authorId: user.id, image });
        announce(ctx);
      },
    );

    api.delete('/realm/emoji/:emoji_name', {}, ({ user, path }) => {
      const row = activeEmojiByName(ctx.db, path.emoji_name);
      if (!row) throw notFound(`Emoji '${path.emoji_name}' does not exist`);
      if (!mayDelete(user, row)) {
        throw badRequest('Must be an organization administrator or emoji author');
      }
      // Deactivated, not deleted: existing reactions and statuses still name it by id.
      ctx.db.prepare('UPDATE realm_emoji SET deactivated = 1 WHERE id = ?').run(row.id);
      announce(ctx);
    });

    api.get(
      `${IMAGE_PATH}/:file_name`,
      { absolute: true, auth: false },
      async ({ path, reply }): Promise<typeof SENT> => {
        const row = FILE_NAME.test(path.file_name)
          ? ctx.db
              .prepare<[string], RealmEmojiRow>('SELECT * FROM realm_emoji WHERE file_name = ?')
              .get(path.file_name)
          : undefined;
        if (!row) throw notFound('File not found');
        const filePath = join(emojiFolder(ctx), row.file_name);
        await sendPublicImage(reply, filePath, row.content_type);
        return SENT;
      },
    );
  },

  initialState(ctx, _user, request) {
    return request.wants('realm_emoji') ? { realm_emoji: realmEmojiDict(ctx.db) } : {};
  },
};
