// Trigger-invalidated caches: exact after every kind of write, including writes rolled back.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openDatabase, type Db } from '../../server/db';
import { tableCache, watchTables } from '../../server/db/table-cache';
import { runBundledInChild } from '../support/bundled-child';

describe('tableCache', () => {
  let dir: string;
  let db: Db;
  let computed: number;
  const names = () =>
    tableCache(db, ['probe'], (group: number) => {
      computed += 1;
      return db
        .prepare<[number], { name: string }>('SELECT name FROM probe WHERE grp = ? ORDER BY name')
        .all(group)
        .map((r) => r.name);
    });
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'tributary-table-cache-'));
    db = openDatabase(dir);
    db.exec('CREATE TABLE probe (grp INTEGER NOT NULL, name TEXT NOT NULL)');
    db.prepare("INSERT INTO probe VALUES (1, 'a')").run();
    computed = 0;
  });
  afterEach(() => {
    db.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('answers from the cache until the table changes, then recomputes', () => {
    const cache = names();
    expect(cache.get(1)).toEqual(['a']);
    expect(cache.get(1)).toEqual(['a']);
    expect(computed).toBe(1);
    db.prepare("INSERT INTO probe VALUES (1, 'b')").run();
    expect(cache.get(1)).toEqual(['a', 'b']);
    db.prepare("UPDATE probe SET name = 'c' WHERE name = 'a'").run();
    expect(cache.get(1)).toEqual(['b', 'c']);
    db.prepare("DELETE FROM probe WHERE name = 'b'").run();
    expect(cache.get(1)).toEqual(['c']);
    expect(computed).toBe(4);
  });

  it('shares frozen values', () => {
    const value = names().get(1);
    expect(Object.isFrozen(value)).toBe(true);
  });

  it('does not keep what a transaction saw after changing the table, once it rolls back', () => {
    const cache = names();
    expect(() =>
      db.transaction(() => {
        db.prepare("INSERT INTO probe VALUES (1, 'ghost')").run();
        expect(cache.get(1)).toEqual(['a', 'ghost']); // its own uncommitted row
        throw new Error('roll back');
      })(),
    ).toThrow('roll back');
    expect(cache.get(1)).toEqual(['a']);
  });

  it('keeps what a transaction read from tables it did not change', () => {
    const cache = names();
    db.exec('CREATE TABLE other (x INTEGER)');
    db.transaction(() => {
      db.prepare('INSERT INTO other VALUES (1)').run();
      cache.get(1);
    })();
    cache.get(1);
    expect(computed).toBe(1);
  });

  it('is exact across a rolled-back savepoint inside a committed transaction', () => {
    const cache = names();
    db.transaction(() => {
      expect(() =>
        db.transaction(() => {
          db.prepare("INSERT INTO probe VALUES (1, 'ghost')").run();
          cache.get(1);
          throw new Error('savepoint');
        })(),
      ).toThrow('savepoint');
      expect(cache.get(1)).toEqual(['a']);
    })();
    expect(cache.get(1)).toEqual(['a']);
  });
  it('is exact when first created inside a transaction that rolls back', () => {
    let cache: ReturnType<typeof names> | undefined;
    expect(() =>
      db.transaction(() => {
        db.prepare("INSERT INTO probe VALUES (1, 'ghost')").run();
        cache = names(); // as a lazily created shared cache is, on its first use
        expect(cache.get(1)).toEqual(['a', 'ghost']);
        throw new Error('roll back');
      })(),
    ).toThrow('roll back');
    expect(cache!.get(1)).toEqual(['a']);
    // Its triggers survived the rollback: later writes still reach it.
    db.prepare("INSERT INTO probe VALUES (1, 'b')").run();
    expect(cache!.get(1)).toEqual(['a', 'b']);
  });

  it('stores from its first use inside a transaction when its tables were watched up front', () => {
    watchTables(db, ['probe']);
    db.exec('CREATE TABLE other (x INTEGER)');
    let cache: ReturnType<typeof names> | undefined;
    db.transaction(() => {
      db.prepare('INSERT INTO other VALUES (1)').run();
      cache = names(); // first used on a send path, inside its transaction
      cache.get(1);
      cache.get(1);
    })();
    cache!.get(1);
    expect(computed).toBe(1);
    // And a change inside a transaction is still never kept past it.
    expect(() =>
      db.transaction(() => {
        db.prepare("INSERT INTO probe VALUES (1, 'ghost')").run();
        expect(cache!.get(1)).toEqual(['a', 'ghost']);
        throw new Error('roll back');
      })(),
    ).toThrow('roll back');
    expect(cache!.get(1)).toEqual(['a']);
  });

  it('keeps at most its limit of keys, evicting the least recently used', () => {
    db.prepare("INSERT INTO probe VALUES (2, 'b'), (3, 'c')").run();
    const cache = tableCache(
      db,
      ['probe'],
      (group: number) => {
        computed += 1;
        return group;
      },
      2,
    );
    cache.get(1);
    cache.get(2);
    cache.get(1); // 2 is now the least recently used
    cache.get(3); // evicts 2
    expect(computed).toBe(3);
    cache.get(1);
    cache.get(3);
    expect(computed).toBe(3);
    cache.get(2);
    expect(computed).toBe(4);
  });
});

// A hit is served several times a request (the realm row, credentials, channels). Each used to
// make V8 allocate new hash tables in the old generation, where these long-lived caches' tables
// are: Set.prototype.clear() on the (empty) set of tables changed in a transaction, and the
// BoundedMap's delete + set of a key that was already the newest. Measured in a child: what the
// old generation grows by over 20,000 hits of one key with no full collection between (2.4 MB
// with the clear, 3.0 MB with the delete + set, 8 KB with neither).
const HITS = `
import v8 from 'node:v8';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openDatabase } from './index.mjs';
import { tableCache } from './table-cache.mjs';
const dir = mkdtempSync(join(tmpdir(), 'tributary-table-cache-child-'));
const db = openDatabase(dir);
db.exec('CREATE TABLE probe (k INTEGER NOT NULL)');
db.prepare('INSERT INTO probe VALUES (1)').run();
const cache = tableCache(db, ['probe'], (k) => db.prepare('SELECT k FROM probe WHERE k = ?').get(k));
cache.get(1);
const oldSpace = () =>
  v8.getHeapSpaceStatistics().find((s) => s.space_name === 'old_space').space_used_size;
globalThis.gc();
globalThis.gc();
const before = oldSpace();
for (let i = 0; i < 20000; i++) cache.get(1);
const grown = oldSpace() - before;
db.close();
rmSync(dir, { recursive: true, force: true });
console.log(JSON.stringify({ grown }));
`;

describe('tableCache hits', () => {
  it('allocate nothing in the old generation', () => {
    const out = runBundledInChild(['server/db/table-cache.ts', 'server/db/index.ts'], HITS, [
      '--expose-gc',
    ]);
    const { grown } = JSON.parse(out.trim().split('\n').pop()!) as { grown: number };
    expect(grown).toBeLessThan(512 * 1024);
  });
});
