// The account rail: every signed-in account with its organization's icon, the person's avatar, its
// connection state and unread total; switching, adding, reordering and removing. Each account has a
// menu from its "⋯" button and from a right-click (AccountMenu.tsx on lib/ui/Menu).
import { useState } from 'react';
import { Ellipsis, Plus, X } from 'lucide-react';
import { useChatStore, useChatStoreApi } from '../../store/hooks';
import { selectUnreadCounts } from '../../store';
import type { AccountSummary } from '../../../shared/ipc/accounts';
import type { ConnectionState } from '../../../shared/ipc/common';
import { api, errorText } from '../../bridge/api';
import { ContextMenuArea, Menu } from '../../lib/ui/Menu';
import { navigate, useUi } from '../../store/ui-store';
import { AccountBadge, useAccountIdentity } from './AccountBadge';
import { AccountMenuItems, type AccountMenuActions } from './AccountMenu';
import { RemoveAccountDialog } from './RemoveAccountDialog';
import { switchAccount } from './switch-account';
import './accounts.css';

export function connectionLabel(state: ConnectionState | undefined): string {
  switch (state?.status) {
    case 'live':
      return 'connected';
    case 'backoff':
      return 'reconnecting';
    case 'signed_out':
      return 'signed out';
    case 'stopped':
      return 'stopped';
    default:
      return 'connecting';
  }
}

function useUnreadTotal(accountId: string): number {
  return useChatStore((s) => selectUnreadCounts(s.accounts[accountId]).total);
}

/** Shows another account where it was left (switch-account.ts). */
export function useSwitchAccount(): (accountId: string) => void {
  const store = useChatStoreApi();
  return (accountId) => switchAccount(store, accountId);
}

function AccountItem({
  account,
  index,
  count,
  active,
  state,
  onRemove,
  onMoveError,
}: {
  account: AccountSummary;
  index: number;
  count: number;
  active: boolean;
  state: ConnectionState;
  onRemove: () => void;
  /** Why the last move failed; null once one succeeds. */
  onMoveError: (message: string | null) => void;
}) {
  const identity = useAccountIdentity(account);
  const unread = useUnreadTotal(account.id);
  const switchTo = useSwitchAccount();
  const move = (toIndex: number) =>
    void api()
      .moveAccount({ accountId: account.id, toIndex })
      .then(
        () => onMoveError(null),
        (e: unknown) => onMoveError(`Could not move ${identity.label}: ${errorText(e)}`),
      );
  const actions: AccountMenuActions = {
    onSwitch: active ? undefined : () => switchTo(account.id),
    onMoveUp: index > 0 ? () => move(index - 1) : undefined,
    onMoveDown: index < count - 1 ? () => move(index + 1) : undefined,
    onRemove,
  };
  const status = connectionLabel(state);
  const items = <AccountMenuItems account={account} identity={identity} actions={actions} />;
  return (
    <li className="account-item">
      <ContextMenuArea label={`Menu of ${identity.label}`} menu={items}>
        <button
          type="button"
          className={`account${active ? ' active' : ''}`}
          aria-current={active}
          title={`${identity.label} (${account.email}), ${status}`}
          aria-label={identity.label}
          aria-description={[account.email, status, unread > 0 ? `${unread} unread` : '']
            .filter(Boolean)
            .join(', ')}
          onClick={() => switchTo(account.id)}
        >
          <AccountBadge account={account} identity={identity} />
          <span className={`dot ${state.status}`} aria-hidden="true" />
          {unread > 0 ? (
            <span className="count" aria-hidden="true">
              {unread}
            </span>
          ) : null}
        </button>
      </ContextMenuArea>
      <Menu
        label={`Menu of ${identity.label}`}
        button={<Ellipsis size={14} aria-hidden="true" />}
        buttonClassName="account-more"
        side="right"
        align="start"
        // Beside the rail, not over the account it is about.
        sideOffset={36}
      >
        {items}
      </Menu>
    </li>
  );
}

export function AccountSwitcher() {
  const accounts = useUi((s) => s.accounts);
  const active = useChatStore((s) => s.activeAccountId);
  const connections = useUi((s) => s.connections);
  // With the app's own process gone, no account is connected, whatever it last said.
  const hostLost = useUi((s) => s.host === 'lost');
  const [removing, setRemoving] = useState<AccountSummary | null>(null);
  const [moveError, setMoveError] = useState<string | null>(null);
  return (
    <nav className="account-switcher" aria-label="Accounts">
      <ul>
        {accounts.map((a, index) => (
          <AccountItem
            key={a.id}
            account={a}
            index={index}
            count={accounts.length}
            active={a.id === active}
            state={hostLost ? { status: 'stopped' } : (connections[a.id] ?? a.connection)}
            onRemove={() => setRemoving(a)}
            onMoveError={setMoveError}
          />
        ))}
        <li>
          <button
            type="button"
            className="account add"
            aria-label="Add account"
            title="Add account"
            onClick={() => navigate({ kind: 'signin' })}
          >
            <Plus size={20} aria-hidden="true" />
          </button>
        </li>
      </ul>
      {moveError ? (
        <p role="alert" className="account-move-error">
          <span>{moveError}</span>
          <button type="button" aria-label="Dismiss" onClick={() => setMoveError(null)}>
            <X size={14} aria-hidden="true" />
          </button>
        </p>
      ) : null}
      <RemoveAccountDialog account={removing} onClose={() => setRemoving(null)} />
    </nav>
  );
}
