// Invitations, as the public web app offers them to whoever the realm lets invite: e-mail
// invitations (can_invite_users_group) and reusable links (create_multiuse_invite_group), then the
// pending ones (administrators see everyone's, others their own, as the server answers) to revoke,
// or to send again for an e-mail. The server's answer is shown as it gives it: addresses it skipped
// and why, or, from the app's own server, which sends no e-mail, its refusal.
import { useEffect, useState, type FormEvent } from 'react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { api, errorText } from '../../../bridge/api';
import { useChatStore } from '../../../store/hooks';
import type { AccountState } from '../../../store';
import type { GroupSettingValue } from '../../../../shared/api/types';
import { isInGroupSetting } from '../../../../shared/group-setting';
import { isNotGuest, isRealmAdmin, isRealmOwner } from '../../channels/channel-permissions';
import { ROLE_NAMES } from './form/permissions';
import { EmptyRow } from './form/fields';
import { roleName } from '../../../lib/format';

const EXPIRY: ReadonlyArray<[number | null, string]> = [
  [60 * 24, '1 day'],
  [60 * 24 * 10, '10 days'],
  [60 * 24 * 30, '30 days'],
  [null, 'Never expires'],
];

// Short dates: six columns fit a Settings pane 800 px wide.
const when = (seconds: number) =>
  new Date(seconds * 1000).toLocaleString(undefined, { dateStyle: 'short', timeStyle: 'short' });

type InviteRole = 100 | 200 | 300 | 400 | 600;

export interface InviteStanding {
  byEmail: boolean;
  byLink: boolean;
  /** Roles one may invite as: owners by owners, administrators and moderators by administrators. */
  roles: ReadonlyArray<[number, string]>;
}

export function inviteStanding(
  account: Pick<AccountState, 'selfUserId' | 'users' | 'userGroups' | 'settings'>,
): InviteStanding {
  const realm = account.settings.realm;
  const allows = (setting: string) =>
    isNotGuest(account) &&
    isInGroupSetting(
      account.userGroups.groups,
      realm[`realm_${setting}`] as GroupSettingValue | undefined,
      account.selfUserId,
    );
  const isOwner = isRealmOwner(account);
  const isAdmin = isRealmAdmin(account);
  return {
    byEmail: allows('can_invite_users_group'),
    byLink: allows('create_multiuse_invite_group'),
    roles: ROLE_NAMES.filter(([r]) => (r === 100 ? isOwner : r < 400 ? isAdmin : true)),
  };
}

/** "Users join as" and the expiry, which both forms ask. */
function InviteTerms({
  standing,
  inviteAs,
  setInviteAs,
  expiry,
  setExpiry,
  expiryLabel,
}: {
  standing: InviteStanding;
  inviteAs: number;
  setInviteAs: (role: number) => void;
  expiry: number | null;
  setExpiry: (minutes: number | null) => void;
  expiryLabel: string;
}) {
  return (
    <>
      <label className="org-field">
        <span>Users join as</span>
        <select value={inviteAs} onChange={(e) => setInviteAs(Number(e.target.value))}>
          {standing.roles.map(([r, name]) => (
            <option key={r} value={r}>
              {name}
            </option>
          ))}
        </select>
      </label>
      <label className="org-field">
        <span>{expiryLabel}</span>
        <select
          value={String(expiry)}
          onChange={(e) => setExpiry(e.target.value === 'null' ? null : Number(e.target.value))}
        >
          {EXPIRY.map(([v, text]) => (
            <option key={String(v)} value={String(v)}>
              {text}
            </option>
          ))}
        </select>
      </label>
    </>
  );
}

function useInviteTerms() {
  const [inviteAs, setInviteAs] = useState(400);
  const [expiry, setExpiry] = useState<number | null>(60 * 24 * 10);
  return { inviteAs, setInviteAs, expiry, setExpiry };
}

