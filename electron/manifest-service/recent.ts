// The recent-manifests list, kept in the data folder so it survives restarts. Most recent first,
// one entry per path, at most MAX_RECENT entries.
import { join } from 'node:path';
import type { RecentManifest } from '../../shared/ipc/manifest';
import { readJsonFile, writeJsonFile } from '../storage/json-file';

export const MAX_RECENT = 12;

function isRecent(value: unknown): value is RecentManifest {
  const v = value as RecentManifest;
  return (
    typeof v === 'object' &&
    v !== null &&
    typeof v.path === 'string' &&
    (v.title === null || typeof v.title === 'string') &&
    typeof v.status === 'string' &&
    typeof v.openedAt === 'number'
  );
}

export class RecentManifests {
  private readonly file: string;
  private entries: RecentManifest[];

  constructor(dataDir: string) {
    this.file = join(dataDir, 'manifests', 'recent.json');
    const stored = readJsonFile<unknown>(this.file, []);
    this.entries = Array.isArray(stored) ? stored.filter(isRecent).slice(0, MAX_RECENT) : [];
  }

  list(): RecentManifest[] {
    return this.entries.map((entry) => ({ ...entry }));
  }

  includes(path: string): boolean {
    return this.entries.some((entry) => entry.path === path);
  }

  remember(entry: RecentManifest): RecentManifest[] {
    this.entries = [entry, ...this.entries.filter((e) => e.path !== entry.path)].slice(
      0,
      MAX_RECENT,
    );
    writeJsonFile(this.file, this.entries);
    return this.list();
  }

  forget(path: string): RecentManifest[] {
    this.entries = this.entries.filter((e) => e.path !== path);
    writeJsonFile(this.file, this.entries);
    return this.list();
  }
}
