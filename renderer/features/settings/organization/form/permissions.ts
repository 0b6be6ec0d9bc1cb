// Who may change what on the organization screens, read from the account's own user as the
// store keeps it (a role change arrives as a realm_user event and the screens follow).
import type { AccountState } from '../../../../store';
import { roleName } from '../../../../lib/format';
import { isRealmAdmin, isRealmOwner } from '../../../channels/channel-permissions';

export const isAdminAccount = (account: AccountState) => isRealmAdmin(account);
export const isOwnerAccount = (account: AccountState) => isRealmOwner(account);

/** Every role with its name, highest first (for role pickers). */
export const ROLE_NAMES: ReadonlyArray<[number, string]> = [100, 200, 300, 400, 600].map((r) => [
  r,
  roleName(r),
]);