/** Addresses as the public server splits them: by commas and lines, `Name <address>` allowed. */
function inviteeEmails(text: string): string[] {
  return text
    .split(/[,\n]/)
    .map((part) => (/<([^>]*)>/.exec(part)?.[1] ?? part).trim())
    .filter((address) => address !== '');
}

function EmailInviteForm({
  accountId,
  standing,
  onSent,
}: {
  accountId: string;
  standing: InviteStanding;
  onSent: () => void;
}) {
  const terms = useInviteTerms();
  const [emails, setEmails] = useState('');
  const [answer, setAnswer] = useState<{ ok: boolean; text: string } | null>(null);
  const [busy, setBusy] = useState(false);
  const addresses = inviteeEmails(emails);
  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (addresses.length === 0) return;
    setAnswer(null);
    setBusy(true);
    api()
      .sendEmailInvites({
        accountId,
        emails: addresses,
        inviteAs: terms.inviteAs as InviteRole,
        expiresInMinutes: terms.expiry,
      })
      .then(() => {
        setEmails('');
        setAnswer({ ok: true, text: 'Invitations sent.' });
      })
      .catch((error: unknown) => setAnswer({ ok: false, text: errorText(error) }))
      // Some may have been sent even when others were refused: the list is asked again anyway.
      .finally(() => {
        setBusy(false);
        onSent();
      });
  };
  return (
    <form className="org-subsection" aria-label="Invite users by email" onSubmit={submit}>
      <h3>Invite by email</h3>
      <label className="org-field">
        <span>Emails (one on each line or separated by commas)</span>
        <textarea
          rows={3}
          value={emails}
          placeholder="one@example.com, two@example.com"
          onChange={(e) => setEmails(e.target.value)}
        />
      </label>
      <p className="org-note">New users join the organization’s default channels.</p>
      <div className="org-inline-fields">
        <InviteTerms standing={standing} {...terms} expiryLabel="Invitation expires after" />
        <button type="submit" className="primary" disabled={busy || addresses.length === 0}>
          Send invitations
        </button>
      </div>
      {answer?.ok ? <p role="status">{answer.text}</p> : null}
      {answer && !answer.ok ? (
        <p role="alert" className="org-invite-refusal">
          {answer.text}
        </p>
      ) : null}
    </form>
  );
}

function LinkInviteForm({
  accountId,
  standing,
  onCreated,
}: {
  accountId: string;
  standing: InviteStanding;
  onCreated: () => void;
}) {
  const terms = useInviteTerms();
  const [created, setCreated] = useState<string | null>(null);
  const [refusal, setRefusal] = useState<string | null>(null);
  return (
    <form
      className="org-subsection"
      aria-label="Create an invitation link"
      onSubmit={(e) => {
        e.preventDefault();
        setRefusal(null);
        api()
          .createInviteLink({
            accountId,
            inviteAs: terms.inviteAs as InviteRole,
            expiresInMinutes: terms.expiry,
          })
          .then(({ inviteLink }) => {
            setCreated(inviteLink);
            onCreated();
          })
          .catch((error: unknown) => setRefusal(errorText(error)));
      }}
    >
      <h3>Create an invitation link</h3>
      <div className="org-inline-fields">
        <InviteTerms standing={standing} {...terms} expiryLabel="Invitation link expires after" />
        <button type="submit" className="primary">
          Create invitation link
        </button>
      </div>
      {refusal ? <p role="alert">{refusal}</p> : null}
      {created ? (
        <p className="org-created-link">
          Link: <code aria-label="Invitation link">{created}</code>{' '}
          <button type="button" onClick={() => void navigator.clipboard.writeText(created)}>
            Copy link
          </button>
        </p>
      ) : null}
    </form>
  );
}

