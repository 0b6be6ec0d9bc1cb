// Register state for user settings and realm user-settings defaults.
import type { ResourceModule } from '../module';
import { parseJson } from '../../db';
import { userSettings } from '../../realm/accounts';

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
    return state;
  },
};
