// User group administration, as the public server does it: PATCH /user_groups/{id} (name,
// description, permission settings, reactivation), membership and subgroup changes, deactivation,
// and reading a group's members and subgroups. Who may do what is decided by accessGroupForUpdate
// (the public server's access_user_group_for_update); every user_group event goes to the whole
// realm after the change is committed.
import * as z from 'zod';
import type { ResourceModule } from '../module';
import type { AuthUser, RealmContext } from '../../realm/context';
import { p, schemas } from '../../http/params';
import { ApiError, badRequest } from '../../http/errors';
import { isGuest } from '../../realm/roles';
import {
  expandGroup,
  groupMemberIds,
  realmGroupSettingAllows,
  userHasGroupSetting,
  type GroupSettingValue,
} from '../../realm/permissions';
import { parseJson } from '../../db';
import { DEFAULT_REALM_GROUP_SETTINGS } from '../../realm/settings-defaults';
import { realmRow } from '../realm/realm-settings';
import { channelGroupSettings, type ChannelRow } from '../channels/channels-store';
import {
  GROUP_SETTINGS,
  checkGroupName,
  checkGroupSetting,
  groupObject,
  type GroupRow,
} from './user-groups';
import { activeUserIds } from '../users/users-store';
import { createMessage } from '../messages/messages-send';
import { notificationBot } from '../users/system-bots';

type GroupSetting = (typeof GROUP_SETTINGS)[number];

const MAX_DESCRIPTION_LENGTH = 1024;

const settingChange = z.object({
  new: schemas.groupSettingValue,
  old: schemas.groupSettingValue.optional(),
});

function settingsOf(row: GroupRow): Record<string, GroupSettingValue> {
  return parseJson<Record<string, GroupSettingValue>>(row.settings, {});
}

function loadGroup(ctx: RealmContext, groupId: number, allowDeactivated: boolean): GroupRow {
  const row = ctx.db
    .prepare<[number], GroupRow>('SELECT * FROM user_groups WHERE id = ?')
    .get(groupId);
  if (!row) throw badRequest('Invalid user group');
  if (!allowDeactivated && row.deactivated === 1) throw badRequest('User group is deactivated.');
  return row;
}

/** The public server's require_member_or_admin: no guests, no bots. */
function requireMemberOrAdmin(user: AuthUser): void {
  if (user.is_bot) throw badRequest('This endpoint does not accept bot requests.');
  if (isGuest(user.role)) throw badRequest('Not allowed for guest users');
}

/**
 * Whoever may manage all groups (the realm's can_manage_all_groups) or this group (its
 * can_manage_group) may do anything to it; otherwise `setting` (e.g. can_add_members_group)
 * decides. System groups are never changed through the API.
 */
function accessGroupForUpdate(
  ctx: RealmContext,
  user: AuthUser,
  groupId: number,
  setting: GroupSetting,
  allowDeactivated = false,
): GroupRow {
  const row = loadGroup(ctx, groupId, allowDeactivated);
  if (row.is_system_group === 1) throw badRequest('Insufficient permission');
  if (realmGroupSettingAllows(ctx.db, user, 'can_manage_all_groups')) return row;
  const settings = settingsOf(row);
  for (const name of new Set<GroupSetting>(['can_manage_group', setting])) {
    const value = settings[name];
    if (value !== undefined && userHasGroupSetting(ctx.db, user.id, value)) return row;
  }
  throw badRequest('Insufficient permission');
}

/** For self-service: join/leave by the group's own setting, else as adding/removing anyone. */
function accessForMembership(
  ctx: RealmContext,
  user: AuthUser,
  groupId: number,
  userIds: number[],
  selfSetting: GroupSetting,
  othersSetting: GroupSetting,
): GroupRow {
  if (userIds.length === 1 && userIds[0] === user.id) {
    try {
      return accessGroupForUpdate(ctx, user, groupId, selfSetting, true);
    } catch (error) {
      if (!(error instanceof ApiError)) throw error;
    }
  }
  return accessGroupForUpdate(ctx, user, groupId, othersSetting, true);
}

