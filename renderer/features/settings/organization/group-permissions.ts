// What the person may do to a user group, decided as the server decides it (its
// access_user_group_for_update): the realm's can_manage_all_groups or the group's
// can_manage_group allow everything; can_add_members_group / can_remove_members_group allow only
// that. System groups are never changed.
import type { UserGroup } from '../../../../shared/api/types';
import { isInGroupSetting } from '../../../../shared/group-setting';
import type { AccountState } from '../../../store';
import { realmAllows, selfRole } from '../../channels/channel-permissions';

type Inputs = Pick<AccountState, 'selfUserId' | 'users' | 'userGroups' | 'settings'>;

export interface GroupPowers {
  manage: boolean;
  addMembers: boolean;
  removeMembers: boolean;
}

const NONE: GroupPowers = { manage: false, addMembers: false, removeMembers: false };

export function groupPowers(account: Inputs, group: UserGroup): GroupPowers {
  const role = selfRole(account);
  if (group.is_system_group || role >= 600) return NONE;
  const has = (value: UserGroup['can_manage_group']) =>
    isInGroupSetting(account.userGroups.groups, value, account.selfUserId);
  const manage = realmAllows(account, 'can_manage_all_groups') || has(group.can_manage_group);
  return {
    manage,
    addMembers: manage || has(group.can_add_members_group),
    removeMembers: manage || has(group.can_remove_members_group),
  };
}

export function mayCreateGroups(account: Inputs): boolean {
  const role = selfRole(account);
  return role < 600 && realmAllows(account, 'can_create_groups');
}
