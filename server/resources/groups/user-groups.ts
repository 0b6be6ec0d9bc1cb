// User groups: the realm_user_groups register state, GET /user_groups and POST /user_groups/create
// (4.11) with user_group add events. System groups are created by the seed (seed/base.ts).
import * as z from 'zod';
import type { Db } from '../../db';
import { parseJson } from '../../db';
import type { ResourceModule } from '../module';
import type { RealmContext } from '../../realm/context';
import { p, schemas } from '../../http/params';
import { badRequest } from '../../http/errors';
import { checkDisplayName } from '../../realm/text-rules';
import {
  realmGroupSettingAllows,
  systemGroupId,
  type GroupSettingValue,
} from '../../realm/permissions';
import { activeUserIds, activeUserIdsFrom } from '../users/users-store';

export interface GroupRow {
  id: number;
  name: string;
  description: string;
  is_system_group: number;
  creator_id: number | null;
  date_created: number | null;
  deactivated: number;
  settings: string;
}

export const GROUP_SETTINGS = [
  'can_add_members_group',
  'can_join_group',
  'can_leave_group',
  'can_manage_group',
  'can_mention_group',
  'can_remove_members_group',
] as const;

/** Values each group setting may not take (4.11). */
const FORBIDDEN_SYSTEM_VALUES: Record<string, string[]> = {
  can_manage_group: ['role:internet', 'role:everyone'],
  can_mention_group: ['role:internet', 'role:owners'],
  can_add_members_group: ['role:internet'],
  can_join_group: ['role:internet'],
  can_leave_group: ['role:internet'],
  can_remove_members_group: ['role:internet'],
};

export function groupObject(db: Db, row: GroupRow): Record<string, unknown> {
  return {
    id: row.id,
    name: row.name,
    description: row.description,
    // Deactivated users stay members in the table (reactivation restores them) but are not listed,
    // as the public API does since FL 303; clients drop them on the deactivation event too.
    // Left out by a cached set rather than by joining each member to its user row: 2-3 against
    // 9-15 ms for the large organization's 10,001 memberships (docs/benchmarks.md, eleventh pass).
    members: activeUserIdsFrom(
      db,
      'SELECT user_id FROM user_group_members WHERE group_id = ? ORDER BY user_id',
      row.id,
    ),
    direct_subgroup_ids: db
      .prepare<[number], { subgroup_id: number }>(
        'SELECT subgroup_id FROM user_group_subgroups WHERE group_id = ? ORDER BY subgroup_id',
      )
      .all(row.id)
      .map((s) => s.subgroup_id),
    creator_id: row.creator_id,
    date_created: row.date_created,
    is_system_group: row.is_system_group === 1,
    deactivated: row.deactivated === 1,
    ...parseJson<Record<string, unknown>>(row.settings, {}),
  };
}

export function listGroups(db: Db, includeDeactivated: boolean): Record<string, unknown>[] {
  return db
    .prepare<[], GroupRow>('SELECT * FROM user_groups ORDER BY id')
    .all()
    .filter((g) => includeDeactivated || g.deactivated === 0)
    .map((g) => groupObject(db, g));
}

export function checkGroupSetting(
  ctx: RealmContext,
  name: string,
  value: GroupSettingValue,
): GroupSettingValue {
  const group = ctx.db.prepare<[number], { name: string; is_system_group: number }>(
    'SELECT name, is_system_group FROM user_groups WHERE id = ? AND deactivated = 0',
  );
  const activeUser = ctx.db.prepare('SELECT 1 FROM users WHERE id = ? AND is_active = 1');
  if (typeof value === 'number') {
    const row = group.get(value);
    if (!row) throw badRequest(`Invalid user group ID: ${value}`);
    if (row.is_system_group === 1 && FORBIDDEN_SYSTEM_VALUES[name]?.includes(row.name)) {
      throw badRequest(`'${name}' setting cannot be set to '${row.name}' group.`);
    }
    return value;
  }
  for (const id of value.direct_subgroups)
    if (!group.get(id)) throw badRequest(`Invalid user group ID: ${id}`);
  for (const id of value.direct_members)
    if (!activeUser.get(id)) throw badRequest(`Invalid user ID: ${id}`);
  return value;
}

const GROUP_NAME_RULE = {
  label: 'User group name',
  maxLength: 100,
  emptyMessage: "User group name can't be empty!",
  tooLongMessage: 'User group name cannot exceed 100 characters.',
};
// Prefixes the public server reserves for system groups and mention syntax.
const INVALID_NAME_PREFIXES = ['@', 'role:', 'user:', 'stream:', 'channel:'];

