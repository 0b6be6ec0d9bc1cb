// WAL checkpoints on a worker thread: the main connection stops checkpointing, the worker copies
// committed pages into the database file, and stopping hands checkpoints back to SQLite.
import { afterEach, describe, expect, it } from 'vitest';
import { existsSync, mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { databasePath, openDatabase, type Db } from '../../server/db';
import { startCheckpointer } from '../../server/db/checkpointer';

describe('startCheckpointer', () => {
  let dir: string;
  let db: Db;
  afterEach(() => {
    if (db?.open) db.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('takes over checkpoints from the main connection and gives them back on stop', async () => {
    dir = mkdtempSync(join(tmpdir(), 'tributary-checkpointer-'));
    db = openDatabase(dir);
    const checkpointer = startCheckpointer(db, 20);
    expect(await checkpointer.ready).toBe(true);
    expect(db.pragma('wal_autocheckpoint', { simple: true })).toBe(0);

    db.exec('CREATE TABLE probe (blob BLOB NOT NULL)');
    const sizeBefore = statSync(databasePath(dir)).size;
    const insert = db.prepare('INSERT INTO probe (blob) VALUES (randomblob(4000))');
    db.transaction(() => {
      for (let i = 0; i < 500; i++) insert.run();
    })();
    // Only a checkpoint moves the committed pages from the WAL into the database file, and the
    // main connection no longer checkpoints: the file grows only through the worker.
    const deadline = Date.now() + 10_000;
    while (statSync(databasePath(dir)).size <= sizeBefore + 1_000_000 && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    expect(statSync(databasePath(dir)).size).toBeGreaterThan(sizeBefore + 1_000_000);

    await checkpointer.stop();
    expect(db.pragma('wal_autocheckpoint', { simple: true })).toBe(1000);
    expect(db.prepare('SELECT count(*) AS n FROM probe').get()).toEqual({ n: 500 });
  });

  it('leaves an in-memory database alone', async () => {
    dir = mkdtempSync(join(tmpdir(), 'tributary-checkpointer-'));
    const Database = (await import('better-sqlite3')).default;
    db = new Database(':memory:');
    const checkpointer = startCheckpointer(db);
    expect(await checkpointer.ready).toBe(false);
    expect(db.pragma('wal_autocheckpoint', { simple: true })).toBe(1000);
    await checkpointer.stop();
  });

  it('stops a worker that is still starting, and checkpoints stay with SQLite', async () => {
    dir = mkdtempSync(join(tmpdir(), 'tributary-checkpointer-'));
    db = openDatabase(dir);
    const checkpointer = startCheckpointer(db, 20);
    await checkpointer.stop(); // before the worker reported ready
    expect(await checkpointer.ready).toBe(false);
    expect(db.pragma('wal_autocheckpoint', { simple: true })).toBe(1000);
  });

  it('with a delay, leaves checkpoints to SQLite until then and takes over after', async () => {
    dir = mkdtempSync(join(tmpdir(), 'tributary-checkpointer-'));
    db = openDatabase(dir);
    const other = openDatabase(join(dir, 'other'));
    try {
      const delayed = startCheckpointer(db, 20, 1_000);
      // Started after the delayed one, without a delay: once its worker is up, the delayed one's
      // would be too had it started at once.
      const atOnce = startCheckpointer(other, 20);
      expect(await atOnce.ready).toBe(true);
      expect(db.pragma('wal_autocheckpoint', { simple: true })).toBe(1000);
      expect(await delayed.ready).toBe(true);
      expect(db.pragma('wal_autocheckpoint', { simple: true })).toBe(0);
      await Promise.all([delayed.stop(), atOnce.stop()]);
      expect(db.pragma('wal_autocheckpoint', { simple: true })).toBe(1000);
    } finally {
      other.close();
    }
  });

  // A worker is an OS thread from its constructor on: counted in /proc, Linux's.
  it.runIf(existsSync('/proc/self/task'))(
    'starts no worker before its delay, nor once stopped',
    async () => {
      dir = mkdtempSync(join(tmpdir(), 'tributary-checkpointer-'));
      db = openDatabase(dir);
      const threads = () => readdirSync('/proc/self/task').length;
      const before = threads();
      const checkpointer = startCheckpointer(db, 20, 60_000);
      expect(threads()).toBe(before);
      await checkpointer.stop();
      expect(await checkpointer.ready).toBe(false);
      expect(db.pragma('wal_autocheckpoint', { simple: true })).toBe(1000);
    },
  );
});
