// Muted users: who you muted and when, with Unmute (DELETE /users/me/muted_users/{id}). The store's
// list follows muted_users events; muting is done from a user's card.
import { useMemo, useState } from 'react';
import { useChatStore, useTwentyFourHour } from '../../../store/hooks';
import { selectActiveAccount } from '../../../store';
import { api, errorText } from '../../../bridge/api';
import { ActionsHeader } from './ActionsHeader';
import { formatDateTime } from '../../../lib/format';

export function MutedUsers({ accountId }: { accountId: string }) {
  const muted = useChatStore((s) => selectActiveAccount(s)?.mutedUsers.byUser);
  const users = useChatStore((s) => selectActiveAccount(s)?.users.users);
  const twentyFourHour = useTwentyFourHour();
  const [query, setQuery] = useState('');
  const [error, setError] = useState<string | null>(null);
  const rows = useMemo(() => {
    const q = query.trim().toLowerCase();
    return [...(muted ?? new Map<number, number>())]
      .map(([id, since]) => ({ id, since, name: users?.get(id)?.full_name ?? `User ${id}` }))
      .filter((row) => q === '' || row.name.toLowerCase().includes(q))
      .sort((a, b) => a.name.localeCompare(b.name));
  }, [muted, users, query]);
  return (
    <section className="settings-section" aria-label="Muted users">
      <h2>Muted users</h2>
      <p className="setting-hint">
        Messages from muted users are hidden, and they do not notify you. Mute someone from their
        user card.
      </p>
      {muted && muted.size > 0 ? (
        <>
          <input
            type="search"
            className="settings-filter"
            placeholder="Filter muted users"
            aria-label="Filter muted users"
            value={query}
            onChange={(e) => setQuery(e.target.value)}
          />
          <table className="settings-table" aria-label="Your muted users">
            <thead>
              <tr>
                <th>User</th>
                <th>Date muted</th>
                <ActionsHeader />
              </tr>
            </thead>
            <tbody>
              {rows.map((row) => (
                <tr key={row.id}>
                  <td>{row.name}</td>
                  <td>{formatDateTime(row.since, twentyFourHour)}</td>
                  <td>
                    <button
                      type="button"
                      aria-label={`Unmute ${row.name}`}
                      onClick={() =>
                        void api()
                          .unmuteUser({ accountId, userId: row.id })
                          .then(() => setError(null))
                          .catch((e: unknown) => setError(errorText(e)))
                      }
                    >
                      Unmute
                    </button>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </>
      ) : (
        <p className="settings-empty">You have not muted any users.</p>
      )}
      {error ? <p role="alert">{error}</p> : null}
    </section>
  );
}
