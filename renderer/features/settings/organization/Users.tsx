// Users, as the public web app's organization panel: everyone may browse the list (search, role,
// last active); administrators also change roles, names and profile fields, deactivate and
// reactivate people (after saying what that does), create users and invitation links. The list
// follows realm_user events, so another administrator's change shows at once.
import { useState } from 'react';
import { useChatStore } from '../../../store/hooks';
import { selectActiveAccount } from '../../../store';
import type { User } from '../../../../shared/api/types';
import { api } from '../../../bridge/api';
import { isAdminAccount, isOwnerAccount } from './form/permissions';
import { roleName } from '../../../lib/format';
import { ConfirmDialog } from './ConfirmDialog';
import { EmptyRow } from './form/fields';
import { UserEditor } from './UserEditor';
import { CreateUserForm } from './CreateUserForm';
import { Invitations, inviteStanding } from './Invitations';
import { PresenceDot } from '../../people/PresenceDot';
import { Emoji } from '../../emoji/Emoji';
import type { UserStatus } from '../../../../shared/api/types';

type Tab = 'active' | 'deactivated' | 'invitations';

/** As the public app: "Active now", minutes or hours ago, else the date. `now` is server time. */
function lastActiveText(activeSeconds: number | undefined, now: number): string {
  if (!activeSeconds) return 'Never';
  // No presence report yet: the date is all that is known to be right.
  if (now === 0) return new Date(activeSeconds * 1000).toLocaleDateString();
  const minutes = Math.floor((now - activeSeconds) / 60);
  if (minutes < 2) return 'Active now';
  if (minutes < 60) return `${minutes} minutes ago`;
  const hours = Math.floor(minutes / 60);
  if (hours < 24) return `${hours} ${hours === 1 ? 'hour' : 'hours'} ago`;
  return new Date(activeSeconds * 1000).toLocaleDateString();
}

const hasStatus = (status: UserStatus | undefined) => !!(status?.status_text || status?.emoji_name);

/** The person's status message, as the public app shows it beside names. */
function UserStatusText({ status }: { status: UserStatus | undefined }) {
  if (!status || !hasStatus(status)) return null;
  return (
    <span className="org-user-status">
      {status.emoji_name && status.emoji_code ? (
        <Emoji name={status.emoji_name} code={status.emoji_code} type={status.reaction_type} />
      ) : null}{' '}
      {status.status_text}
    </span>
  );
}

type Pending = { kind: 'deactivate' | 'reactivate' | 'edit'; user: User } | null;

