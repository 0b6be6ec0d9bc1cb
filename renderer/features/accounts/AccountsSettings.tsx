// Settings > Accounts: every account on this computer, with who and where it is, a way to show it,
// and Sign out and remove (the same confirmation as the account rail's menu).
import { useState } from 'react';
import { LogOut, Plus } from 'lucide-react';
import type { AccountSummary } from '../../../shared/ipc/accounts';
import { useChatStore } from '../../store/hooks';
import { navigate, useUi } from '../../store/ui-store';
import { AccountBadge, useAccountIdentity } from './AccountBadge';
import { connectionLabel, useSwitchAccount } from './AccountSwitcher';
import { RemoveAccountDialog } from './RemoveAccountDialog';
import { leaveSettings } from '../settings/form/unsaved';
import './accounts.css';

/** The server as a person knows it: its host name (the whole address when it is not a URL). */
function hostOf(site: string): string {
  try {
    return new URL(site).host;
  } catch {
    return site;
  }
}

function AccountRow({
  account,
  active,
  onRemove,
}: {
  account: AccountSummary;
  active: boolean;
  onRemove: () => void;
}) {
  const identity = useAccountIdentity(account);
  const connection = useUi((s) => s.connections[account.id] ?? account.connection);
  const switchTo = useSwitchAccount();
  return (
    <li aria-label={identity.label}>
      <AccountBadge account={account} identity={identity} />
      <span className="who">
        <strong>{identity.label}</strong>
        <span>{account.email}</span>
        <span>
          {hostOf(account.site)} · {connectionLabel(connection)}
        </span>
      </span>
      {active ? (
        <span className="setting-hint">Shown now</span>
      ) : (
        // Switching leaves Settings: unsaved changes are saved first or the person is asked.
        <button type="button" onClick={() => leaveSettings(() => switchTo(account.id))}>
          Switch to
        </button>
      )}
      <button type="button" onClick={onRemove}>
        <LogOut size={16} aria-hidden="true" />
        Sign out and remove…
      </button>
    </li>
  );
}

export function AccountsSettings(_props: { accountId: string }) {
  const accounts = useUi((s) => s.accounts);
  const active = useChatStore((s) => s.activeAccountId);
  const [removing, setRemoving] = useState<AccountSummary | null>(null);
  return (
    <section className="settings-section" aria-label="Accounts">
      <h2>Accounts</h2>
      <p className="setting-hint">
        The accounts signed in on this computer. Signing out removes the account from Tributary: its
        key and saved messages leave this computer; nothing changes on the server.
      </p>
      <ul className="accounts-settings-list">
        {accounts.map((a) => (
          <AccountRow
            key={a.id}
            account={a}
            active={a.id === active}
            onRemove={() => setRemoving(a)}
          />
        ))}
      </ul>
      <p>
        <button
          type="button"
          className="accounts-settings-add"
          onClick={() => navigate({ kind: 'signin' })}
        >
          <Plus size={16} aria-hidden="true" />
          Add account
        </button>
      </p>
      <RemoveAccountDialog account={removing} onClose={() => setRemoving(null)} />
    </section>
  );
}
