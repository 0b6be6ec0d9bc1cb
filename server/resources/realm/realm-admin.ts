// PATCH /realm for the realm's group settings (who may create channels, add subscribers, ...):
// administrators change them with the public API's {new, old} form, and every user hears a realm
// update_dict event carrying the new value, as the public server sends it.
import { z } from 'zod';
import type { ResourceModule } from '../module';
import { p, schemas } from '../../http/params';
import { badRequest } from '../../http/errors';
import { isAdmin, isOwner } from '../../realm/roles';
import { DEFAULT_REALM_GROUP_SETTINGS } from '../../realm/settings-defaults';
import type { GroupSettingValue } from '../../realm/permissions';
import { realmRow } from './realm-settings';
import { validateGroupSetting } from '../channels/subscriptions';
import { activeUserIds } from '../users/users-store';

const GROUP_SETTINGS = Object.keys(DEFAULT_REALM_GROUP_SETTINGS);

/** Settings the public server lets only owners change. */
const OWNER_ONLY = new Set([
  'can_create_web_public_channel_group',
  'can_manage_all_groups',
  'can_manage_billing_group',
]);

const change = z.object({
  new: schemas.groupSettingValue,
  old: schemas.groupSettingValue.optional(),
});

export const realmAdminResource: ResourceModule = {
  name: 'realm-admin',
  routes(api, ctx) {
    api.patch(
      '/realm',
      {
        params: Object.fromEntries(GROUP_SETTINGS.map((name) => [name, p.json(change).optional()])),
      },
      ({ user, params }) => {
        if (!isAdmin(user.role)) throw badRequest('Must be an organization administrator');
        const current = realmRow(ctx.db).settings;
        const updates: Record<string, GroupSettingValue> = {};
        for (const name of GROUP_SETTINGS) {
          const requested = params[name] as z.infer<typeof change> | undefined;
          if (requested === undefined) continue;
          if (OWNER_ONLY.has(name) && !isOwner(user.role)) {
            throw badRequest('Must be an organization owner');
          }
          if (
            requested.old !== undefined &&
            JSON.stringify(requested.old) !== JSON.stringify(current[name])
          ) {
            throw badRequest("'old' value does not match the expected value.");
          }
          updates[name] = validateGroupSetting(ctx, name, requested.new);
        }
        if (Object.keys(updates).length === 0) throw badRequest('No changes were made.');
        const settings = { ...current, ...updates };
        ctx.db.prepare('UPDATE realm SET settings = ? WHERE id = 1').run(JSON.stringify(settings));
        ctx.events.send(activeUserIds(ctx.db), {
          type: 'realm',
          op: 'update_dict',
          property: 'default',
          data: updates,
        });
        return {};
      },
    );
  },
};
