// Unauthenticated endpoints: GET /server_settings and POST /fetch_api_key.
import type { ResourceModule } from '../module';
import { p } from '../../http/params';
import { authenticationFailed, loginUserDeactivated } from '../../http/errors';
import { verifyPassword } from '../../http/auth';
import { ZULIP_FEATURE_LEVEL, ZULIP_MERGE_BASE, ZULIP_VERSION } from '../../config';
import { realmRow } from '../realm/realm-settings';
import { realmIconUrl } from '../realm/realm-icon';
import { renderShortMarkdown } from '../../realm/render-text';

export const serverInfoResource: ResourceModule = {
  name: 'server-info',
  routes(api, ctx) {
    api.get('/server_settings', { auth: false }, () => {
      const realm = realmRow(ctx.db);
      return {
        authentication_methods: {
          password: true,
          dev: false,
          email: true,
          ldap: false,
          remoteuser: false,
          github: false,
          azuread: false,
          gitlab: false,
          apple: false,
          google: false,
          saml: false,
          'openid connect': false,
        },
        external_authentication_methods: [],
        zulip_feature_level: ZULIP_FEATURE_LEVEL,
        zulip_version: ZULIP_VERSION,
        zulip_merge_base: ZULIP_MERGE_BASE,
        push_notifications_enabled: false,
        is_incompatible: false,
        email_auth_enabled: true,
        require_email_format_usernames: true,
        realm_url: ctx.realmUrl,
        realm_uri: ctx.realmUrl,
        realm_name: realm.name,
        realm_icon: new URL(realmIconUrl(ctx.db), ctx.realmUrl).href,
        realm_description: renderShortMarkdown(realm.description),
        realm_web_public_access_enabled: false,
      };
    });

    api.post(
      '/fetch_api_key',
      { auth: false, params: { username: p.string(), password: p.string() } },
      async ({ params }) => {
        const row = ctx.db
          .prepare<
            [string, string],
            {
              id: number;
              delivery_email: string;
              api_key: string;
              password_hash: string | null;
              is_active: number;
            }
          >(
            `SELECT id, delivery_email, api_key, password_hash, is_active FROM users
              WHERE delivery_email = ? OR email = ? LIMIT 1`,
          )
          .get(params.username, params.username);
        if (!row || !(await verifyPassword(params.password, row.password_hash)))
          throw authenticationFailed();
        // Read again: the user may have been deactivated, or the key regenerated, during the hash.
        const now = ctx.db
          .prepare<[number], { delivery_email: string; api_key: string; is_active: number }>(
            'SELECT delivery_email, api_key, is_active FROM users WHERE id = ?',
          )
          .get(row.id);
        if (!now || now.is_active !== 1) throw loginUserDeactivated();
        return { api_key: now.api_key, email: now.delivery_email, user_id: row.id };
      },
    );
  },
};
