// Who may change what on the organization screens, read from the account's own user as the
// store keeps it (a role change arrives as a realm_user event and the screens follow).
import type { AccountState } from '../../../../store';

export function ownRole(account: AccountState): number {
  return account.users.users.get(account.selfUserId)?.role ?? 400;
}

export const isAdminAccount = (account: AccountState) => ownRole(account) <= 200;
export const isOwnerAccount = (account: AccountState) => ownRole(account) <= 100;

export const ROLE_NAMES: ReadonlyArray<[number, string]> = [
  [100, 'Owner'],
  [200, 'Administrator'],
  [300, 'Moderator'],
  [400, 'Member'],
  [600, 'Guest'],
];

export const roleName = (role: number) => ROLE_NAMES.find(([r]) => r === role)?.[1] ?? 'Member';
