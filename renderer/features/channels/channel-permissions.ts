// What the realm lets the signed-in person do with channels, read from register state the way the
// public web app reads it (settings_data.user_can_create_*_streams, can_add_subscribers): the
// realm's group settings, the channel's own group settings, and the person's role.
import type { Channel } from '../../../shared/api/types';
import { isInGroupSetting } from '../../../shared/group-setting';
import type { AccountState } from '../../store';

export type Privacy = 'public' | 'private' | 'web-public';

const GUEST_ROLE = 600;
const ADMIN_ROLE = 200;
const OWNER_ROLE = 100;

type PermissionInputs = Pick<AccountState, 'selfUserId' | 'users' | 'userGroups' | 'settings'>;

/** The signed-in person's role; an unknown self counts as a guest, so nothing is offered. */
export function selfRole(account: Pick<AccountState, 'selfUserId' | 'users'>): number {
  return account.users.users.get(account.selfUserId)?.role ?? GUEST_ROLE;
}

/** Whether a realm group setting (named without the realm_ prefix) includes the person. */
export function realmAllows(account: PermissionInputs, setting: string): boolean {
  const value = account.settings.realm[`realm_${setting}`] as Parameters<
    typeof isInGroupSetting
  >[1];
  return isInGroupSetting(account.userGroups.groups, value, account.selfUserId);
}

/** Which privacies the person may create: web-public only where the realm offers it at all. */
export function creatablePrivacies(account: PermissionInputs): Privacy[] {
  if (selfRole(account) >= GUEST_ROLE) return [];
  const privacies: Privacy[] = [];
  if (realmAllows(account, 'can_create_public_channel_group')) privacies.push('public');
  if (realmAllows(account, 'can_create_private_channel_group')) privacies.push('private');
  if (
    account.settings.realm.realm_enable_spectator_access === true &&
    realmAllows(account, 'can_create_web_public_channel_group')
  ) {
    privacies.push('web-public');
  }
  return privacies;
}

export function isSubscribedTo(account: Pick<AccountState, 'channels'>, streamId: number) {
  return account.channels.subscriptions.has(streamId);
}

/** May the person add others to the channel (the server's canSubscribe for another user)? */
export function canAddSubscribers(
  account: PermissionInputs & Pick<AccountState, 'channels'>,
  channel: Channel,
): boolean {
  if (channel.is_archived || selfRole(account) >= GUEST_ROLE) return false;
  if (selfRole(account) <= ADMIN_ROLE) return true;
  const me = account.selfUserId;
  const groups = account.userGroups.groups;
  if (isInGroupSetting(groups, channel.can_administer_channel_group, me)) return true;
  if (isInGroupSetting(groups, channel.can_add_subscribers_group, me)) return true;
  return (
    realmAllows(account, 'can_add_subscribers_group') &&
    (!channel.invite_only || isSubscribedTo(account, channel.stream_id))
  );
}

type RoleInputs = Pick<AccountState, 'selfUserId' | 'users'>;

/** Realm administrators and owners (role 200 and 100). */
export function isRealmAdmin(account: RoleInputs): boolean {
  return selfRole(account) <= ADMIN_ROLE;
}

/** Realm owners (role 100). */
export function isRealmOwner(account: RoleInputs): boolean {
  return selfRole(account) <= OWNER_ROLE;
}

/** Anyone but a guest (an unknown self counts as a guest). */
export function isNotGuest(account: RoleInputs): boolean {
  return selfRole(account) < GUEST_ROLE;
}

/**
 * May the person change the channel's name, description, privacy, permissions and archive it
 * (the server's canAdministerChannel): administrators and the channel's
 * can_administer_channel_group.
 */
export function canAdministerChannel(account: PermissionInputs, channel: Channel): boolean {
  if (selfRole(account) >= GUEST_ROLE) return false;
  if (selfRole(account) <= ADMIN_ROLE) return true;
  return isInGroupSetting(
    account.userGroups.groups,
    channel.can_administer_channel_group,
    account.selfUserId,
  );
}

/** May the person unsubscribe others: administrators, channel administrators, or the channel's
 * can_remove_subscribers_group. */
export function canRemoveSubscribers(account: PermissionInputs, channel: Channel): boolean {
  if (channel.is_archived) return false;
  if (canAdministerChannel(account, channel)) return true;
  return isInGroupSetting(
    account.userGroups.groups,
    channel.can_remove_subscribers_group,
    account.selfUserId,
  );
}
