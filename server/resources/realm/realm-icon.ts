// The organization icon, as the public server keeps it: POST /realm/icon (one multipart image,
// administrators only) stores it as a 100 px square PNG and DELETE /realm/icon returns to the
// default, each bumping icon_version and telling everyone with a realm `update_dict` event
// (`property: "icon"`, data {icon_url, icon_source}). The file is served without credentials at
// /user_avatars/<realm id>/realm/icon.png?version=N (plain <img> tags, like avatars); the version
// query changes the URL with each upload. Register's realm_icon_url and realm_icon_source
// come from here (realm-settings.ts).
import { createHash } from 'node:crypto';
import { mkdirSync } from 'node:fs';
import { rename, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { ResourceModule } from '../module';
import type { RealmContext } from '../../realm/context';
import type { Db } from '../../db';
import { ApiError } from '../../http/errors';
import { requireAdmin } from '../../realm/permissions';
import { REALM_ID } from '../../uploads/storage';
import { exactlyOneFile, sniffImage } from './realm-emoji';
import { squarePng } from '../users/avatar-files';
import { SENT } from '../../http/router';
import { sendPublicImage } from '../../uploads/public-image';
import { activeUserIds } from '../users/users-store';

/** The public server's default max_icon_file_size_mib (also in register). */
export const MAX_ICON_FILE_SIZE_MIB = 5;
const ICON_PATH = `/user_avatars/${REALM_ID}/realm/icon.png`;
/**
 * The public server hashes the realm's subdomain (string_id) for the default identicon; this
 * server's one realm is at the root domain, whose string_id is the empty string.
 */
const REALM_STRING_ID = '';

/** 'G': the default (an identicon from the external avatar provider); 'U': uploaded. */
export type IconSource = 'G' | 'U';

interface IconRow {
  icon_source: IconSource;
  icon_version: number;
}

const iconFolder = (ctx: RealmContext) => join(ctx.uploadsDir, 'realm');

function iconRow(db: Db): IconRow {
  const row = db
    .prepare<[], IconRow>('SELECT icon_source, icon_version FROM realm WHERE id = 1')
    .get();
  return row ?? { icon_source: 'G', icon_version: 1 };
}

function iconUrl({ icon_source, icon_version }: IconRow): string {
  if (icon_source === 'U') return `${ICON_PATH}?version=${icon_version}`;
  const hash = createHash('md5').update(REALM_STRING_ID).digest('hex');
  return `https://secure.gravatar.com/avatar/${hash}?d=identicon`;
}

export function realmIconUrl(db: Db): string {
  return iconUrl(iconRow(db));
}

/** Register's realm_icon_url and realm_icon_source, from one read of the row. */
export function realmIcon(db: Db): { url: string; source: IconSource } {
  const row = iconRow(db);
  return { url: iconUrl(row), source: row.icon_source };
}

/** Records the new source (the version always moves, as the public server's) and tells everyone. */
function changeIconSource(ctx: RealmContext, source: IconSource): string {
  ctx.db
    .prepare('UPDATE realm SET icon_source = ?, icon_version = icon_version + 1 WHERE id = 1')
    .run(source);
  const iconUrl = realmIconUrl(ctx.db);
  ctx.events.send(activeUserIds(ctx.db), {
    type: 'realm',
    op: 'update_dict',
    property: 'icon',
    data: { icon_url: iconUrl, icon_source: source },
  });
  return iconUrl;
}

export const realmIconResource: ResourceModule = {
  name: 'realm-icon',
  routes(api, ctx) {
    mkdirSync(iconFolder(ctx), { recursive: true });

    api.post(
      '/realm/icon',
      { maxFileBytes: MAX_ICON_FILE_SIZE_MIB * 1024 * 1024 },
      async ({ user, request }) => {
        requireAdmin(user);
        const image = await exactlyOneFile(
          request.body,
          MAX_ICON_FILE_SIZE_MIB,
          'You must upload exactly one icon.',
        );
        // As for custom emoji: a file that is not a PNG, GIF, JPEG or WebP is refused by its bytes.
        if (!sniffImage(image)) throw new ApiError('BAD_IMAGE', 'Invalid image format', 400);
        const png = await squarePng(image);
        // Written aside and renamed over: a reader never gets half an icon.
        const target = join(iconFolder(ctx), 'icon.png');
        const partial = `${target}.${process.pid}.partial`;
        await writeFile(partial, png);
        await rename(partial, target);
        return { icon_url: changeIconSource(ctx, 'U') };
      },
    );

    // The uploaded file stays, as on the public server: a cached URL may still name it.
    api.delete('/realm/icon', {}, ({ user }) => {
      requireAdmin(user);
      return { icon_url: changeIconSource(ctx, 'G') };
    });

    api.get(ICON_PATH, { absolute: true, auth: false }, async ({ reply }): Promise<typeof SENT> => {
      await sendPublicImage(reply, join(iconFolder(ctx), 'icon.png'), 'image/png');
      return SENT;
    });
  },
};
