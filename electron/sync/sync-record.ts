// What background sync keeps about itself per account, in DATA/accounts/<id>/offline-sync.json: the
// person's settings (Settings › Offline) and how the last pass ended. Nothing about the realm's
// content is in it; removing the account removes its folder and this file with it.
import { join } from 'node:path';
import {
  DEFAULT_OFFLINE_SETTINGS,
  offlineSettings,
  type OfflineSettings,
} from '../../shared/ipc/cache';
import { readJsonFile, writeJsonFile } from '../storage/json-file';

export interface SyncRecord {
  settings: OfflineSettings;
  lastSyncAt: number | null;
  conversationsSynced: number;
  conversationsKnown: number;
}

export function syncRecordPath(accountFolder: string): string {
  return join(accountFolder, 'offline-sync.json');
}

export function readSyncRecord(path: string): SyncRecord {
  const stored = readJsonFile<Partial<SyncRecord>>(path, {});
  // A hand-edited or older file: whatever does not validate falls back to the defaults.
  const settings = offlineSettings.safeParse(stored.settings);
  const count = (n: unknown) => (typeof n === 'number' && n >= 0 ? Math.floor(n) : 0);
  return {
    settings: settings.success ? settings.data : { ...DEFAULT_OFFLINE_SETTINGS },
    lastSyncAt: typeof stored.lastSyncAt === 'number' ? stored.lastSyncAt : null,
    conversationsSynced: count(stored.conversationsSynced),
    conversationsKnown: count(stored.conversationsKnown),
  };
}

export function writeSyncRecord(path: string, record: SyncRecord): void {
  writeJsonFile(path, record);
}
