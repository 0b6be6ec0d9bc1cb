// Settings > Organization > Allowed domains: the e-mail domains new users' addresses must be in
// when the realm restricts them. Administrators see the list; only owners change it, as on the
// public server (since FL 143).
import { useState } from 'react';
import { useChatStore } from '../../../store/hooks';
import { selectActiveAccount } from '../../../store';
import { api } from '../../../bridge/api';
import type { RealmDomain } from '../../../../shared/api/realm-config';
import { ListTable, ReadOnlyNote, Refusal, RowActions, standing, useChange } from './extras-kit';

const DOMAIN =
  /^(?=.{1,253}$)([a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?)(\.[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?)*$/;

function DomainForm({ accountId, taken }: { accountId: string; taken: ReadonlySet<string> }) {
  const [domain, setDomain] = useState('');
  const [allowSubdomains, setAllowSubdomains] = useState(false);
  const { error, busy, run } = useChange();
  const normalized = domain.trim().toLowerCase();
  const problem =
    normalized === ''
      ? null
      : !DOMAIN.test(normalized)
        ? `Invalid domain: ${domain.trim()}`
        : taken.has(normalized)
          ? `The domain ${normalized} is already a part of your organization.`
          : null;
  return (
    <form
      className="admin-form"
      aria-label="Add an allowed domain"
      onSubmit={(e) => {
        e.preventDefault();
        if (normalized === '' || problem) return;
        void run(() =>
          api().addRealmDomain({ accountId, domain: normalized, allowSubdomains }),
        ).then((accepted) => {
          if (!accepted) return;
          setDomain('');
          setAllowSubdomains(false);
        });
      }}
    >
      <div className="admin-form-row">
        <label>
          Domain
          <input
            value={domain}
            placeholder="acme.com"
            onChange={(e) => setDomain(e.target.value)}
          />
        </label>
        <label>
          <input
            type="checkbox"
            checked={allowSubdomains}
            onChange={(e) => setAllowSubdomains(e.target.checked)}
          />
          Allow subdomains
        </label>
        <button
          type="submit"
          className="admin-primary"
          disabled={normalized === '' || problem !== null || busy}
        >
          Add domain
        </button>
      </div>
      {problem ? <p className="admin-invalid">{problem}</p> : null}
      <Refusal error={error} />
    </form>
  );
}

/**
 * Shows the asked-for value until the server's realm_domains event (or its refusal) settles it, so
 * the box answers the click at once.
 */
function SubdomainsBox({
  domain,
  editable,
  onChange,
}: {
  domain: RealmDomain;
  editable: boolean;
  onChange: (allowSubdomains: boolean) => Promise<boolean>;
}) {
  // What was asked, with the value it was asked over: once the stored value changes, it is settled.
  const [asked, setAsked] = useState<{ value: boolean; over: boolean } | null>(null);
  const shown =
    asked && asked.over === domain.allow_subdomains ? asked.value : domain.allow_subdomains;
  return (
    <input
      type="checkbox"
      aria-label={`Allow subdomains of ${domain.domain}`}
      checked={shown}
      disabled={!editable}
      onChange={(e) => {
        const value = e.target.checked;
        setAsked({ value, over: domain.allow_subdomains });
        void onChange(value).then((accepted) => {
          if (!accepted) setAsked(null);
        });
      }}
    />
  );
}

export function AllowedDomains({ accountId }: { accountId: string }) {
  const account = useChatStore(selectActiveAccount);
  const { error, run } = useChange();
  if (!account) return null;
  const me = standing(account);
  const domains = (account.settings.realm.realm_domains ?? []) as RealmDomain[];
  const restricted = account.settings.realm.realm_emails_restricted_to_domains === true;
  return (
    <section className="settings-section admin-section" aria-label="Allowed domains">
      <h2>Allowed domains</h2>
      <p className="admin-lead">
        {restricted
          ? 'New users must have an e-mail address in one of these domains.'
          : 'New users may join with any e-mail address now; these domains apply once the organization restricts new users to allowed domains.'}
      </p>
      {me.isOwner ? (
        <DomainForm accountId={accountId} taken={new Set(domains.map((d) => d.domain))} />
      ) : (
        <ReadOnlyNote>Only organization owners can change allowed domains.</ReadOnlyNote>
      )}
      <Refusal error={error} />
      <ListTable
        label="Allowed domain list"
        columns={['Domain', 'Allow subdomains']}
        actions={me.isOwner && 'delete'}
        emptyText={domains.length === 0 ? 'No allowed domains.' : null}
      >
        {domains.map((d) => (
          <tr key={d.domain} aria-label={d.domain}>
            <td>{d.domain}</td>
            <td>
              <SubdomainsBox
                domain={d}
                editable={me.isOwner}
                onChange={(allowSubdomains) =>
                  run(() =>
                    api().updateRealmDomain({ accountId, domain: d.domain, allowSubdomains }),
                  )
                }
              />
            </td>
            {me.isOwner ? (
              <RowActions
                what={d.domain}
                onDelete={() =>
                  void run(() => api().deleteRealmDomain({ accountId, domain: d.domain }))
                }
              />
            ) : null}
          </tr>
        ))}
      </ListTable>
    </section>
  );
}
