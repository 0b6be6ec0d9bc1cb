// Where each account's cache lives and how its key is kept: `accounts/<id>/cache.sqlite`, sealed with
// a random key stored in the vault as `cache:<id>`, i.e. protected exactly as the account's API key.
import { join } from 'node:path';
import { mkdirSync } from 'node:fs';
import type { MethodHandlers } from '../../shared/ipc/contract';
import type { cacheMethods } from '../../shared/ipc/cache';
import type { Vault } from '../accounts/vault';
import { accountFolder } from '../accounts/account-files';
import type { AccountRecord } from '../accounts/account-store';
import type { AccountSession } from '../accounts/session';
import { AccountCache, deleteCacheFiles } from './account-cache';
import { CacheCipher } from './cache-cipher';
import { ApiError } from '../api/errors';
import type { OfflineSync } from '../sync/offline-sync';

const cacheKeyId = (accountId: string) => `cache:${accountId}`;

export function cachePath(dataDir: string, accountId: string): string {
  return join(accountFolder(dataDir, accountId), 'cache.sqlite');
}

/**
 * The account's cache key if the vault holds one (never made here): what else main seals for the
 * account beside its cache (electron/first-screen) is sealed with it, so it goes when the cache does.
 */
export function readCacheKey(vault: Vault, accountId: string): string | null {
  try {
    return vault.get(cacheKeyId(accountId));
  } catch {
    return null; // a key the keychain can no longer decrypt
  }
}

/** The account's cache, or null when no key can be stored (e.g. a weak keyring the user refused). */
export function openAccountCache(
  dataDir: string,
  vault: Vault,
  record: AccountRecord,
): AccountCache | null {
  // A key the keychain can no longer decrypt reads as none: the old cache is unreadable anyway.
  let key = readCacheKey(vault, record.id);
  if (!key) {
    key = CacheCipher.newKey();
    try {
      // The user's consent to a weak backend for the API key covers the cache key.
      vault.put(cacheKeyId(record.id), key, {
        allowWeak: record.secretBackend === 'safe-storage-basic-text',
      });
    } catch {
      return null;
    }
    // A file sealed with a key that is gone: AccountCache.open sets it aside as unreadable.
  }
  try {
    mkdirSync(accountFolder(dataDir, record.id), { recursive: true, mode: 0o700 });
    return AccountCache.open(cachePath(dataDir, record.id), key);
  } catch (error) {
    // Without a cache the account still works; it only waits for the server at start.
    console.warn(`Tributary: no local cache for ${record.id} (${(error as Error).message})`);
    return null;
  }
}

/** Removing an account removes its cache and the cache's key. */
export function deleteAccountCache(dataDir: string, vault: Vault, accountId: string): void {
  deleteCacheFiles(cachePath(dataDir, accountId));
  vault.delete(cacheKeyId(accountId));
}

export function cacheHandlers(sessions: {
  session(accountId: string): AccountSession;
  /** After an account's offline copy was cleared: what was made of it goes too. */
  cleared?(accountId: string): void;
}): Pick<MethodHandlers, keyof typeof cacheMethods> {
  return {
    rememberOpenNarrow: ({ accountId, narrow }) => {
      sessions.session(accountId).rememberOpenNarrow(narrow);
      return null;
    },
    offlineStatus: ({ accountId }) => offlineSyncOf(sessions.session(accountId)).status(),
    syncOfflineNow: ({ accountId }) => offlineSyncOf(sessions.session(accountId)).syncNow(),
    clearOfflineData: ({ accountId }) => {
      const status = offlineSyncOf(sessions.session(accountId)).clear();
      sessions.cleared?.(accountId);
      return status;
    },
    setOfflineSettings: ({ accountId, settings }) =>
      offlineSyncOf(sessions.session(accountId)).setSettings(settings),
  };
}

/** An account without a cache (no key could be stored, or --no-cache) has nothing to sync. */
function offlineSyncOf(session: AccountSession): OfflineSync {
  if (!session.offline)
    throw new ApiError(
      'server',
      'NO_OFFLINE_COPY',
      'This account keeps no copy on this computer (its cache key could not be stored).',
      409,
    );
  return session.offline;
}
