// The part every realm needs: the realm row with its settings, user-settings defaults and the
// system groups (spec: role:owners ... role:nobody) nested as described in realm/roles.ts.
import type { Db } from '../db';
import { SYSTEM_GROUPS } from '../realm/roles';
import {
  DEFAULT_REALM_GROUP_SETTINGS,
  DEFAULT_REALM_SETTINGS,
  DEFAULT_USER_SETTINGS,
} from '../realm/settings-defaults';

export function realmExists(db: Db): boolean {
  return db.prepare('SELECT 1 FROM realm WHERE id = 1').get() !== undefined;
}

export function createRealmBase(db: Db, name: string, nowSeconds: number): void {
  db.transaction(() => {
    const groupIds = new Map<string, number>();
    let previous: number | null = null;
    // Created innermost last; each group's only subgroup is the next one in SYSTEM_GROUPS.
    for (const group of SYSTEM_GROUPS) {
      const id = Number(
        db
          .prepare(
            `INSERT INTO user_groups (name, description, is_system_group, date_created, settings)
             VALUES (?, ?, 1, ?, '{}')`,
          )
          .run(group.name, group.description, nowSeconds).lastInsertRowid,
      );
      groupIds.set(group.name, id);
      if (previous !== null && group.name !== 'role:nobody') {
        db.prepare('INSERT INTO user_group_subgroups (group_id, subgroup_id) VALUES (?, ?)').run(
          previous,
          id,
        );
      }
      previous = id;
    }
    const settings: Record<string, unknown> = { ...DEFAULT_REALM_SETTINGS };
    for (const [setting, groupName] of Object.entries(DEFAULT_REALM_GROUP_SETTINGS)) {
      settings[setting] = groupIds.get(groupName);
    }
    db.prepare(
      `INSERT INTO realm (id, name, description, date_created, settings) VALUES (1, ?, ?, ?, ?)`,
    ).run(name, 'A local realm served by Tributary.', nowSeconds, JSON.stringify(settings));
    db.prepare('INSERT INTO realm_user_settings_defaults (id, settings) VALUES (1, ?)').run(
      JSON.stringify(DEFAULT_USER_SETTINGS),
    );
  })();
}
