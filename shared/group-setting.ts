// Whether a user is in a group-setting value (a group id, or direct members plus subgroups), as the
// public server decides permissions such as realm_can_create_public_channel_group. Groups come
// from register's realm_user_groups (system groups included); subgroups count recursively.
import type { GroupSettingValue, UserGroup } from './api/types';

export function isInGroup(
  groups: ReadonlyMap<number, UserGroup>,
  groupId: number,
  userId: number,
  seen: Set<number> = new Set(),
): boolean {
  if (seen.has(groupId)) return false;
  seen.add(groupId);
  const group = groups.get(groupId);
  if (!group || group.deactivated) return false;
  if (group.members.includes(userId)) return true;
  return group.direct_subgroup_ids.some((sub) => isInGroup(groups, sub, userId, seen));
}

export function isInGroupSetting(
  groups: ReadonlyMap<number, UserGroup>,
  value: GroupSettingValue | undefined,
  userId: number,
): boolean {
  if (value === undefined) return false;
  if (typeof value === 'number') return isInGroup(groups, value, userId);
  if (value.direct_members.includes(userId)) return true;
  return value.direct_subgroups.some((id) => isInGroup(groups, id, userId));
}
