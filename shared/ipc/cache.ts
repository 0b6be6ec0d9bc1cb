// The local cache (electron/cache) and offline sync (electron/sync): what the renderer tells main to
// keep for the next launch, and what it shows about the copy of the account kept on this computer.
import { forAccount } from './common';
import { method, push } from './define';
import { narrowTerm } from './chat';
import * as z from 'zod';

/** What the person chose in Settings › Offline. */
export const offlineSettings = z.object({
  /** Conversations with activity in this many past days are kept for offline use. */
  days: z.number().int().min(1).max(3650),
  /** The most this account's offline copy may take on disk; the oldest history goes first. */
  budgetBytes: z
    .number()
    .int()
    .min(16 * 1024 * 1024)
    .max(64 * 1024 * 1024 * 1024),
  /** False: nothing is fetched in the background (what was opened is still kept). */
  enabled: z.boolean(),
});
export type OfflineSettings = z.infer<typeof offlineSettings>;

export const DEFAULT_OFFLINE_SETTINGS: OfflineSettings = {
  days: 30,
  budgetBytes: 500 * 1024 * 1024,
  enabled: true,
};

/** Where background sync is, for Settings › Offline and the offline indicator. */
export interface OfflineStatus {
  accountId: string;
  settings: OfflineSettings;
  /**
   * idle: up to date; syncing: fetching now; paused: waiting while the person is active or the
   * server asked to slow down; offline: the server cannot be reached; disk-full: stopped, nothing
   * queued was lost; error: stopped for `error`.
   */
  state: 'idle' | 'syncing' | 'paused' | 'offline' | 'disk-full' | 'error';
  /** Conversations whose recent history is complete in the cache / conversations known to sync. */
  conversationsSynced: number;
  conversationsKnown: number;
  messages: number;
  /** Size of the account's cache files on disk. */
  bytes: number;
  /** Epoch ms of the last completed pass, null before the first. */
  lastSyncAt: number | null;
  error: string | null;
}

export const cacheMethods = {
  /**
   * The conversation now open; the next launch opens it first, from the cache. Null: the person
   * went to the Inbox or Recent conversations, so the next launch opens their home view.
   */
  rememberOpenNarrow: method<null>()(
    forAccount({ narrow: z.array(narrowTerm).max(20).nullable() }),
  ),
  offlineStatus: method<OfflineStatus>()(forAccount({})),
  /** Starts a sync pass now (even while the person is active); resolves at once. */
  syncOfflineNow: method<OfflineStatus>()(forAccount({})),
  /** Deletes every cached message and the search index (the snapshot and queued actions stay). */
  clearOfflineData: method<OfflineStatus>()(forAccount({})),
  setOfflineSettings: method<OfflineStatus>()(forAccount({ settings: offlineSettings })),
} as const;

export const cachePushes = {
  /** Sent whenever an account's OfflineStatus changes (at most a few times a second). */
  offlineStatus: push<OfflineStatus>(),
} as const;
