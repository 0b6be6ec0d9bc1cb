// Opens DIR/realm.sqlite3 (WAL) and brings its schema up to date.
import Database from 'better-sqlite3';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { migrations } from './migrations';

export type Db = Database.Database;

export function databasePath(dataDir: string): string {
  return join(dataDir, 'realm.sqlite3');
}

export function uploadsDir(dataDir: string): string {
  return join(dataDir, 'uploads');
}

export function openDatabase(dataDir: string): Db {
  mkdirSync(dataDir, { recursive: true });
  mkdirSync(uploadsDir(dataDir), { recursive: true });
  const db = new Database(databasePath(dataDir));
  db.pragma('journal_mode = WAL');
  // NORMAL is durable across application crashes in WAL mode; only an OS crash can lose the last
  // transactions, which is acceptable for a local realm and keeps sends fast.
  db.pragma('synchronous = NORMAL');
  db.pragma('foreign_keys = ON');
  db.pragma('busy_timeout = 5000');
  migrate(db);
  return db;
}

export function schemaVersion(db: Db): number {
  return db.pragma('user_version', { simple: true }) as number;
}

export function migrate(db: Db): void {
  const current = schemaVersion(db);
  for (const step of migrations) {
    if (step.version <= current) continue;
    db.transaction(() => {
      step.up(db);
      db.pragma(`user_version = ${step.version}`);
    })();
  }
}

/** JSON columns: parse with a fallback so one bad row cannot take an endpoint down. */
export function parseJson<T>(text: string | null | undefined, fallback: T): T {
  if (text == null || text === '') return fallback;
  try {
    return JSON.parse(text) as T;
  } catch {
    return fallback;
  }
}