/** Group-setting values compared as the API shows them (member and subgroup order aside). */
function sameSettingValue(a: GroupSettingValue | undefined, b: GroupSettingValue): boolean {
  const canonical = (value: GroupSettingValue | undefined) =>
    typeof value === 'object'
      ? JSON.stringify({
          m: [...value.direct_members].sort((x, y) => x - y),
          s: [...value.direct_subgroups].sort((x, y) => x - y),
        })
      : JSON.stringify(value);
  return canonical(a) === canonical(b);
}

function usesGroup(value: GroupSettingValue | undefined, groupId: number): boolean {
  if (value === undefined) return false;
  return typeof value === 'number' ? value === groupId : value.direct_subgroups.includes(groupId);
}

/** Why the group may not be deactivated: the public server's objections, in its order. */
function deactivationObjections(ctx: RealmContext, groupId: number): Record<string, unknown>[] {
  const objections: Record<string, unknown>[] = [];
  const supergroupIds = ctx.db
    .prepare<[number], { id: number }>(
      `SELECT g.id FROM user_group_subgroups s JOIN user_groups g ON g.id = s.group_id
        WHERE s.subgroup_id = ? AND g.deactivated = 0 ORDER BY g.id`,
    )
    .all(groupId)
    .map((r) => r.id);
  if (supergroupIds.length > 0)
    objections.push({ type: 'subgroup', supergroup_ids: supergroupIds });
  const channels = ctx.db
    .prepare<[], ChannelRow>('SELECT * FROM channels WHERE is_archived = 0 ORDER BY id')
    .all();
  for (const channel of channels) {
    const settings = Object.entries(channelGroupSettings(channel))
      .filter(([, value]) => usesGroup(value, groupId))
      .map(([name]) => name);
    if (settings.length > 0) objections.push({ type: 'channel', channel_id: channel.id, settings });
  }
  const groups = ctx.db
    .prepare<[], GroupRow>('SELECT * FROM user_groups WHERE deactivated = 0 ORDER BY id')
    .all();
  for (const group of groups) {
    const values = settingsOf(group);
    const settings = GROUP_SETTINGS.filter((name) => usesGroup(values[name], groupId));
    if (settings.length > 0) objections.push({ type: 'user_group', group_id: group.id, settings });
  }
  const realmSettings = realmRow(ctx.db).settings as Record<string, GroupSettingValue | undefined>;
  const used = Object.keys(DEFAULT_REALM_GROUP_SETTINGS).filter((name) =>
    usesGroup(realmSettings[name], groupId),
  );
  if (used.length > 0) objections.push({ type: 'realm', settings: used });
  return objections;
}

function sendGroupUpdate(ctx: RealmContext, groupId: number, data: Record<string, unknown>): void {
  ctx.events.send(activeUserIds(ctx.db), {
    type: 'user_group',
    op: 'update',
    group_id: groupId,
    data,
  });
}

/** "X added you to the group …" from the notification bot, as the public server sends it. */
function notifyMembershipChange(
  ctx: RealmContext,
  actor: AuthUser,
  group: GroupRow,
  userIds: number[],
  verb: 'added you to' | 'removed you from',
): void {
  const bot = notificationBot(ctx.db);
  const recipients = ctx.db.prepare<[number], { is_bot: number }>(
    'SELECT is_bot FROM users WHERE id = ? AND is_active = 1',
  );
  for (const userId of userIds) {
    if (userId === actor.id || recipients.get(userId)?.is_bot !== 0) continue;
    createMessage(
      ctx,
      bot,
      { kind: 'direct', userIds: [userId] },
      `@_**${actor.full_name}|${actor.id}** ${verb} the group @_*${group.name}*.`,
      { client: 'Internal', readBySender: true },
    );
  }
}

function checkActiveUsers(ctx: RealmContext, userIds: number[]): void {
  const active = ctx.db.prepare('SELECT 1 FROM users WHERE id = ? AND is_active = 1');
  for (const id of userIds) if (!active.get(id)) throw badRequest(`Invalid user ID: ${id}`);
}

/** A group's direct members or direct subgroups, as stored (deactivated users included). */
function directIds(
  ctx: RealmContext,
  groupId: number,
  kind: 'user_group_members' | 'user_group_subgroups',
): Set<number> {
  const column = kind === 'user_group_members' ? 'user_id' : 'subgroup_id';
  return new Set(
    ctx.db
      .prepare<[number], { id: number }>(`SELECT ${column} AS id FROM ${kind} WHERE group_id = ?`)
      .all(groupId)
      .map((r) => r.id),
  );
}

