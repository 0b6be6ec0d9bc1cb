// One account's menu, the same from the rail's "⋯" button (DropdownMenu) and from a right-click on
// the account (ContextMenu): switch to it, move it up or down the rail, sign out and remove it.
import { ContextMenu, DropdownMenu } from 'radix-ui';
import { ArrowDown, ArrowLeftRight, ArrowUp, LogOut } from 'lucide-react';
import type { AccountSummary } from '../../../shared/ipc/accounts';
import type { AccountIdentity } from './AccountBadge';

export interface AccountMenuActions {
  onSwitch?: () => void;
  onMoveUp?: () => void;
  onMoveDown?: () => void;
  onRemove: () => void;
}

type Kit = typeof DropdownMenu | typeof ContextMenu;

/** The items, built from either library kit (both have Label, Item and Separator). */
export function AccountMenuItems({
  kit,
  account,
  identity,
  actions,
}: {
  kit: Kit;
  account: AccountSummary;
  identity: AccountIdentity;
  actions: AccountMenuActions;
}) {
  const { Label, Item, Separator } = kit;
  return (
    <>
      <Label className="account-menu-label">
        <strong>{identity.label}</strong>
        <span>{account.email}</span>
      </Label>
      {actions.onSwitch ? (
        <Item className="account-menu-item" onSelect={actions.onSwitch}>
          <ArrowLeftRight size={16} aria-hidden="true" />
          Switch to this account
        </Item>
      ) : null}
      {actions.onMoveUp ? (
        <Item className="account-menu-item" onSelect={actions.onMoveUp}>
          <ArrowUp size={16} aria-hidden="true" />
          Move up
        </Item>
      ) : null}
      {actions.onMoveDown ? (
        <Item className="account-menu-item" onSelect={actions.onMoveDown}>
          <ArrowDown size={16} aria-hidden="true" />
          Move down
        </Item>
      ) : null}
      <Separator className="account-menu-separator" />
      <Item className="account-menu-item danger" onSelect={actions.onRemove}>
        <LogOut size={16} aria-hidden="true" />
        Sign out and remove…
      </Item>
    </>
  );
}