export function Users({ accountId }: { accountId: string }) {
  const account = useChatStore(selectActiveAccount);
  const [tab, setTab] = useState<Tab>('active');
  const [query, setQuery] = useState('');
  const [pending, setPending] = useState<Pending>(null);
  const [creating, setCreating] = useState(false);
  if (!account) return null;
  const canEdit = isAdminAccount(account);
  const isOwner = isOwnerAccount(account);
  const presence = account.presence;
  const needle = query.trim().toLowerCase();
  const people = [...account.users.users.values()]
    .filter((u) => !u.is_bot && u.is_active === (tab === 'active'))
    .filter(
      (u) =>
        needle === '' ||
        u.full_name.toLowerCase().includes(needle) ||
        (u.delivery_email ?? u.email).toLowerCase().includes(needle),
    )
    .sort((a, b) => a.full_name.localeCompare(b.full_name));
  // An empty Status column took the width the addresses and the actions need in an 800 px window.
  const showStatus = people.some((u) => hasStatus(account.statuses.byUser.get(u.user_id)));
  const columns = 3 + (showStatus ? 1 : 0) + (canEdit ? 1 : 0);
  const tabs: Array<[Tab, string]> = [
    ['active', 'Users'],
    ['deactivated', 'Deactivated users'],
  ];
  // Whoever the realm lets invite sees the tab, as in the public web app (their own invitations).
  const invite = inviteStanding(account);
  if (canEdit || invite.byEmail || invite.byLink) tabs.push(['invitations', 'Invitations']);

  return (
    <section className="settings-section org-section" aria-label="Users">
      <h2>Users</h2>
      <div className="org-tabs" role="tablist" aria-label="User lists">
        {tabs.map(([id, label]) => (
          <button
            key={id}
            type="button"
            role="tab"
            aria-selected={tab === id}
            onClick={() => setTab(id)}
          >
            {label}
          </button>
        ))}
      </div>
      {tab === 'invitations' ? (
        <Invitations accountId={accountId} />
      ) : (
        <>
          {canEdit && tab === 'active' ? (
            creating ? (
              <CreateUserForm accountId={accountId} onClose={() => setCreating(false)} />
            ) : (
              <button type="button" className="primary" onClick={() => setCreating(true)}>
                Add a new user
              </button>
            )
          ) : null}
          <input
            type="search"
            className="org-search"
            aria-label="Filter users"
            placeholder="Filter users"
            value={query}
            onChange={(e) => setQuery(e.target.value)}
          />
          <div className="org-table-scroll">
            <table
              className="org-table org-users"
              aria-label={tab === 'active' ? 'Users' : 'Deactivated users'}
            >
              <thead>
                <tr>
                  <th>Name</th>
                  {showStatus ? <th>Status</th> : null}
                  <th>Role</th>
                  <th>Last active</th>
                  {canEdit ? <th>Actions</th> : null}
                </tr>
              </thead>
              <tbody>
                {people.map((user) => (
                  <tr key={user.user_id} data-testid={`user-row-${user.user_id}`}>
                    <td>
                      <div>
                        <PresenceDot userId={user.user_id} /> {user.full_name}
                      </div>
                      <div className="org-hint">{user.delivery_email ?? user.email}</div>
                    </td>
                    {showStatus ? (
                      <td>
                        <UserStatusText status={account.statuses.byUser.get(user.user_id)} />
                      </td>
                    ) : null}
                    <td>{roleName(user.role ?? 400)}</td>
                    <td>
                      {lastActiveText(
                        presence.byUser.get(user.user_id)?.active,
                        presence.serverTimestamp,
                      )}
                    </td>
                    {canEdit ? (
                      <td>
                        <div className="org-actions">
                          <button
                            type="button"
                            aria-label={`Edit ${user.full_name}`}
                            onClick={() => setPending({ kind: 'edit', user })}
                          >
                            Edit
                          </button>
                          {user.user_id === account.selfUserId ? null : user.is_active ? (
                            <button
                              type="button"
                              className="danger"
                              aria-label={`Deactivate ${user.full_name}`}
                              onClick={() => setPending({ kind: 'deactivate', user })}
                            >
                              Deactivate
                            </button>
                          ) : (
                            <button
                              type="button"
                              aria-label={`Reactivate ${user.full_name}`}
                              onClick={() => setPending({ kind: 'reactivate', user })}
                            >
                              Reactivate
                            </button>
                          )}
                        </div>
                      </td>
                    ) : null}
                  </tr>
                ))}
                {people.length === 0 ? <EmptyRow columns={columns} text="No users match." /> : null}
              </tbody>
            </table>
          </div>
        </>
      )}
      {pending?.kind === 'edit' ? (
        <UserEditor
          accountId={accountId}
          user={pending.user}
          fields={account.settings.customProfileFields}
          isOwner={isOwner}
          onClose={() => setPending(null)}
        />
      ) : null}
      {pending?.kind === 'deactivate' ? (
        <ConfirmDialog
          title={`Deactivate ${pending.user.full_name}?`}
          confirmLabel="Deactivate"
          onClose={() => setPending(null)}
          onConfirm={() => api().deactivateUser({ accountId, userId: pending.user.user_id })}
        >
          <p>
            {pending.user.full_name} ({pending.user.delivery_email ?? pending.user.email}) will be
            logged out at once and will no longer be able to sign in, send or receive messages.
          </p>
          <p>
            Bots they own are deactivated too. Their messages stay. You can reactivate them later.
          </p>
        </ConfirmDialog>
      ) : null}
      {pending?.kind === 'reactivate' ? (
        <ConfirmDialog
          title={`Reactivate ${pending.user.full_name}?`}
          confirmLabel="Reactivate"
          onClose={() => setPending(null)}
          onConfirm={() => api().reactivateUser({ accountId, userId: pending.user.user_id })}
        >
          <p>
            {pending.user.full_name} will be able to sign in again, with the channel subscriptions
            they had.
          </p>
        </ConfirmDialog>
      ) : null}
    </section>
  );
}
