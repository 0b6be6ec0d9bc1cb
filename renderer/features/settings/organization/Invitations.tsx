// Invitations: reusable invitation links (create, list, revoke). E-mail invitations are not offered:
// the app's own server cannot send e-mail, and another server's are sent from its web app. The link
// is shown to copy and share.
import { useEffect, useState } from 'react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { api, errorText } from '../../../bridge/api';
import { useChatStore } from '../../../store/hooks';
import { ROLE_NAMES } from './form/permissions';
import { EmptyRow } from './form/fields';
import { roleName } from '../../../lib/format';

const EXPIRY: ReadonlyArray<[number | null, string]> = [
  [60 * 24, '1 day'],
  [60 * 24 * 10, '10 days'],
  [60 * 24 * 30, '30 days'],
  [null, 'Never expires'],
];

const when = (seconds: number) =>
  new Date(seconds * 1000).toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short' });

export function Invitations({ accountId, isOwner }: { accountId: string; isOwner: boolean }) {
  const queryClient = useQueryClient();
  const users = useChatStore((s) => s.accounts[accountId]?.users.users);
  // The app's own server names itself so (server/config.ts); what the note says is true of it only.
  const ownServer = useChatStore((s) =>
    s.accounts[accountId]?.settings.serverVersion.includes('tributary-local'),
  );
  const links = useQuery({
    queryKey: ['invite-links', accountId],
    queryFn: () => api().listInviteLinks({ accountId }),
  });
  const [inviteAs, setInviteAs] = useState(400);
  const [expiry, setExpiry] = useState<number | null>(60 * 24 * 10);
  const [created, setCreated] = useState<string | null>(null);
  const [refusal, setRefusal] = useState<string | null>(null);
  const refresh = () => queryClient.invalidateQueries({ queryKey: ['invite-links', accountId] });
  // invites_changed carries nothing but the news: the list is fetched again, as the public app does.
  useEffect(
    () =>
      api().on('events', ({ accountId: from, events }) => {
        if (from !== accountId) return;
        if (events.some((e) => (e as { type: string }).type === 'invites_changed')) {
          void queryClient.invalidateQueries({ queryKey: ['invite-links', accountId] });
        }
      }),
    [accountId, queryClient],
  );

  return (
    <div className="org-invitations">
      <form
        className="org-subsection"
        aria-label="Create an invitation link"
        onSubmit={(e) => {
          e.preventDefault();
          setRefusal(null);
          api()
            .createInviteLink({
              accountId,
              inviteAs: inviteAs as 100 | 200 | 300 | 400 | 600,
              expiresInMinutes: expiry,
            })
            .then(({ inviteLink }) => {
              setCreated(inviteLink);
              void refresh();
            })
            .catch((error: unknown) => setRefusal(errorText(error)));
        }}
      >
        <h3>Invite users to organization</h3>
        <p className="org-note">
          {ownServer
            ? 'This server cannot send invitation emails. Create an invitation link and share it (the local realm server has no sign-up page yet, so its links cannot be used to join it).'
            : "Create an invitation link and share it. To invite people by email, use the organization's web app."}
        </p>
        <div className="org-inline-fields">
          <label className="org-field">
            <span>Users join as</span>
            <select value={inviteAs} onChange={(e) => setInviteAs(Number(e.target.value))}>
              {ROLE_NAMES.filter(([r]) => isOwner || r !== 100).map(([r, name]) => (
                <option key={r} value={r}>
                  {name}
                </option>
              ))}
            </select>
          </label>
          <label className="org-field">
            <span>Invitation link expires after</span>
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
      <table className="org-table" aria-label="Invitation links">
        <thead>
          <tr>
            <th>Invited by</th>
            <th>Invited at</th>
            <th>Expires</th>
            <th>Invited as</th>
            <th>Actions</th>
          </tr>
        </thead>
        <tbody>
          {links.isError ? (
            <tr>
              {/* The alert inside the cell: a role on the <td> would take the cell's away. */}
              <td colSpan={5}>
                <span role="alert">{errorText(links.error)}</span>
              </td>
            </tr>
          ) : null}
          {(links.data ?? []).map((link) => (
            <tr key={link.id}>
              <td>{users?.get(link.invitedByUserId)?.full_name ?? 'Unknown'}</td>
              <td>{when(link.invited)}</td>
              <td>{link.expiry === null ? 'Never' : when(link.expiry)}</td>
              <td>{roleName(link.invitedAs)}</td>
              <td>
                <button
                  type="button"
                  onClick={() =>
                    void api()
                      .revokeInviteLink({ accountId, inviteId: link.id })
                      .then(refresh)
                      .catch((error: unknown) => setRefusal(errorText(error)))
                  }
                >
                  Revoke
                </button>
              </td>
            </tr>
          ))}
          {links.data?.length === 0 ? <EmptyRow columns={5} text="No invitation links." /> : null}
        </tbody>
      </table>
    </div>
  );
}
