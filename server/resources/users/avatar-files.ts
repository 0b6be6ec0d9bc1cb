// Where an uploaded avatar lives and the URL it is served at. As on the public server, the file name
// is a hash of the user id (not the id itself), the medium size is `<hash>-medium.png`, and the URL
// is realm-relative with `?version=` changing on every upload so caches never show an old picture.
import { createHash } from 'node:crypto';
import { mkdirSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { MultipartFile } from '@fastify/multipart';
import type { RealmContext } from '../../realm/context';
import { ApiError, badRequest } from '../../http/errors';
import { loadSharp } from '../../uploads/sharp';
import { REALM_ID } from '../../uploads/storage';
import { activeUserIds, avatarUrl, getUserRow } from './users-store';
import { checkDeclaredImage } from '../realm/realm-emoji';

export const AVATAR_PATH = `/user_avatars/${REALM_ID}`;

export function avatarHash(userId: number): string {
  return createHash('sha1').update(`tributary-avatar:${userId}`).digest('hex');
}

export function avatarFileName(userId: number, medium: boolean): string {
  return `${avatarHash(userId)}${medium ? '-medium' : ''}.png`;
}

export function avatarFilePath(uploadsDir: string, fileName: string): string {
  return join(uploadsDir, 'avatars', fileName);
}

export function uploadedAvatarUrl(userId: number, version: number, medium: boolean): string {
  return `${AVATAR_PATH}/${avatarFileName(userId, medium)}?version=${version}`;
}

/** The public server's default max_avatar_file_size_mib. */
export const MAX_AVATAR_FILE_SIZE_MIB = 5;
const SIZES = { small: 100, medium: 500 } as const;

/**
 * `image` cropped to the middle square and scaled to `size` (the public server's avatar size, also
 * its organization icon size, by default), as PNG; an image that is not one decodes to BAD_IMAGE.
 */
export async function squarePng(image: Buffer, size: number = SIZES.small): Promise<Buffer> {
  const sharp = await loadSharp();
  try {
    // The first frame only: an animated avatar would move in every message row.
    return await sharp(image, { animated: false, limitInputPixels: 50_000_000 })
      .rotate()
      .resize(size, size, { fit: 'cover' })
      .png()
      .toBuffer();
  } catch {
    throw new ApiError('BAD_IMAGE', 'Could not decode image; did you upload an image file?', 400);
  }
}

/** An uploaded picture in both sizes, made before anything is written: a bad image changes nothing. */
export interface RenderedAvatar {
  small: Buffer;
  medium: Buffer;
}

export async function renderAvatar(image: Buffer): Promise<RenderedAvatar> {
  const [small, medium] = await Promise.all([
    squarePng(image, SIZES.small),
    squarePng(image, SIZES.medium),
  ]);
  return { small, medium };
}

/** Writes a user's (or bot's) avatar files; the row is the caller's to change (markAvatar). */
export async function writeAvatarFiles(
  ctx: RealmContext,
  userId: number,
  avatar: RenderedAvatar,
): Promise<void> {
  mkdirSync(join(ctx.uploadsDir, 'avatars'), { recursive: true });
  await writeFile(avatarFilePath(ctx.uploadsDir, avatarFileName(userId, false)), avatar.small);
  await writeFile(avatarFilePath(ctx.uploadsDir, avatarFileName(userId, true)), avatar.medium);
}

/** Records where the user's avatar comes from (G: the default, U: uploaded) and a new version. */
export function markAvatar(ctx: RealmContext, userId: number, source: 'G' | 'U'): void {
  ctx.db
    .prepare('UPDATE users SET avatar_source = ?, avatar_version = avatar_version + 1 WHERE id = ?')
    .run(source, userId);
}

/** markAvatar, then tells everyone; answers the new URL. */
export function announceAvatar(
  ctx: RealmContext,
  userId: number,
  source: 'G' | 'U',
): { avatar_url: string } {
  markAvatar(ctx, userId, source);
  const row = getUserRow(ctx.db, userId)!;
  const avatar_url = avatarUrl(row);
  ctx.events.send(activeUserIds(ctx.db), {
    type: 'realm_user',
    op: 'update',
    person: {
      user_id: userId,
      avatar_url,
      avatar_url_medium: avatarUrl(row, true),
      avatar_source: source,
      avatar_version: row.avatar_version,
    },
  });
  return { avatar_url };
}

/**
 * Stores an uploaded avatar and tells everyone. The row is changed only after the files are
 * written, so a failure leaves the old avatar in place.
 */
export async function storeAvatar(
  ctx: RealmContext,
  userId: number,
  avatar: RenderedAvatar,
): Promise<{ avatar_url: string }> {
  await writeAvatarFiles(ctx, userId, avatar);
  return announceAvatar(ctx, userId, 'U');
}

/** The one file part of a multipart body, or null without one (more than one is refused). */
export async function singleUploadedFile(body: unknown): Promise<Buffer | null> {
  if (body == null || typeof body !== 'object') return null;
  const files = Object.values(body as Record<string, unknown>)
    .flat()
    .filter(
      (value): value is MultipartFile =>
        value != null && typeof value === 'object' && (value as { type?: unknown }).type === 'file',
    );
  if (files.length === 0) return null;
  if (files.length > 1) throw badRequest('You may only upload one file at a time');
  const bytes = await files[0].toBuffer();
  if (files[0].file.truncated || bytes.length > MAX_AVATAR_FILE_SIZE_MIB * 1024 * 1024)
    throw badRequest(
      `Uploaded file is larger than the allowed limit of ${MAX_AVATAR_FILE_SIZE_MIB} MiB`,
    );
  checkDeclaredImage(files[0], 'name');
  return bytes;
}
