// One account's menu, the same from the rail's "⋯" button and from a right-click on the account
// (lib/ui/Menu's two variants): switch to it, move it up or down the rail, sign out and remove it.
import { ArrowDown, ArrowLeftRight, ArrowUp, LogOut } from 'lucide-react';
import type { AccountSummary } from '../../../shared/ipc/accounts';
import type { AccountIdentity } from './AccountBadge';
import { MenuItem, MenuLabel, MenuSeparator } from '../../lib/ui/Menu';

export interface AccountMenuActions {
  onSwitch?: () => void;
  onMoveUp?: () => void;
  onMoveDown?: () => void;
  onRemove: () => void;
}

export function AccountMenuItems({
  account,
  identity,
  actions,
}: {
  account: AccountSummary;
  identity: AccountIdentity;
  actions: AccountMenuActions;
}) {
  return (
    <>
      <MenuLabel>
        <strong>{identity.label}</strong>
        <span>{account.email}</span>
      </MenuLabel>
      {actions.onSwitch ? (
        <MenuItem icon={ArrowLeftRight} onSelect={actions.onSwitch}>
          Switch to this account
        </MenuItem>
      ) : null}
      {actions.onMoveUp ? (
        <MenuItem icon={ArrowUp} onSelect={actions.onMoveUp}>
          Move up
        </MenuItem>
      ) : null}
      {actions.onMoveDown ? (
        <MenuItem icon={ArrowDown} onSelect={actions.onMoveDown}>
          Move down
        </MenuItem>
      ) : null}
      <MenuSeparator />
      <MenuItem icon={LogOut} danger onSelect={actions.onRemove}>
        Sign out and remove…
      </MenuItem>
    </>
  );
}