const directMemberIds = (ctx: RealmContext, groupId: number) =>
  directIds(ctx, groupId, 'user_group_members');
const directSubgroupIds = (ctx: RealmContext, groupId: number) =>
  directIds(ctx, groupId, 'user_group_subgroups');

/** Validated membership and subgroup changes, applied together in one transaction. */
interface MembershipPlan {
  group: GroupRow;
  add: number[];
  remove: number[];
  addSubgroups: number[];
  removeSubgroups: number[];
}

function planMembers(
  ctx: RealmContext,
  user: AuthUser,
  groupId: number,
  add: number[],
  remove: number[],
): Pick<MembershipPlan, 'add' | 'remove'> & { group?: GroupRow } {
  let group: GroupRow | undefined;
  if (add.length > 0) {
    group = accessForMembership(ctx, user, groupId, add, 'can_join_group', 'can_add_members_group');
    checkActiveUsers(ctx, add);
    const members = directMemberIds(ctx, groupId);
    for (const id of add)
      if (members.has(id)) throw badRequest(`User ${id} is already a member of this group`);
  }
  if (remove.length > 0) {
    checkActiveUsers(ctx, remove);
    group = accessForMembership(
      ctx,
      user,
      groupId,
      remove,
      'can_leave_group',
      'can_remove_members_group',
    );
    const members = directMemberIds(ctx, groupId);
    for (const id of remove)
      if (!members.has(id)) throw badRequest(`There is no member '${id}' in this user group`);
  }
  return { group, add: [...new Set(add)], remove: [...new Set(remove)] };
}

function checkSubgroupsExist(ctx: RealmContext, ids: number[]): void {
  const exists = ctx.db.prepare<[number], { deactivated: number }>(
    'SELECT deactivated FROM user_groups WHERE id = ?',
  );
  for (const id of ids) {
    const row = exists.get(id);
    if (!row) throw badRequest(`Invalid user group ID: ${id}`);
    if (row.deactivated === 1) throw badRequest('User group is deactivated.');
  }
}

function planSubgroups(
  ctx: RealmContext,
  user: AuthUser,
  groupId: number,
  add: number[],
  remove: number[],
): Pick<MembershipPlan, 'addSubgroups' | 'removeSubgroups'> & { group?: GroupRow } {
  let group: GroupRow | undefined;
  if (add.length > 0) {
    checkSubgroupsExist(ctx, add);
    group = accessGroupForUpdate(ctx, user, groupId, 'can_add_members_group');
    const existing = directSubgroupIds(ctx, groupId);
    for (const id of add)
      if (existing.has(id))
        throw badRequest(`User group ${id} is already a subgroup of this group.`);
    // A cycle: the group is already among the passed groups' own (recursive) subgroups.
    if (add.some((id) => expandGroup(ctx.db, id).has(groupId)))
      throw badRequest(
        `User group ${groupId} is already a subgroup of one of the passed subgroups.`,
      );
  }
  if (remove.length > 0) {
    checkSubgroupsExist(ctx, remove);
    group = accessGroupForUpdate(ctx, user, groupId, 'can_manage_group');
    const existing = directSubgroupIds(ctx, groupId);
    for (const id of remove)
      if (!existing.has(id)) throw badRequest(`User group ${id} is not a subgroup of this group.`);
  }
  return { group, addSubgroups: [...new Set(add)], removeSubgroups: [...new Set(remove)] };
}

/** Each part of a plan: its table, column, event op and the event's list field. */
const MEMBERSHIP_CHANGES = [
  ['add', 'user_group_members', 'user_id', 'add_members', 'user_ids'],
  ['remove', 'user_group_members', 'user_id', 'remove_members', 'user_ids'],
  ['addSubgroups', 'user_group_subgroups', 'subgroup_id', 'add_subgroups', 'direct_subgroup_ids'],
  [
    'removeSubgroups',
    'user_group_subgroups',
    'subgroup_id',
    'remove_subgroups',
    'direct_subgroup_ids',
  ],
] as const;

