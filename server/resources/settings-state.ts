// Register state for user settings, realm user-settings defaults and user groups.
import type { ResourceModule } from './module';
import { parseJson } from '../db';
import { userSettings } from '../realm/accounts';

interface GroupRow {
  id: number;
  name: string;
  description: string;
  is_system_group: number;
  creator_id: number | null;
  date_created: number | null;
  deactivated: number;
  settings: string;
}

export const settingsStateResource: ResourceModule = {
  name: 'settings-state',
  routes() {},
  initialState(ctx, user, request) {
    const state: Record<string, unknown> = {};
    if (request.wants('user_settings')) {
      const settings = userSettings(ctx.db, user.id);
      state.user_settings = settings;
      // Clients without user_settings_object read the legacy top-level copies.
      if (!request.capabilities.user_settings_object) Object.assign(state, settings);
    }
    if (request.wants('realm_user_settings_defaults')) {
      const row = ctx.db
        .prepare<[], { settings: string }>(
          'SELECT settings FROM realm_user_settings_defaults WHERE id = 1',
        )
        .get();
      state.realm_user_settings_defaults = parseJson(row?.settings, {});
    }
    if (request.wants('realm_user_groups')) {
      const includeDeactivated = request.capabilities.include_deactivated_groups === true;
      const members = ctx.db.prepare<[number], { user_id: number }>(
        'SELECT user_id FROM user_group_members WHERE group_id = ? ORDER BY user_id',
      );
      const subgroups = ctx.db.prepare<[number], { subgroup_id: number }>(
        'SELECT subgroup_id FROM user_group_subgroups WHERE group_id = ? ORDER BY subgroup_id',
      );
      state.realm_user_groups = ctx.db
        .prepare<[], GroupRow>('SELECT * FROM user_groups ORDER BY id')
        .all()
        .filter((g) => includeDeactivated || g.deactivated === 0)
        .map((g) => ({
          id: g.id,
          name: g.name,
          description: g.description,
          members: members.all(g.id).map((m) => m.user_id),
          direct_subgroup_ids: subgroups.all(g.id).map((s) => s.subgroup_id),
          creator_id: g.creator_id,
          date_created: g.date_created,
          is_system_group: g.is_system_group === 1,
          deactivated: g.deactivated === 1,
          ...parseJson<Record<string, unknown>>(g.settings, {}),
        }));
    }
    return state;
  },
};
