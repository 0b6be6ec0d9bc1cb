// The top bar's quiet note that the server cannot be reached and the app shows what this computer
// keeps (issue #23). The connection banner below says why and when it retries; this stays in view
// at every width, and opens Settings › Offline for what is kept.
import { CloudOff } from 'lucide-react';
import { useUi, navigate } from '../../store/ui-store';
import { useChatStore } from '../../store/hooks';
import { useOfflineStatus } from '../offline/use-offline-status';
import '../offline/offline.css';

const SAID = 'Offline: showing what this computer keeps';

function Details({ accountId }: { accountId: string }) {
  const { status } = useOfflineStatus(accountId);
  const kept = status
    ? `${status.conversationsSynced.toLocaleString()} of ${status.conversationsKnown.toLocaleString()} conversations kept.`
    : '';
  return (
    <button
      type="button"
      className="offline-indicator"
      data-testid="offline-indicator"
      title={`${SAID}. ${kept} Open Settings › Offline`.replace(/\s+/g, ' ')}
      onClick={() => navigate({ kind: 'settings', section: 'offline' })}
    >
      <CloudOff size={16} aria-hidden="true" />
      <span className="offline-indicator-long">{SAID}</span>
      <span className="offline-indicator-short" aria-hidden="true">
        Offline
      </span>
    </button>
  );
}

/** Whether the account shows what the cache kept because the server is out of reach. */
export function useShowingOffline(accountId: string | null): boolean {
  return useUi((s) => {
    if (!accountId) return false;
    const status = s.connections[accountId]?.status;
    // A first launch connecting from the build's seed is not offline: it never was online.
    return status === 'backoff' || (status === 'connecting' && s.fromCache[accountId] === true);
  });
}

export function OfflineIndicator() {
  const accountId = useChatStore((s) => s.activeAccountId);
  const offline = useShowingOffline(accountId);
  return offline && accountId ? <Details accountId={accountId} /> : null;
}