export function Invitations({ accountId }: { accountId: string }) {
  const queryClient = useQueryClient();
  const account = useChatStore((s) => s.accounts[accountId]);
  const users = account?.users.users;
  // The app's own server names itself so (server/config.ts); what the note says is true of it only.
  const ownServer = account?.settings.serverVersion.includes('tributary-local') ?? false;
  const invites = useQuery({
    queryKey: ['invites', accountId],
    queryFn: () => api().listInvites({ accountId }),
  });
  const [refusal, setRefusal] = useState<string | null>(null);
  const [resent, setResent] = useState<string | null>(null);
  const refresh = () => void queryClient.invalidateQueries({ queryKey: ['invites', accountId] });
  // invites_changed carries nothing but the news: the list is fetched again, as the public app does.
  useEffect(
    () =>
      api().on('events', ({ accountId: from, events }) => {
        if (from !== accountId) return;
        if (events.some((e) => (e as { type: string }).type === 'invites_changed')) {
          void queryClient.invalidateQueries({ queryKey: ['invites', accountId] });
        }
      }),
    [accountId, queryClient],
  );
  if (!account) return null;
  const standing = inviteStanding(account);
  const act = (change: Promise<unknown>, done?: string) => {
    setRefusal(null);
    setResent(null);
    void change
      .then(() => {
        if (done) setResent(done);
        refresh();
      })
      .catch((error: unknown) => setRefusal(errorText(error)));
  };

  return (
    <div className="org-invitations">
      {ownServer ? (
        <p className="org-note">
          This server cannot send invitation emails: create an invitation link and share it (the
          local realm server has no sign-up page yet, so its links cannot be used to join it).
        </p>
      ) : null}
      {standing.byEmail ? (
        <EmailInviteForm accountId={accountId} standing={standing} onSent={refresh} />
      ) : null}
      {standing.byLink ? (
        <LinkInviteForm accountId={accountId} standing={standing} onCreated={refresh} />
      ) : null}
      {refusal ? <p role="alert">{refusal}</p> : null}
      {resent ? <p role="status">{resent}</p> : null}
      <div className="org-table-scroll">
        <table className="org-table" aria-label="Invitations">
          <thead>
            <tr>
              <th>Invited</th>
              <th>Invited by</th>
              <th>Invited at</th>
              <th>Expires</th>
              <th>Invited as</th>
              <th>Actions</th>
            </tr>
          </thead>
          <tbody>
            {invites.isError ? (
              <tr>
                {/* The alert inside the cell: a role on the <td> would take the cell's away. */}
                <td colSpan={6}>
                  <span role="alert">{errorText(invites.error)}</span>
                </td>
              </tr>
            ) : null}
            {(invites.data ?? []).map((invite) => (
              <tr key={`${invite.email === null ? 'link' : 'email'}-${invite.id}`}>
                <td>{invite.email ?? 'Invitation link'}</td>
                <td>{users?.get(invite.invitedByUserId)?.full_name ?? 'Unknown'}</td>
                <td>{when(invite.invited)}</td>
                <td>{invite.expiry === null ? 'Never' : when(invite.expiry)}</td>
                <td>{roleName(invite.invitedAs)}</td>
                <td>
                  <div className="org-actions">
                    {invite.email !== null ? (
                      <button
                        type="button"
                        onClick={() =>
                          act(
                            api().resendEmailInvite({ accountId, inviteId: invite.id }),
                            `Invitation sent again to ${invite.email}.`,
                          )
                        }
                      >
                        Resend
                      </button>
                    ) : null}
                    <button
                      type="button"
                      onClick={() =>
                        act(
                          invite.email === null
                            ? api().revokeInviteLink({ accountId, inviteId: invite.id })
                            : api().revokeEmailInvite({ accountId, inviteId: invite.id }),
                        )
                      }
                    >
                      Revoke
                    </button>
                  </div>
                </td>
              </tr>
            ))}
            {invites.data?.length === 0 ? <EmptyRow columns={6} text="No invitations." /> : null}
          </tbody>
        </table>
      </div>
    </div>
  );
}
