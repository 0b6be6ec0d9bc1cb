// Shown while the account is not live: backing off (with the next retry time and a retry button),
// signed out (with a way to sign in again), or connecting.
import { useEffect, useState } from 'react';
import { useUi } from '../../store/ui-store';
import { api } from '../../bridge/api';
import { secondsUntil } from '../../lib/format';
import { errorText } from '../../bridge/api';

/** A new password or API key for a signed-out account (same server and email). */
function Reauthenticate({ accountId, onDone }: { accountId: string; onDone: () => void }) {
  const email = useUi((s) => s.accounts.find((a) => a.id === accountId)?.email ?? '');
  const [method, setMethod] = useState<'password' | 'apiKey'>('password');
  const [secret, setSecret] = useState('');
  const [error, setError] = useState<string | null>(null);
  return (
    <form
      className="inline-form"
      aria-label="Sign in again"
      onSubmit={(e) => {
        e.preventDefault();
        api()
          .reauthenticate({
            accountId,
            auth:
              method === 'password'
                ? { kind: 'password', email, password: secret }
                : { kind: 'apiKey', email, apiKey: secret },
          })
          .then(onDone)
          .catch((err: unknown) => setError(errorText(err)));
      }}
    >
      <span>{email}</span>
      <select
        aria-label="Sign-in method"
        value={method}
        onChange={(e) => setMethod(e.target.value as 'password' | 'apiKey')}
      >
        <option value="password">Password</option>
        <option value="apiKey">API key</option>
      </select>
      <input
        type="password"
        aria-label={method === 'password' ? 'Password' : 'API key'}
        value={secret}
        required
        onChange={(e) => setSecret(e.target.value)}
      />
      <button type="submit">Sign in</button>
      <button type="button" onClick={onDone}>
        Cancel
      </button>
      {error ? <span role="alert">{error}</span> : null}
    </form>
  );
}

/** Said while the account shows what the local cache kept from the last run. */
const CACHED_NOTE = 'Showing messages saved on this computer';
/**
 * Said instead while a first launch shows the demo organization from the seed the app was built
 * with (shared/demo-seed.ts): nothing of it was saved on this computer by the person.
 */
const SEEDED_CONNECTING = 'Connecting to the demo organization…';
const SEEDED_OFFLINE = 'Offline: showing the demo organization as the app was built with it. ';

export function ConnectionBanner({ accountId }: { accountId: string }) {
  const state = useUi((s) => s.connections[accountId]);
  const hostLost = useUi((s) => s.host === 'lost');
  const fromCache = useUi((s) => s.fromCache[accountId] ?? false);
  const [, tick] = useState(0);
  const [reauth, setReauth] = useState(false);
  useEffect(() => {
    if (state?.status !== 'backoff') return;
    const timer = setInterval(() => tick((n) => n + 1), 1000);
    return () => clearInterval(timer);
  }, [state?.status]);
  if (hostLost)
    return (
      <div className="banner error" role="alert" data-testid="connection-banner">
        Tributary is not running. What you send is kept in this window and handed over as soon as it
        is back.
      </div>
    );
  if (!state || state.status === 'live') return null;
  if (state.status === 'backoff') {
    const s = secondsUntil(state.retryAt);
    return (
      <div className="banner warning" role="status" data-testid="connection-banner">
        {fromCache === 'seed'
          ? SEEDED_OFFLINE
          : fromCache
            ? `Offline: ${CACHED_NOTE.toLowerCase()}. `
            : ''}
        Not connected ({state.reason}). Retrying {s > 0 ? `in ${s} s` : 'now'} — at{' '}
        {new Date(state.retryAt).toLocaleTimeString()}.{' '}
        <button
          type="button"
          onClick={() =>
            void api()
              .resync({ accountId })
              .catch(() => undefined)
          }
        >
          Retry now
        </button>
      </div>
    );
  }
  if (state.status === 'signed_out')
    return (
      <div className="banner error" role="alert" data-testid="connection-banner">
        Signed out: {state.reason}.{' '}
        {reauth ? (
          <Reauthenticate accountId={accountId} onDone={() => setReauth(false)} />
        ) : (
          <button type="button" onClick={() => setReauth(true)}>
            Sign in again
          </button>
        )}
      </div>
    );
  if (state.status === 'connecting')
    return (
      <div className="banner" role="status" data-testid="connection-banner">
        {fromCache === 'seed'
          ? SEEDED_CONNECTING
          : fromCache
            ? `${CACHED_NOTE} — connecting…`
            : 'Connecting…'}
      </div>
    );
  return null;
}
