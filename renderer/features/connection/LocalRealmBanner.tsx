// The local realm server runs in its own process, which the app starts and restarts. While it is
// not running the window says so: starting (after Retry), restarting (with when), or why it could
// not start, with Retry.
// Remote accounts work meanwhile; the local account's own banner shows it is not connected.
import { useEffect, useState } from 'react';
import { useUi } from '../../store/ui-store';
import { api } from '../../bridge/api';
import { secondsUntil } from '../../lib/format';

export function LocalRealmBanner() {
  const status = useUi((s) => s.localRealm);
  const hostLost = useUi((s) => s.host === 'lost');
  const [retrying, setRetrying] = useState(false);
  const [, tick] = useState(0);
  useEffect(() => {
    if (status?.state !== 'restarting') return;
    const timer = setInterval(() => tick((n) => n + 1), 1000);
    return () => clearInterval(timer);
  }, [status?.state]);
  // With the app's own process gone, the connection banner says so; this status is last launch's.
  if (!status || hostLost) return null;
  if (status.state === 'restarting') {
    const s = secondsUntil(status.retryAt);
    return (
      <div className="banner warning" role="status" data-testid="local-realm-banner">
        The local server {status.reason}. Restarting it {s > 0 ? `in ${s} s` : 'now'}.
      </div>
    );
  }
  if (status.state === 'starting')
    return (
      <div className="banner" role="status" data-testid="local-realm-banner">
        Starting the local server…
      </div>
    );
  if (status.state === 'failed')
    return (
      <div className="banner error" role="alert" data-testid="local-realm-banner">
        The local server is not running: {status.reason}.{' '}
        <button
          type="button"
          disabled={retrying}
          onClick={() => {
            setRetrying(true);
            void api()
              .retryLocalRealm({})
              .catch(() => undefined)
              .finally(() => setRetrying(false));
          }}
        >
          {retrying ? 'Starting…' : 'Retry'}
        </button>
      </div>
    );
  return null;
}