function applyMembership(ctx: RealmContext, user: AuthUser, plan: MembershipPlan): void {
  const groupId = plan.group.id;
  ctx.db.transaction(() => {
    for (const [key, table, column] of MEMBERSHIP_CHANGES) {
      const statement = ctx.db.prepare(
        key.startsWith('add')
          ? `INSERT INTO ${table} (group_id, ${column}) VALUES (?, ?)`
          : `DELETE FROM ${table} WHERE group_id = ? AND ${column} = ?`,
      );
      for (const id of plan[key]) statement.run(groupId, id);
    }
  })();
  // Sent only now, after the commit: a refused or rolled-back change announces nothing.
  const everyone = activeUserIds(ctx.db);
  for (const [key, , , op, field] of MEMBERSHIP_CHANGES) {
    if (plan[key].length === 0) continue;
    ctx.events.send(everyone, {
      type: 'user_group',
      op,
      group_id: groupId,
      [field]: [...plan[key]].sort((a, b) => a - b),
    });
  }
  notifyMembershipChange(ctx, user, plan.group, plan.add, 'added you to');
  notifyMembershipChange(ctx, user, plan.group, plan.remove, 'removed you from');
}

const idList = () => p.json(schemas.intArray).default([]);

export const userGroupAdminResource: ResourceModule = {
  name: 'user-group-admin',
  routes(api, ctx) {
    api.patch(
      '/user_groups/:user_group_id',
      {
        ids: ['user_group_id'],
        params: {
          name: p.string().optional(),
          description: p.string().optional(),
          deactivated: p.bool().optional(),
          ...Object.fromEntries(
            GROUP_SETTINGS.map((name) => [name, p.json(settingChange).optional()]),
          ),
        },
      },
      ({ user, ids, params }) => {
        requireMemberOrAdmin(user);
        const all = params as Record<string, unknown>;
        const changes = GROUP_SETTINGS.filter((name) => all[name] !== undefined);
        if (
          params.name === undefined &&
          params.description === undefined &&
          params.deactivated === undefined &&
          changes.length === 0
        )
          throw badRequest('No new data supplied');
        const group = accessGroupForUpdate(ctx, user, ids.user_group_id, 'can_manage_group', true);
        const data: Array<Record<string, unknown>> = [];
        let name = group.name;
        if (params.name !== undefined && params.name !== group.name) {
          name = checkGroupName(ctx, params.name, group.id);
          data.push({ name });
        }
        let description = group.description;
        if (params.description !== undefined && params.description !== group.description) {
          if ([...params.description].length > MAX_DESCRIPTION_LENGTH)
            throw badRequest('User group description is too long');
          description = params.description;
          data.push({ description });
        }
        const reactivate = params.deactivated === false && group.deactivated === 1;
        const settings = settingsOf(group);
        for (const setting of changes) {
          const change = all[setting] as z.infer<typeof settingChange>;
          if (change.old !== undefined && !sameSettingValue(settings[setting], change.old))
            throw badRequest("'old' value does not match the expected value.");
          if (sameSettingValue(settings[setting], change.new)) continue;
          settings[setting] = checkGroupSetting(ctx, setting, change.new);
          data.push({ [setting]: settings[setting] });
        }
        ctx.db
          .prepare(
            `UPDATE user_groups SET name = ?, description = ?, settings = ?,
               deactivated = CASE WHEN ? THEN 0 ELSE deactivated END WHERE id = ?`,
          )
          .run(name, description, JSON.stringify(settings), reactivate ? 1 : 0, group.id);
        for (const entry of data) sendGroupUpdate(ctx, group.id, entry);
        if (reactivate) {
          const row = loadGroup(ctx, group.id, true);
          ctx.events.send(activeUserIds(ctx.db), (queue) =>
            queue.hasCapability('include_deactivated_groups')
              ? {
                  type: 'user_group',
                  op: 'update',
                  group_id: group.id,
                  data: { deactivated: false },
                }
              : { type: 'user_group', op: 'add', group: groupObject(ctx.db, row) },
          );
        }
      },
    );

    api.post(
      '/user_groups/:user_group_id/deactivate',
      { ids: ['user_group_id'] },
      ({ user, ids }) => {
        const group = accessGroupForUpdate(ctx, user, ids.user_group_id, 'can_manage_group');
        const objections = deactivationObjections(ctx, group.id);
        if (objections.length > 0)
          throw new ApiError(
            'CANNOT_DEACTIVATE_GROUP_IN_USE',
            'Cannot deactivate user group in use.',
            400,
            {
              objections,
            },
          );
        ctx.db.prepare('UPDATE user_groups SET deactivated = 1 WHERE id = ?').run(group.id);
        ctx.events.send(activeUserIds(ctx.db), (queue) =>
          queue.hasCapability('include_deactivated_groups')
            ? { type: 'user_group', op: 'update', group_id: group.id, data: { deactivated: true } }
            : { type: 'user_group', op: 'remove', group_id: group.id },
        );
      },
    );

    api.post(
      '/user_groups/:user_group_id/members',
      {
        ids: ['user_group_id'],
        params: {
          add: idList(),
          delete: idList(),
          add_subgroups: idList(),
          delete_subgroups: idList(),
        },
      },
      ({ user, ids, params }) => {
        requireMemberOrAdmin(user);
        if (
          params.add.length === 0 &&
          params.delete.length === 0 &&
          params.add_subgroups.length === 0 &&
          params.delete_subgroups.length === 0
        )
          throw badRequest(
            'Nothing to do. Specify at least one of "add", "delete", "add_subgroups" or "delete_subgroups".',
          );
        const members = planMembers(ctx, user, ids.user_group_id, params.add, params.delete);
        const subgroups = planSubgroups(
          ctx,
          user,
          ids.user_group_id,
          params.add_subgroups,
          params.delete_subgroups,
        );
        applyMembership(ctx, user, {
          ...members,
          ...subgroups,
          group: (members.group ?? subgroups.group)!,
        });
      },
    );

    api.post(
      '/user_groups/:user_group_id/subgroups',
      { ids: ['user_group_id'], params: { add: idList(), delete: idList() } },
      ({ user, ids, params }) => {
        requireMemberOrAdmin(user);
        if (params.add.length === 0 && params.delete.length === 0)
          throw badRequest('Nothing to do. Specify at least one of "add" or "delete".');
        const subgroups = planSubgroups(ctx, user, ids.user_group_id, params.add, params.delete);
        applyMembership(ctx, user, { ...subgroups, add: [], remove: [], group: subgroups.group! });
      },
    );

    api.get(
      '/user_groups/:user_group_id/members',
      { ids: ['user_group_id'], params: { direct_member_only: p.bool().default(false) } },
      ({ user, ids, params }) => {
        requireMemberOrAdmin(user);
        const group = loadGroup(ctx, ids.user_group_id, false);
        const members = params.direct_member_only
          ? activeOnly(ctx, [...directMemberIds(ctx, group.id)])
          : [...groupMemberIds(ctx.db, group.id)];
        return { members: members.sort((a, b) => a - b) };
      },
    );

    api.get(
      '/user_groups/:user_group_id/members/:user_id',
      {
        ids: ['user_group_id', 'user_id'],
        params: { direct_member_only: p.bool().default(false) },
      },
      ({ user, ids, params }) => {
        requireMemberOrAdmin(user);
        const group = loadGroup(ctx, ids.user_group_id, false);
        if (!ctx.db.prepare('SELECT 1 FROM users WHERE id = ?').get(ids.user_id))
          throw badRequest('No such user');
        const isMember = params.direct_member_only
          ? activeOnly(ctx, [...directMemberIds(ctx, group.id)]).includes(ids.user_id)
          : groupMemberIds(ctx.db, group.id).includes(ids.user_id);
        return { is_user_group_member: isMember };
      },
    );

    api.get(
      '/user_groups/:user_group_id/subgroups',
      { ids: ['user_group_id'], params: { direct_subgroup_only: p.bool().default(false) } },
      ({ user, ids, params }) => {
        requireMemberOrAdmin(user);
        const group = loadGroup(ctx, ids.user_group_id, false);
        const subgroups = params.direct_subgroup_only
          ? [...directSubgroupIds(ctx, group.id)]
          : [...expandGroup(ctx.db, group.id)].filter((id) => id !== group.id);
        return { subgroups: subgroups.sort((a, b) => a - b) };
      },
    );
  },
};

/** Deactivated users stay in the table (reactivation restores them) but are not listed. */
function activeOnly(ctx: RealmContext, userIds: number[]): number[] {
  const active = ctx.db.prepare('SELECT 1 FROM users WHERE id = ? AND is_active = 1');
  return userIds.filter((id) => active.get(id));
}
