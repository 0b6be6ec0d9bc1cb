// Where an uploaded avatar lives and the URL it is served at. As on the public server, the file name
// is a hash of the user id (not the id itself), the medium size is `<hash>-medium.png`, and the URL
// is realm-relative with `?version=` changing on every upload so caches never show an old picture.
import { createHash } from 'node:crypto';
import { join } from 'node:path';
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
