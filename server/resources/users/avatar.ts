// Your own avatar: POST /users/me/avatar (one multipart image) and DELETE /users/me/avatar (back to
// the external avatar), each followed by a realm_user update to everyone with the new avatar_url,
// avatar_url_medium, avatar_source and avatar_version. Uploaded images are cropped to squares, 100 px
// and 500 px (medium), as PNG, and served without credentials like custom emoji, because every client
// shows them in plain <img> tags. `avatar_changes_disabled` stops members but not administrators.
import { mkdirSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { dirname } from 'node:path';
import { badRequest, notFound } from '../../http/errors';
import { SENT } from '../../http/router';
import type { AuthUser, RealmContext } from '../../realm/context';
import { isAdmin } from '../../realm/roles';
import { sendPublicImage } from '../../uploads/public-image';
import type { ResourceModule } from '../module';
import { checkDeclaredImage, fileParts } from '../realm/realm-emoji';
import { realmSetting } from '../realm/realm-settings';
import {
  AVATAR_PATH,
  MAX_AVATAR_FILE_SIZE_MIB,
  avatarFileName,
  avatarFilePath,
  avatarHash,
  announceAvatar,
  renderAvatar,
  storeAvatar,
} from './avatar-files';

const FILE_NAME = /^[0-9a-f]{40}(-medium)?\.png$/;

function checkMayChange(ctx: RealmContext, user: AuthUser): void {
  if (realmSetting<boolean>(ctx.db, 'avatar_changes_disabled', false) && !isAdmin(user.role)) {
    throw badRequest('Avatar changes are disabled in this organization.');
  }
}

export const avatarResource: ResourceModule = {
  name: 'avatar',
  routes(api, ctx) {
    mkdirSync(dirname(avatarFilePath(ctx.uploadsDir, 'x')), { recursive: true });
    const maxBytes = MAX_AVATAR_FILE_SIZE_MIB * 1024 * 1024;

    api.post('/users/me/avatar', { maxFileBytes: maxBytes }, async ({ user, request }) => {
      checkMayChange(ctx, user);
      const files = fileParts(request.body);
      if (files.length !== 1) throw badRequest('You must upload exactly one avatar.');
      const image = await files[0].toBuffer();
      if (files[0].file.truncated || image.length > maxBytes) {
        throw badRequest(
          `Uploaded file is larger than the allowed limit of ${MAX_AVATAR_FILE_SIZE_MIB} MiB`,
        );
      }
      checkDeclaredImage(files[0], 'name');
      return storeAvatar(ctx, user.id, await renderAvatar(image));
    });

    api.delete('/users/me/avatar', {}, async ({ user }) => {
      checkMayChange(ctx, user);
      const result = announceAvatar(ctx, user.id, 'G');
      for (const medium of [false, true]) {
        await rm(avatarFilePath(ctx.uploadsDir, avatarFileName(user.id, medium)), { force: true });
      }
      return result;
    });

    api.get(
      `${AVATAR_PATH}/:file_name`,
      { absolute: true, auth: false },
      async ({ path, reply }): Promise<typeof SENT> => {
        if (!FILE_NAME.test(path.file_name)) throw notFound('File not found');
        // Only a current uploaded avatar: one removed by DELETE is gone even if a copy lingers.
        const owner = ctx.db
          .prepare<[], { id: number }>("SELECT id FROM users WHERE avatar_source = 'U'")
          .all()
          .find((row) => path.file_name.startsWith(avatarHash(row.id)));
        if (!owner) throw notFound('File not found');
        const filePath = avatarFilePath(ctx.uploadsDir, path.file_name);
        await sendPublicImage(reply, filePath, 'image/png');
        return SENT;
      },
    );
  },
};
