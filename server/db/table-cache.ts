// Caches of small, hot lookups (credentials, the realm row, channels, subscribers, group
// membership) that stay exact: each cache names the tables it reads, and TEMP triggers on those
// tables empty it on any insert, update or delete made through this connection. The server is the
// only writer of its database, so nothing changes behind the triggers' back.
//
// Transactions: a cache never stores what it computed inside a transaction after that transaction
// changed one of its tables, since a rollback (which fires no trigger) would leave it holding rows
// that no longer exist. What it computed from tables the transaction has not touched is committed
// data and may be kept.
//
// Cached values are shared by every caller and frozen; callers copy before changing them.
import type { Db } from './index';
import { BoundedMap } from '../memory/bounded-map';

interface Watch {
  /** Bumped by a trigger on every row change of the table. */
  versions: Map<string, number>;
  /** Tables changed by the open explicit transaction. */
  changedInTransaction: Set<string>;
}

const watches = new WeakMap<Db, Watch>();

function watchOf(db: Db): Watch {
  let watch = watches.get(db);
  if (!watch) {
    const created: Watch = { versions: new Map(), changedInTransaction: new Set() };
    watch = created;
    watches.set(db, created);
    db.function('tributary_table_changed', { deterministic: false }, (table) => {
      const name = String(table);
      created.versions.set(name, (created.versions.get(name) ?? 0) + 1);
      if (db.inTransaction) created.changedInTransaction.add(name);
      return null;
    });
  }
  return watch;
}

function watchTable(db: Db, watch: Watch, table: string): void {
  if (watch.versions.has(table)) return;
  watch.versions.set(table, 0);
  for (const op of ['INSERT', 'UPDATE', 'DELETE']) {
    db.exec(
      `CREATE TEMP TRIGGER IF NOT EXISTS cache_${table}_${op.toLowerCase()} AFTER ${op} ON main.${table}
       BEGIN SELECT tributary_table_changed('${table}'); END`,
    );
  }
}

// Shallow, and Object.freeze does not stop Set.add or Map.set: a lookup returning a Set or Map
// types it ReadonlySet/ReadonlyMap so the compiler keeps callers from changing the shared value.
function frozen<V>(value: V): V {
  if (value !== null && typeof value === 'object') Object.freeze(value);
  return value;
}

/**
 * Creates the triggers for these tables now (call it outside any transaction, at start-up), so
 * caches first used inside a transaction, as those on the send path are, can store from the start.
 */
export function watchTables(db: Db, tables: readonly string[]): void {
  if (db.inTransaction) throw new Error('watchTables must run outside a transaction');
  const watch = watchOf(db);
  for (const table of tables) watchTable(db, watch, table);
}

export interface TableCache<K, V> {
  get(key: K): V;
  /**
   * A number that changes whenever a value this cache gave may have gone stale (a row change in
   * one of its tables): a caller holding a value from an earlier get() with the same stamp still
   * holds the current one, and need not look it up again.
   */
  stamp(): number;
}

/** Keys a table cache keeps at most (least recently used evicted first): see server/README.md. */
export const TABLE_CACHE_MAX_ENTRIES = 10_000;

/**
 * A lookup memoized per key until one of `tables` changes. compute must read only those tables;
 * its result is frozen (shallowly) and shared. At most `limit` keys are kept, the least recently
 * used evicted first; a value's size is bounded by the table rows it was computed from.
 */
export function tableCache<K, V>(
  db: Db,
  tables: readonly string[],
  compute: (key: K) => V,
  limit = TABLE_CACHE_MAX_ENTRIES,
): TableCache<K, V> {
  const watch = watchOf(db);
  // The triggers are created outside any transaction: a CREATE TEMP TRIGGER inside one would be
  // undone by its rollback, leaving the cache unwatched for good; and changes the transaction made
  // before the triggers existed would go unseen. Until then the cache computes without storing.
  let watching = false;
  const startWatching = (): boolean => {
    if (watching) return true;
    if (tables.every((table) => watch.versions.has(table))) watching = true;
    else if (!db.inTransaction) {
      for (const table of tables) watchTable(db, watch, table);
      watching = true;
    }
    return watching;
  };
  startWatching();
  const entries = new BoundedMap<K, V>({ maxEntries: limit });
  let seenVersion = -1;
  const version = () => {
    let sum = 0;
    for (const table of tables) sum += watch.versions.get(table)!;
    return sum;
  };
  return {
    get(key) {
      if (!startWatching()) return frozen(compute(key));
      // Only when non-empty: Set.clear() allocates a new table (in the old generation, as this
      // Set's is) even for an empty Set, and this runs on every cached lookup.
      if (!db.inTransaction && watch.changedInTransaction.size > 0) {
        watch.changedInTransaction.clear();
      }
      const now = version();
      if (now !== seenVersion) {
        entries.clear();
        seenVersion = now;
      }
      if (entries.has(key)) return entries.get(key) as V;
      const value = frozen(compute(key));
      const touched = tables.some((table) => watch.changedInTransaction.has(table));
      if (!touched) entries.set(key, value);
      return value;
    },
    stamp: version,
  };
}

/** One cache per (db, name): for module-level lookups that receive the db as an argument. */
export function sharedTableCache<K, V>(
  db: Db,
  name: string,
  tables: readonly string[],
  compute: (db: Db, key: K) => V,
): TableCache<K, V> {
  let byName = shared.get(db);
  if (!byName) shared.set(db, (byName = new Map()));
  let cache = byName.get(name) as TableCache<K, V> | undefined;
  if (!cache) {
    cache = tableCache<K, V>(db, tables, (key) => compute(db, key));
    byName.set(name, cache);
  }
  return cache;
}

const shared = new WeakMap<Db, Map<string, TableCache<unknown, unknown>>>();
