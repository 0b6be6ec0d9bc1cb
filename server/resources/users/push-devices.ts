// Deprecated push registration (4.16, 4.24): POST /users/me/platform_a_device_token and
// POST/DELETE /users/me/platform_b_reg_id (and DELETE for platform A), each also under the public
// API's own path (apns_device_token, android_gcm_reg_id: shared/api/public-names.ts). The local realm
// sends no push notifications; it only records and validates the tokens as the API describes.
import type { ResourceModule } from '../module';
import type { RealmContext } from '../../realm/context';
import { p } from '../../http/params';
import { badRequest } from '../../http/errors';
import { bothSpellings } from '../../../shared/api/public-names';

const MAX_TOKEN_LENGTH = 4096;

function checkLength(token: string): void {
  if (token === '' || token.length > MAX_TOKEN_LENGTH)
    throw badRequest('Empty or invalid length token');
}

function removeToken(ctx: RealmContext, userId: number, kind: string, token: string): void {
  checkLength(token);
  const removed = ctx.db
    .prepare('DELETE FROM push_devices WHERE user_id = ? AND kind = ? AND token = ?')
    .run(userId, kind, token);
  if (removed.changes === 0) throw badRequest('Token does not exist');
}

export const pushDevicesResource: ResourceModule = {
  name: 'push-devices',
  routes(api, ctx) {
    for (const path of bothSpellings('/users/me/platform_a_device_token')) {
      platformARoutes(path);
    }
    for (const path of bothSpellings('/users/me/platform_b_reg_id')) platformBRoutes(path);

    function platformARoutes(path: string): void {
      api.post(path, { params: { token: p.string(), appid: p.string() } }, ({ user, params }) => {
        checkLength(params.token);
        // Platform A tokens are hexadecimal device tokens.
        if (!/^[0-9a-fA-F]+$/.test(params.token)) throw badRequest('Invalid APNS token');
        if (!/^[A-Za-z0-9.-]+$/.test(params.appid)) throw badRequest('Invalid app ID');
        ctx.db
          .prepare(
            'INSERT OR REPLACE INTO push_devices (user_id, kind, token, appid) VALUES (?, ?, ?, ?)',
          )
          .run(user.id, 'platform_a', params.token.toLowerCase(), params.appid);
      });
      api.delete(path, { params: { token: p.string() } }, ({ user, params }) => {
        removeToken(ctx, user.id, 'platform_a', params.token.toLowerCase());
      });
    }

    function platformBRoutes(path: string): void {
      api.post(path, { params: { token: p.string() } }, ({ user, params }) => {
        checkLength(params.token);
        ctx.db
          .prepare(
            'INSERT OR REPLACE INTO push_devices (user_id, kind, token, appid) VALUES (?, ?, ?, NULL)',
          )
          .run(user.id, 'platform_b', params.token);
      });
      api.delete(path, { params: { token: p.string() } }, ({ user, params }) => {
        removeToken(ctx, user.id, 'platform_b', params.token);
      });
    }
  },
};
