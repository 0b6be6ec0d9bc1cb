// Who may do what: roles, group-setting values (spec 2.6) and channel visibility. Every resource asks
// here instead of re-deriving rules, so "nobody sees what they may not see" has one implementation.
import type { Db } from '../db';
import { parseJson } from '../db';
import { sharedTableCache } from '../db/table-cache';
import { BoundedMap } from '../memory/bounded-map';
import type { AuthUser } from './context';
import { isAdmin, isGuest, type SystemGroupName } from './roles';
import { badRequest } from '../http/errors';

/** 400 BAD_REQUEST (the spec's code for refusals by role) unless the user is an administrator. */
export function requireAdmin(user: AuthUser): void {
  if (!isAdmin(user.role)) throw badRequest('Must be an organization administrator');
}

export type GroupSettingValue = number | { direct_members: number[]; direct_subgroups: number[] };

/** Cached until user_groups changes: each channel object asks for several (thousands per register). */
export function systemGroupId(db: Db, name: SystemGroupName): number {
  return sharedTableCache(db, 'system-group-id', ['user_groups'], systemGroupIdUncached).get(name);
}

function systemGroupIdUncached(db: Db, name: SystemGroupName): number {
  const row = db
    .prepare<[string], { id: number }>(
      'SELECT id FROM user_groups WHERE name = ? AND is_system_group = 1',
    )
    .get(name);
  if (!row) throw new Error(`system group ${name} is missing`);
  return row.id;
}

// Group membership and subscriptions are asked on every send and most requests; these lookups
// are cached until a write to the tables they read (server/db/table-cache.ts).

/** Every group id reachable from groupId through subgroups (including itself). */
export function expandGroup(db: Db, groupId: number): ReadonlySet<number> {
  return sharedTableCache(db, 'expand-group', ['user_group_subgroups'], expandGroupUncached).get(
    groupId,
  );
}

function expandGroupUncached(db: Db, groupId: number): Set<number> {
  const seen = new Set<number>([groupId]);
  const stack = [groupId];
  const subgroups = db.prepare<[number], { subgroup_id: number }>(
    'SELECT subgroup_id FROM user_group_subgroups WHERE group_id = ?',
  );
  while (stack.length > 0) {
    const id = stack.pop()!;
    for (const { subgroup_id } of subgroups.all(id)) {
      if (!seen.has(subgroup_id)) {
        seen.add(subgroup_id);
        stack.push(subgroup_id);
      }
    }
  }
  return seen;
}

/** Active users in a group, including members of its subgroups. */
export function groupMemberIds(db: Db, groupId: number): readonly number[] {
  return sharedTableCache(
    db,
    'group-member-ids',
    ['user_group_subgroups', 'user_group_members', 'users'],
    groupMemberIdsUncached,
  ).get(groupId);
}

function groupMemberIdsUncached(db: Db, groupId: number): number[] {
  const groups = [...expandGroup(db, groupId)];
  const placeholders = groups.map(() => '?').join(',');
  return db
    .prepare<number[], { user_id: number }>(
      `SELECT DISTINCT m.user_id FROM user_group_members m JOIN users u ON u.id = m.user_id
        WHERE u.is_active = 1 AND m.group_id IN (${placeholders}) ORDER BY m.user_id`,
    )
    .all(...groups)
    .map((r) => r.user_id);
}

export function isUserInGroup(db: Db, userId: number, groupId: number): boolean {
  return groupsOfUser(db, userId).has(groupId);
}

/** Every group the user belongs to, directly or as a member of a subgroup. */
function groupsOfUser(db: Db, userId: number): ReadonlySet<number> {
  return sharedTableCache(
    db,
    'groups-of-user',
    ['user_group_subgroups', 'user_group_members'],
    groupsOfUserUncached,
  ).get(userId);
}

function groupsOfUserUncached(db: Db, userId: number): Set<number> {
  // Direct groups, then every group that has one of them as a (transitive) subgroup.
  const groups = new Set(
    db
      .prepare<[number], { group_id: number }>(
        'SELECT group_id FROM user_group_members WHERE user_id = ?',
      )
      .all(userId)
      .map((r) => r.group_id),
  );
  const parents = db.prepare<[number], { group_id: number }>(
    'SELECT group_id FROM user_group_subgroups WHERE subgroup_id = ?',
  );
  const stack = [...groups];
  while (stack.length > 0) {
    for (const { group_id } of parents.all(stack.pop()!)) {
      if (!groups.has(group_id)) {
        groups.add(group_id);
        stack.push(group_id);
      }
    }
  }
  return groups;
}

export function userHasGroupSetting(db: Db, userId: number, value: GroupSettingValue): boolean {
  if (typeof value === 'number') return isUserInGroup(db, userId, value);
  if (value.direct_members.includes(userId)) return true;
  return value.direct_subgroups.some((groupId) => isUserInGroup(db, userId, groupId));
}

