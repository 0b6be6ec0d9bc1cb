// Every signed-in account with its connection state and unread total; switching and adding.
import { useChatStore, useChatStoreApi } from '../../store/hooks';
import { selectUnreadCounts } from '../../store';
import type { ConnectionState } from '../../../shared/ipc/common';
import { api } from '../../bridge/api';
import { ALL_MESSAGES_ROUTE, navigate, uiStore, useUi } from '../../store/ui-store';
import { RealmIcon } from './RealmIcon';

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

function AccountUnread({ accountId }: { accountId: string }) {
  const total = useChatStore((s) => selectUnreadCounts(s.accounts[accountId]).total);
  return total > 0 ? (
    <span className="count" aria-label={`${total} unread`}>
      {total}
    </span>
  ) : null;
}

function AccountRealmIcon({ accountId, realmName }: { accountId: string; realmName: string }) {
  const iconUrl = useChatStore(
    (s) => s.accounts[accountId]?.settings.realm.realm_icon_url as string | undefined,
  );
  return (
    <RealmIcon
      accountId={accountId}
      iconUrl={iconUrl}
      realmName={realmName}
      className="realm-initial"
    />
  );
}

export function AccountSwitcher() {
  const accounts = useUi((s) => s.accounts);
  const store = useChatStoreApi();
  const active = useChatStore((s) => s.activeAccountId);
  const connections = useUi((s) => s.connections);
  // With the app's own process gone, no account is connected, whatever it last said.
  const hostLost = useUi((s) => s.host === 'lost');
  return (
    <nav className="account-switcher" aria-label="Accounts">
      <ul>
        {accounts.map((a) => {
          const state: ConnectionState = hostLost
            ? { status: 'stopped' }
            : (connections[a.id] ?? a.connection);
          return (
            <li key={a.id}>
              <button
                type="button"
                className={`account${a.id === active ? ' active' : ''}`}
                aria-current={a.id === active}
                title={`${a.realmName} — ${a.email} (${connectionLabel(state)})`}
                aria-label={`${a.realmName}, ${a.email}, ${connectionLabel(state)}`}
                onClick={() => {
                  if (a.id === active) return;
                  // Narrows name channels and users by id, which mean nothing in another realm.
                  store.getState().setActiveAccount(a.id);
                  uiStore.setState({ route: ALL_MESSAGES_ROUTE, routeChosen: true, previous: [] });
                  void api().switchAccount({ accountId: a.id });
                }}
              >
                <AccountRealmIcon accountId={a.id} realmName={a.realmName} />
                <span className={`dot ${state.status}`} aria-hidden="true" />
                <AccountUnread accountId={a.id} />
              </button>
            </li>
          );
        })}
        <li>
          <button
            type="button"
            className="account add"
            aria-label="Add account"
            onClick={() => navigate({ kind: 'signin' })}
          >
            +
          </button>
        </li>
      </ul>
    </nav>
  );
}
