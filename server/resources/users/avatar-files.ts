// Where an uploaded avatar lives and the URL it is served at. As on the public server, the file name
// is a hash of the user id (not the id itself), the medium size is `<hash>-medium.png`, and the URL
// is realm-relative with `?version=` changing on every upload so caches never show an old picture.
import { createHash } from 'node:crypto';
import { mkdirSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import sharp from 'sharp';
import type { MultipartFile } from '@fastify/multipart';
import type { RealmContext } from '../../realm/context';
import { ApiError, badRequest } from '../../http/errors';
import { REALM_ID } from '../../uploads/storage';

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

/** Writes a user's (or bot's) uploaded avatar in both sizes; the row is the caller's to change. */
export async function writeAvatarFiles(
  ctx: RealmContext,
  userId: number,
  image: Buffer,
): Promise<void> {
  const [small, medium] = await Promise.all([
    squarePng(image, SIZES.small),
    squarePng(image, SIZES.medium),
  ]);
  mkdirSync(join(ctx.uploadsDir, 'avatars'), { recursive: true });
  await writeFile(avatarFilePath(ctx.uploadsDir, avatarFileName(userId, false)), small);
  await writeFile(avatarFilePath(ctx.uploadsDir, avatarFileName(userId, true)), medium);
}

/**
 * Stores `image` as the user's avatar and returns the new avatar_version. The row is changed only
 * after the files are written, so a failure leaves the old avatar in place.
 */
export async function storeAvatar(
  ctx: RealmContext,
  userId: number,
  image: Buffer,
): Promise<number> {
  await writeAvatarFiles(ctx, userId, image);
  ctx.db
    .prepare(
      "UPDATE users SET avatar_source = 'U', avatar_version = avatar_version + 1 WHERE id = ?",
    )
    .run(userId);
  const row = ctx.db
    .prepare<[number], { avatar_version: number }>('SELECT avatar_version FROM users WHERE id = ?')
    .get(userId);
  return row?.avatar_version ?? 1;
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
  return bytes;
}