/** Realm-level group setting (e.g. can_create_public_channel_group) for a user. */
export function realmGroupSettingAllows(db: Db, user: AuthUser, setting: string): boolean {
  const row = db.prepare<[], { settings: string }>('SELECT settings FROM realm WHERE id = 1').get();
  const settings = parseJson<Record<string, unknown>>(row?.settings, {});
  const value = settings[setting] as GroupSettingValue | undefined;
  if (value === undefined) return isAdmin(user.role);
  return userHasGroupSetting(db, user.id, value);
}

export interface ChannelAccessRow {
  id: number;
  invite_only: number;
  is_web_public: number;
  history_public_to_subscribers: number;
  is_archived: number;
  group_settings: string;
}

export function isSubscribed(db: Db, userId: number, channelId: number): boolean {
  return subscribedChannelIds(db, userId).has(channelId);
}

/** Channels the user is actively subscribed to. */
export function subscribedChannelIds(db: Db, userId: number): ReadonlySet<number> {
  return sharedTableCache(db, 'subscribed-channel-ids', ['subscriptions'], (db, id: number) => {
    const rows = db
      .prepare<[number], { channel_id: number }>(
        'SELECT channel_id FROM subscriptions WHERE user_id = ? AND active = 1',
      )
      .all(id);
    return new Set(rows.map((r) => r.channel_id));
  }).get(userId);
}

export function channelGroupSetting(
  channel: ChannelAccessRow,
  name: string,
): GroupSettingValue | undefined {
  let settings = parsedGroupSettings.get(channel.group_settings);
  if (!settings) {
    settings = parseJson<Record<string, GroupSettingValue>>(channel.group_settings, {});
    parsedGroupSettings.set(channel.group_settings, settings);
  }
  return settings[name];
}

/** group_settings JSON text -> parsed value (shared; never modified). Channels share few texts. */
const parsedGroupSettings = new BoundedMap<string, Record<string, GroupSettingValue>>({
  maxEntries: 1000,
});

/**
 * Metadata access (name, description, subscriber list): subscribers always; non-guests for public
 * channels; administrators and channel administrators for private ones. Guests see only their
 * subscriptions (and web-public channels).
 */
export function canSeeChannelMetadata(db: Db, user: AuthUser, channel: ChannelAccessRow): boolean {
  if (isSubscribed(db, user.id, channel.id)) return true;
  if (isGuest(user.role)) return channel.is_web_public === 1;
  if (channel.invite_only === 0) return true;
  if (isAdmin(user.role)) return true;
  const admins = channelGroupSetting(channel, 'can_administer_channel_group');
  return admins !== undefined && userHasGroupSetting(db, user.id, admins);
}

/**
 * Content access (reading the channel's messages): subscribers, and non-guests for public channels.
 * For a private channel with history_public_to_subscribers false, a subscriber reads only messages
 * they received (user_messages rows); see canReadMessageHistory.
 */
export function canReadChannelContent(db: Db, user: AuthUser, channel: ChannelAccessRow): boolean {
  if (isSubscribed(db, user.id, channel.id)) return true;
  if (isGuest(user.role)) return channel.is_web_public === 1;
  return channel.invite_only === 0;
}

/** Whether messages sent before the user joined are readable (otherwise: only received ones). */
export function canReadMessageHistory(db: Db, user: AuthUser, channel: ChannelAccessRow): boolean {
  if (!canReadChannelContent(db, user, channel)) return false;
  if (channel.invite_only === 0) return true;
  return channel.history_public_to_subscribers === 1;
}

export function canAdministerChannel(db: Db, user: AuthUser, channel: ChannelAccessRow): boolean {
  if (isAdmin(user.role)) return true;
  const admins = channelGroupSetting(channel, 'can_administer_channel_group');
  return admins !== undefined && userHasGroupSetting(db, user.id, admins);
}

/** Channel-level group setting; an absent value allows administrators only. */
export function channelGroupSettingAllows(
  db: Db,
  user: AuthUser,
  channel: ChannelAccessRow,
  name: string,
): boolean {
  const value = channelGroupSetting(channel, name);
  if (value === undefined) return isAdmin(user.role);
  return userHasGroupSetting(db, user.id, value);
}

/**
 * Users who may access another user (FL 228: guests see only users they share a channel or DM with
 * when can_access_all_users_group excludes them). We keep the default realm policy where everyone
 * can access everyone, so this is true; it is the single place to change if that policy is added,
 * with register's user lists, which SQLite builds without asking it (users-store.ts, userListJson).
 */
export function canAccessUser(_db: Db, _viewer: AuthUser, _userId: number): boolean {
  return true;
}