/** The group-name rule for creating and renaming alike; `groupId` is the group renamed, if any. */
export function checkGroupName(ctx: RealmContext, raw: string, groupId: number | null): string {
  const name = checkDisplayName(raw, GROUP_NAME_RULE);
  const prefix = INVALID_NAME_PREFIXES.find((candidate) => name.startsWith(candidate));
  if (prefix) throw badRequest(`User group name cannot start with '${prefix}'.`);
  if (
    ctx.db.prepare('SELECT 1 FROM user_groups WHERE name = ? AND id != ?').get(name, groupId ?? -1)
  )
    throw badRequest(`User group '${name}' already exists.`);
  return name;
}

export const userGroupsResource: ResourceModule = {
  name: 'user-groups',
  routes(api, ctx) {
    api.get(
      '/user_groups',
      { params: { include_deactivated_groups: p.bool().default(false) } },
      ({ params }) => ({
        user_groups: listGroups(ctx.db, params.include_deactivated_groups),
      }),
    );

    api.post(
      '/user_groups/create',
      {
        params: {
          name: p.string(),
          description: p.string(),
          members: p.json(z.array(z.number().int())),
          subgroups: p.json(z.array(z.number().int())).default([]),
          ...Object.fromEntries(
            GROUP_SETTINGS.map((name) => [name, p.json(schemas.groupSettingValue).optional()]),
          ),
        },
      },
      ({ user, params }) => {
        // Bots may create groups only from FL 496; this server announces an earlier level.
        if (user.is_bot) throw badRequest('Bots cannot create user groups');
        if (!realmGroupSettingAllows(ctx.db, user, 'can_create_groups'))
          throw badRequest('Insufficient permission');
        const name = checkGroupName(ctx, params.name, null);
        if ([...params.description].length > 1024)
          throw badRequest('User group description is too long');
        const activeUser = ctx.db.prepare('SELECT 1 FROM users WHERE id = ? AND is_active = 1');
        for (const id of params.members)
          if (!activeUser.get(id)) throw badRequest(`Invalid user ID: ${id}`);
        const groupExists = ctx.db.prepare(
          'SELECT 1 FROM user_groups WHERE id = ? AND deactivated = 0',
        );
        for (const id of params.subgroups)
          if (!groupExists.get(id)) throw badRequest(`Invalid user group ID: ${id}`);
        const all = params as Record<string, unknown>;
        const settings: Record<string, GroupSettingValue> = {
          can_add_members_group: systemGroupId(ctx.db, 'role:nobody'),
          can_join_group: systemGroupId(ctx.db, 'role:nobody'),
          can_leave_group: systemGroupId(ctx.db, 'role:everyone'),
          can_manage_group: { direct_members: [user.id], direct_subgroups: [] },
          can_mention_group: systemGroupId(ctx.db, 'role:everyone'),
          can_remove_members_group: systemGroupId(ctx.db, 'role:nobody'),
        };
        for (const setting of GROUP_SETTINGS) {
          const value = all[setting] as GroupSettingValue | undefined;
          if (value !== undefined) settings[setting] = checkGroupSetting(ctx, setting, value);
        }
        const groupId = ctx.db.transaction(() => {
          const id = Number(
            ctx.db
              .prepare(
                `INSERT INTO user_groups (name, description, creator_id, date_created, settings)
                 VALUES (?, ?, ?, ?, ?)`,
              )
              .run(name, params.description, user.id, ctx.nowSeconds(), JSON.stringify(settings))
              .lastInsertRowid,
          );
          const member = ctx.db.prepare(
            'INSERT OR IGNORE INTO user_group_members (group_id, user_id) VALUES (?, ?)',
          );
          for (const userId of params.members) member.run(id, userId);
          const subgroup = ctx.db.prepare(
            'INSERT OR IGNORE INTO user_group_subgroups (group_id, subgroup_id) VALUES (?, ?)',
          );
          for (const subgroupId of params.subgroups) subgroup.run(id, subgroupId);
          return id;
        })();
        const row = ctx.db
          .prepare<[number], GroupRow>('SELECT * FROM user_groups WHERE id = ?')
          .get(groupId)!;
        ctx.events.send(activeUserIds(ctx.db), {
          type: 'user_group',
          op: 'add',
          group: groupObject(ctx.db, row),
        });
        return { group_id: groupId };
      },
    );
  },

  initialState(ctx, _user, request) {
    if (!request.wants('realm_user_groups')) return {};
    return {
      realm_user_groups: listGroups(
        ctx.db,
        request.capabilities.include_deactivated_groups === true,
      ),
    };
  },
};
