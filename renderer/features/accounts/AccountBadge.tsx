// Who an account is, as the account rail and Settings > Accounts show it: the organization's icon
// with the person's avatar over its corner (or their initials on a colour of their own when there is
// no avatar), and a name that says both, "Iago at Zulip Dev". Two accounts on one organization share
// the icon but never the avatar or the name.
import { useState } from 'react';
import type { AccountSummary } from '../../../shared/ipc/accounts';
import { useChatStore } from '../../store/hooks';
import { useUi } from '../../store/ui-store';
import { avatarSource, initialsOf } from '../messages/MessageRow';
import { RealmIcon } from './RealmIcon';

export interface AccountIdentity {
  /** The person's full name once the account's snapshot is in, else the sign-in email. */
  person: string;
  /** "Iago at Zulip Dev". */
  label: string;
  avatarSrc: string | null;
}

export function useAccountIdentity(account: AccountSummary): AccountIdentity {
  const self = useChatStore((s) => {
    const state = s.accounts[account.id];
    return state ? state.users.users.get(state.selfUserId) : undefined;
  });
  const person = self?.full_name?.trim() || account.email;
  return {
    person,
    label: `${person} at ${account.realmName}`,
    avatarSrc: avatarSource(account.id, self),
  };
}

/** Nine colours far enough apart to tell at a glance, white initials readable on each. */
const PALETTE = [
  '#c62828',
  '#2e7d32',
  '#1565c0',
  '#7b1fa2',
  '#e65100',
  '#00838f',
  '#ad1457',
  '#5d4037',
  '#455a64',
];

function paletteIndex(account: Pick<AccountSummary, 'email'>): number {
  let hash = 0;
  for (const char of account.email.toLowerCase()) hash = (hash * 31 + char.charCodeAt(0)) >>> 0;
  return hash % PALETTE.length;
}

/**
 * The account's colour: chosen by its e-mail (the same on every launch), moved on to the next free
 * one when another account already has it, so no two accounts share a colour. Clashes are settled
 * in the order of the accounts' ids, not of the rail: reordering the rail never swaps two colours.
 */
export function accountColour(account: AccountSummary, all: readonly AccountSummary[]): string {
  const taken = new Set<number>();
  const byId = [...all].sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  for (const other of byId) {
    let index = paletteIndex(other);
    while (taken.has(index) && taken.size < PALETTE.length) index = (index + 1) % PALETTE.length;
    if (other.id === account.id) return PALETTE[index];
    taken.add(index);
  }
  return PALETTE[paletteIndex(account)];
}

function PersonAvatar({
  account,
  identity,
}: {
  account: AccountSummary;
  identity: AccountIdentity;
}) {
  const [failedSrc, setFailedSrc] = useState<string | null>(null);
  const all = useUi((s) => s.accounts);
  const src = identity.avatarSrc;
  if (src && src !== failedSrc)
    return <img className="account-avatar" src={src} alt="" onError={() => setFailedSrc(src)} />;
  return (
    <span
      className="account-avatar initials"
      style={{ backgroundColor: accountColour(account, all) }}
      aria-hidden="true"
    >
      {initialsOf(identity.person.replace(/@.*/, '')) || '?'}
    </span>
  );
}

/** The organization's icon with the person's avatar in its corner (decorative: names go on labels). */
export function AccountBadge({
  account,
  identity,
}: {
  account: AccountSummary;
  identity: AccountIdentity;
}) {
  const iconUrl = useChatStore(
    (s) => s.accounts[account.id]?.settings.realm.realm_icon_url as string | undefined,
  );
  return (
    <span className="account-badge" aria-hidden="true">
      <RealmIcon
        accountId={account.id}
        iconUrl={iconUrl}
        realmName={account.realmName}
        className="realm-initial"
      />
      <PersonAvatar account={account} identity={identity} />
    </span>
  );
}
