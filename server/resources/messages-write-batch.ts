// Group commit for message writes. Each SQLite commit costs far more than the inserts of one
// message (WAL frame writes, the FTS5 segment flush), so sends that arrive together are written in
// one transaction: each in its own savepoint, so a failing send rolls back alone and rejects only
// its own request. Callers emit events after their promise resolves, i.e. after the commit.
import type { Db } from '../db';

interface Job {
  work: () => unknown;
  resolve: (value: unknown) => void;
  reject: (error: unknown) => void;
}

export class WriteBatcher {
  private jobs: Job[] = [];
  private scheduled = false;

  constructor(private readonly db: Db) {}

  run<T>(work: () => T): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      this.jobs.push({ work, resolve: resolve as (value: unknown) => void, reject });
      if (!this.scheduled) {
        this.scheduled = true;
        // After the current I/O callbacks, so requests parsed in the same turn join the batch.
        setImmediate(() => this.flush());
      }
    });
  }

  private flush(): void {
    this.scheduled = false;
    const jobs = this.jobs;
    this.jobs = [];
    const outcomes: Array<{ ok: true; value: unknown } | { ok: false; error: unknown }> = [];
    try {
      this.db.transaction(() => {
        for (const job of jobs) {
          try {
            // A nested better-sqlite3 transaction is a savepoint of the outer one.
            outcomes.push({ ok: true, value: this.db.transaction(job.work)() });
          } catch (error) {
            outcomes.push({ ok: false, error });
          }
        }
      })();
    } catch (error) {
      // The commit itself failed (disk full, database closed): nothing was stored.
      for (const job of jobs) job.reject(error);
      return;
    }
    jobs.forEach((job, i) => {
      const outcome = outcomes[i];
      if (outcome.ok) job.resolve(outcome.value);
      else job.reject(outcome.error);
    });
  }
}

const batchers = new WeakMap<Db, WriteBatcher>();

export function writeBatcher(db: Db): WriteBatcher {
  let batcher = batchers.get(db);
  if (!batcher) batchers.set(db, (batcher = new WriteBatcher(db)));
  return batcher;
}
