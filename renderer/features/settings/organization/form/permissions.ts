// Who may change what on the organization screens, read from the account's own user as the
// store keeps it (a role change arrives as a realm_user event and the screens follow).
import type { AccountState } from '../../../../store';
import { roleName } from '../../../../lib/format';
import { selfRole } from '../../../channels/channel-permissions';

/** One rule with the channel screens: an unknown self counts as a guest, so nothing is offered. */
export function ownRole(account: AccountState): number {
  return selfRole(account);
}

export const isAdminAccount = (account: AccountState) => ownRole(account) <= 200;
export const isOwnerAccount = (account: AccountState) => ownRole(account) <= 100;

/** Every role with its name, highest first (for role pickers). */
export const ROLE_NAMES: ReadonlyArray<[number, string]> = [100, 200, 300, 400, 600].map((r) => [
  r,
  roleName(r),
]);
