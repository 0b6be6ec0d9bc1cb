// Where the account's offline copy stands (shared/ipc/cache.ts): asked once, then kept current by
// main's offlineStatus push. A build whose main cannot sync answers with an error instead; the screens
// then say why and offer no controls.
import { useEffect, useState } from 'react';
import type { OfflineStatus } from '../../../shared/ipc/cache';
import { api } from '../../bridge/api';

const reasonOf = (error: unknown) => (error instanceof Error ? error.message : String(error));

export interface OfflineStatusState {
  status: OfflineStatus | null;
  /** Why main could not say (e.g. "Offline sync is not available in this build"). */
  unavailable: string | null;
  /** A status a method answered with (Sync now, Clear, a setting) replaces the shown one at once. */
  setStatus: (status: OfflineStatus) => void;
}

export function useOfflineStatus(accountId: string): OfflineStatusState {
  // Kept with the account it is for, so another account's figures are never shown meanwhile.
  const [known, setKnown] = useState<{
    accountId: string;
    status: OfflineStatus | null;
    unavailable: string | null;
  } | null>(null);
  useEffect(() => {
    let live = true;
    const off = api().on('offlineStatus', (next) => {
      if (next.accountId === accountId && live)
        setKnown({ accountId, status: next, unavailable: null });
    });
    api()
      .offlineStatus({ accountId })
      .then((first) => {
        if (!live || !first) return;
        // A push may have come first and is at least as new.
        setKnown((k) =>
          k?.accountId === accountId && k.status
            ? k
            : { accountId, status: first, unavailable: null },
        );
      })
      .catch(
        (error: unknown) =>
          live &&
          // The reason in words; the code (INTERNAL_ERROR) would mean nothing to the reader.
          setKnown({ accountId, status: null, unavailable: reasonOf(error) }),
      );
    return () => {
      live = false;
      off();
    };
  }, [accountId]);
  const current = known?.accountId === accountId ? known : null;
  return {
    status: current?.status ?? null,
    unavailable: current?.unavailable ?? null,
    setStatus: (status) => setKnown({ accountId, status, unavailable: null }),
  };
}
