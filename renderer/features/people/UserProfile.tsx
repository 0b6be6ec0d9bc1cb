// A user's profile: name, role, status, local time from their time zone, custom profile fields,
// and a button to message them.
import { DialogClose, ModalDialog } from '../../lib/ui/Dialog';
import { useQuery } from '@tanstack/react-query';
import { useChatStore, useUser, useUserStatus } from '../../store/hooks';
import { selectActiveAccount } from '../../store';
import { localTimeIn, roleName } from '../../lib/format';
import { sanitizeMessageHtml } from '../../lib/sanitize';
import { api } from '../../bridge/api';
import { uiStore } from '../../store/ui-store';
import { startDirectMessage } from './start-direct-message';
import { Emoji } from '../emoji/Emoji';
import type { User, UserStatus } from '../../../shared/api/types';
import { profileFieldRows } from './profile-fields';
import { clearsAtText } from './status-choices';

/** A user's role (bot, deactivated) and status line: the card and the profile both show them. */
export function RoleAndStatus({ user, status }: { user: User; status: UserStatus | undefined }) {
  return (
    <>
      <p>
        {roleName(user.role)}
        {user.is_bot ? ' · Bot' : ''}
        {!user.is_active ? ' · Deactivated' : ''}
      </p>
      {status?.status_text || status?.emoji_code ? (
        <p className="status">
          {status.emoji_code ? (
            <>
              <Emoji
                name={status.emoji_name ?? ''}
                code={status.emoji_code}
                type={status.reaction_type}
              />{' '}
            </>
          ) : null}
          {status.status_text}
          {/* Only one's own status carries its clear-after time. */}
          {status.scheduled_end_time ? (
            <span className="status-clears">
              {' · '}
              {clearsAtText(status.scheduled_end_time, new Date())}
            </span>
          ) : null}
        </p>
      ) : null}
    </>
  );
}

export function UserProfile({ accountId, userId }: { accountId: string; userId: number }) {
  const stored = useUser(userId);
  const status = useUserStatus(userId);
  // The store keeps the field definitions in one list (a stable value, as selectors must return).
  const fields = useChatStore((s) => selectActiveAccount(s)?.settings.customProfileFields);
  const users = useChatStore((s) => selectActiveAccount(s)?.users.users);
  // The stored user stays current through realm_user events; the server is asked only for a user
  // the snapshot left out, or one without profile data (a client that registered without it).
  const full = useQuery({
    queryKey: ['user', accountId, userId],
    queryFn: () => api().getUser({ accountId, userId, includeCustomProfileFields: true }),
    staleTime: 60_000,
    enabled: !stored?.profile_data,
  });
  const user = stored ?? full.data?.user;
  const close = () => uiStore.setState({ overlay: null });
  if (!user) return null;
  const time = localTimeIn(user.timezone);
  const rows = profileFieldRows(
    fields ?? [],
    stored?.profile_data ?? full.data?.user.profile_data,
    (id) => users?.get(id)?.full_name ?? `User ${id}`,
  );
  return (
    <ModalDialog label={`Profile of ${user.full_name}`} className="profile" onClose={close}>
      <h2>{user.full_name}</h2>
      <RoleAndStatus user={user} status={status} />
      <dl>
        <dt>Email</dt>
        <dd>{user.delivery_email ?? user.email}</dd>
        {time ? (
          <>
            <dt>Local time</dt>
            <dd>
              {time} ({user.timezone})
            </dd>
          </>
        ) : null}
        {rows.map((row) => (
          <div key={row.id}>
            <dt>{row.name}</dt>
            <dd>
              {row.html ? (
                <span
                  dangerouslySetInnerHTML={{ __html: sanitizeMessageHtml(row.html, accountId) }}
                />
              ) : (
                row.text
              )}
            </dd>
          </div>
        ))}
      </dl>
      <button
        type="button"
        onClick={() => {
          close();
          startDirectMessage(user.user_id);
        }}
      >
        Send direct message
      </button>
      <DialogClose>Close</DialogClose>
    </ModalDialog>
  );
}
