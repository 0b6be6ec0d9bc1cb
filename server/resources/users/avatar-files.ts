// Uploaded avatars (avatar_source 'U'): the image is decoded, cropped square and stored as a
// 100 px PNG (the public server's size) under DIR/uploads/avatars/<user id>-<version>.png, and
// served without credentials at /user_avatars/1/avatars/<user id>-<version>.png, because clients
// show avatars in plain <img> tags. A new upload bumps avatar_version, so the URL changes with it.
import { mkdirSync } from 'node:fs';
import { rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import sharp from 'sharp';
import type { MultipartFile } from '@fastify/multipart';
import type { ResourceModule } from '../module';
import type { RealmContext } from '../../realm/context';
import { SENT } from '../../http/router';
import { ApiError, badRequest, notFound } from '../../http/errors';
import { REALM_ID } from '../../uploads/storage';
import { sendStoredImage } from '../../uploads/serve';
import { sniffImage } from '../realm/realm-emoji';

/** The public server's default max_avatar_file_size_mib. */
export const MAX_AVATAR_FILE_SIZE_MIB = 5;
const AVATAR_PIXELS = 100;
const AVATAR_PATH = `/user_avatars/${REALM_ID}/avatars`;
const FILE_NAME = /^(\d+)-(\d+)\.png$/;

const avatarFolder = (ctx: RealmContext) => join(ctx.uploadsDir, 'avatars');

export function uploadedAvatarUrl(userId: number, version: number): string {
  return `${AVATAR_PATH}/${userId}-${version}.png`;
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

/**
 * `image` cropped to the middle square and scaled to the public server's avatar size (also its
 * organization icon size), as PNG; anything but a PNG, GIF, JPEG or WebP that decodes is BAD_IMAGE.
 */
export async function squarePng(image: Buffer): Promise<Buffer> {
  if (!sniffImage(image)) throw new ApiError('BAD_IMAGE', 'Invalid image format', 400);
  try {
    return await sharp(image, { limitInputPixels: 50_000_000 })
      .rotate()
      .resize(AVATAR_PIXELS, AVATAR_PIXELS, { fit: 'cover' })
      .png()
      .toBuffer();
  } catch {
    throw new ApiError('BAD_IMAGE', 'Could not decode image; did you upload an image file?', 400);
  }
}

/**
 * Stores `image` as the user's avatar and returns the new avatar_version. The row is changed only
 * after the file is written, so a failure leaves the old avatar in place.
 */
export async function storeAvatar(
  ctx: RealmContext,
  userId: number,
  image: Buffer,
): Promise<number> {
  const png = await squarePng(image);
  const row = ctx.db
    .prepare<[number], { avatar_version: number }>('SELECT avatar_version FROM users WHERE id = ?')
    .get(userId);
  const version = (row?.avatar_version ?? 0) + 1;
  const path = join(avatarFolder(ctx), `${userId}-${version}.png`);
  await writeFile(path, png);
  try {
    ctx.db
      .prepare("UPDATE users SET avatar_source = 'U', avatar_version = ? WHERE id = ?")
      .run(version, userId);
  } catch (error) {
    await rm(path, { force: true });
    throw error;
  }
  return version;
}

export const avatarFilesResource: ResourceModule = {
  name: 'avatar-files',
  routes(api, ctx) {
    mkdirSync(avatarFolder(ctx), { recursive: true });
    api.get(
      `${AVATAR_PATH}/:file_name`,
      { absolute: true, auth: false },
      async ({ path, reply }): Promise<typeof SENT> => {
        if (!FILE_NAME.test(path.file_name)) throw notFound('File not found');
        await sendStoredImage(reply, join(avatarFolder(ctx), path.file_name), 'image/png');
        return SENT;
      },
    );
  },
};
