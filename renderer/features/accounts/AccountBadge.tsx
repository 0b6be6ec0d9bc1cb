// Who an account is, as the account rail and Settings > Accounts show it: the organization's icon
// with the person's avatar over its corner (or their initials on a colour of their own when there is
// no avatar), and a name that says both, "Iago at Zulip Dev". Two accounts on one organization share
// the icon but never the avatar or the name.
import { useState } from 'react';
import type { AccountSummary } from '../../../shared/ipc/accounts';
import { useChatStore } from '../../store/hooks';
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

/** A hue of its own for each account (by site and email): the same on every launch. */
export function accountHue(account: Pick<AccountSummary, 'site' | 'email'>): number {
  let hash = 0;
  for (const char of `${account.site}\n${account.email.toLowerCase()}`)
    hash = (hash * 31 + char.charCodeAt(0)) >>> 0;
  return hash % 360;
}

function PersonAvatar({
  account,
  identity,
}: {
  account: AccountSummary;
  identity: AccountIdentity;
}) {
  const [failedSrc, setFailedSrc] = useState<string | null>(null);
  const src = identity.avatarSrc;
  if (src && src !== failedSrc)
    return <img className="account-avatar" src={src} alt="" onError={() => setFailedSrc(src)} />;
  return (
    <span
      className="account-avatar initials"
      style={{ backgroundColor: `hsl(${accountHue(account)} 55% 40%)` }}
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
