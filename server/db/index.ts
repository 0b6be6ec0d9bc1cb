// Opens DIR/realm.sqlite3 (WAL) and brings its schema up to date.
import Database from 'better-sqlite3';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { migrations } from './migrations';
import { BoundedMap } from '../memory/bounded-map';

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
  // 64 MiB page cache instead of SQLite's 2 MiB default: every message adds one user_messages row
  // per recipient, each in a different part of the (user_id, message_id) index, so with a small
  // cache most of those inserts had to read their page back from the OS (the largest cost of a
  // send to a big channel in profiles).
  db.pragma('cache_size = -65536');
  // Each send of a group commit runs in its own savepoint (resources/messages/messages-write-batch.ts), and
  // SQLite keeps the original of every page a savepoint changes in a statement journal: a temp
  // file by default, which made a write() per changed page the largest system-time cost of a
  // send in profiles (perf: subjournalPageIfRequired). In memory it is a copy. Temp tables and
  // sorts live in memory too, which is fine for the query sizes this server runs.
  db.pragma('temp_store = MEMORY');
  db.pragma('foreign_keys = ON');
  db.pragma('busy_timeout = 5000');
  migrate(db);
  cachePreparedStatements(db);
  return db;
}

/**
 * Makes db.prepare return a cached statement for SQL it has seen, so resources can keep their SQL
 * next to the code that uses it without paying for compilation on every request (preparing was
 * the largest single cost of a simple request in profiles). A statement still being iterated is
 * never handed out twice, and result modes (pluck/expand/raw) are reset on each hand-out.
 */
function cachePreparedStatements(db: Db): void {
  const prepare = db.prepare.bind(db);
  // A compiled statement lives in SQLite's (native) memory until the Statement object is collected;
  // its size grows with its SQL, and lists of ids make SQL of every length. So the cache is bounded
  // by its SQL text as well as by count, least recently used first: the server's fixed statements
  // (a few hundred) stay, and one-off IN (?, ?, ...) lists come and go.
  const cache = new BoundedMap<string, Database.Statement>({
    maxEntries: 2000,
    maxBytes: 1024 * 1024,
    weigh: (sql) => sql.length,
  });
  const cached = (sql: string): Database.Statement => {
    const hit = cache.get(sql);
    if (hit && !hit.busy) {
      if (hit.reader) hit.pluck(false).expand(false).raw(false);
      return hit;
    }
    const statement = prepare(sql);
    cache.set(sql, statement);
    return statement;
  };
  db.prepare = cached as Db['prepare'];
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
