// Shown while the account is not live: backing off (with the next retry time and a retry button),
// signed out (with a way to sign in again), or connecting.
import { useEffect, useState } from 'react';
import { useUi } from '../../src/ui-store';
import { api } from '../../src/tributary';
import { secondsUntil } from '../../lib/format';

export function ConnectionBanner({ accountId }: { accountId: string }) {
  const state = useUi((s) => s.connections[accountId]);
  const [, tick] = useState(0);
  useEffect(() => {
    if (state?.status !== 'backoff') return;
    const timer = setInterval(() => tick((n) => n + 1), 1000);
    return () => clearInterval(timer);
  }, [state?.status]);
  if (!state || state.status === 'live') return null;
  if (state.status === 'backoff') {
    const s = secondsUntil(state.retryAt);
    return (
      <div className="banner warning" role="status" data-testid="connection-banner">
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
        Signed out: {state.reason}. Sign in again from the account menu.
      </div>
    );
  if (state.status === 'connecting')
    return (
      <div className="banner" role="status" data-testid="connection-banner">
        Connecting…
      </div>
    );
  return null;
}
