// The account rail: every signed-in account with its organization's icon, the person's avatar, its
// connection state and unread total; switching, adding, reordering and removing. Each account has a
// menu from its "⋯" button and from a right-click (AccountMenu.tsx).
import { useState } from 'react';
import { ContextMenu, DropdownMenu } from 'radix-ui';
import { Ellipsis, Plus } from 'lucide-react';
import { useChatStore, useChatStoreApi } from '../../store/hooks';
import { selectUnreadCounts } from '../../store';
import type { AccountSummary } from '../../../shared/ipc/accounts';
import type { ConnectionState } from '../../../shared/ipc/common';
import { api } from '../../bridge/api';
import { ALL_MESSAGES_ROUTE, navigate, uiStore, useUi } from '../../store/ui-store';
import { AccountBadge, useAccountIdentity } from './AccountBadge';
import { AccountMenuItems, type AccountMenuActions } from './AccountMenu';
import { RemoveAccountDialog } from './RemoveAccountDialog';
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

/** Shows another account: its all-messages view, since narrows name another realm's ids. */
export function useSwitchAccount(): (accountId: string) => void {
  const store = useChatStoreApi();
  return (accountId) => {
    if (store.getState().activeAccountId === accountId) return;
    store.getState().setActiveAccount(accountId);
    uiStore.setState({ route: ALL_MESSAGES_ROUTE, routeChosen: true, previous: [] });
    void api().switchAccount({ accountId });
  };
}

function AccountItem({
  account,
  index,
  count,
  active,
  state,
  onRemove,
}: {
  account: AccountSummary;
  index: number;
  count: number;
  active: boolean;
  state: ConnectionState;
  onRemove: () => void;
}) {
  const identity = useAccountIdentity(account);
  const unread = useUnreadTotal(account.id);
  const switchTo = useSwitchAccount();
  const move = (toIndex: number) => void api().moveAccount({ accountId: account.id, toIndex });
  const actions: AccountMenuActions = {
    onSwitch: active ? undefined : () => switchTo(account.id),
    onMoveUp: index > 0 ? () => move(index - 1) : undefined,
    onMoveDown: index < count - 1 ? () => move(index + 1) : undefined,
    onRemove,
  };
  const status = connectionLabel(state);
  return (
    <li className="account-item">
      <ContextMenu.Root>
        <ContextMenu.Trigger asChild>
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
        </ContextMenu.Trigger>
        <ContextMenu.Portal>
          <ContextMenu.Content className="account-menu">
            <AccountMenuItems
              kit={ContextMenu}
              account={account}
              identity={identity}
              actions={actions}
            />
          </ContextMenu.Content>
        </ContextMenu.Portal>
      </ContextMenu.Root>
      <DropdownMenu.Root>
        <DropdownMenu.Trigger asChild>
          <button type="button" className="account-more" aria-label={`Menu of ${identity.label}`}>
            <Ellipsis size={14} aria-hidden="true" />
          </button>
        </DropdownMenu.Trigger>
        <DropdownMenu.Portal>
          <DropdownMenu.Content
            className="account-menu"
            side="right"
            align="start"
            // Beside the rail, not over the account it is about.
            sideOffset={36}
          >
            <AccountMenuItems
              kit={DropdownMenu}
              account={account}
              identity={identity}
              actions={actions}
            />
          </DropdownMenu.Content>
        </DropdownMenu.Portal>
      </DropdownMenu.Root>
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
      <RemoveAccountDialog account={removing} onClose={() => setRemoving(null)} />
    </nav>
  );
}
