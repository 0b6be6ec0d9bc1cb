// Group commit for message writes. Each SQLite commit costs far more than the inserts of one
// message (WAL frame writes, the FTS5 segment flush), so sends that arrive together are written in
// one transaction: each in its own savepoint, so a failing send rolls back alone and rejects only
// its own request. Callers emit events after their promise resolves, i.e. after the commit.
//
// A commit's cost hardly depends on how many sends it holds: each recipient's pages of the
// per-user indexes are rewritten into the WAL once per commit. So while sends overlap (the last
// commit held more than one), commits are spaced at least minIntervalMs apart (end of one to
// start of the next) and gather the sends of that interval; a send after a commit of one send,
// as from a single user, is committed at once.
import type { Db } from '../../db';
import type { RealmContext } from '../../realm/context';

interface Job {
  work: () => unknown;
  resolve: (value: unknown) => void;
  reject: (error: unknown) => void;
}

export class WriteBatcher {
  private jobs: Job[] = [];
  private scheduled = false;
  private lastCommitEnd = -Infinity;
  private lastCommitJobs = 0;

  constructor(
    private readonly db: Db,
    private readonly minIntervalMs: number,
  ) {}

  run<T>(work: () => T): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      this.jobs.push({ work, resolve: resolve as (value: unknown) => void, reject });
      if (!this.scheduled) {
        this.scheduled = true;
        const wait =
          this.lastCommitJobs > 1 ? this.lastCommitEnd + this.minIntervalMs - performance.now() : 0;
        // At least until after the current I/O callbacks, so requests parsed in the same turn
        // join the batch.
        if (wait > 1) setTimeout(() => this.flush(), wait);
        else setImmediate(() => this.flush());
      }
    });
  }

  private flush(): void {
    this.scheduled = false;
    this.lastCommitJobs = this.jobs.length;
    try {
      this.commit();
    } finally {
      this.lastCommitEnd = performance.now();
    }
  }

  private commit(): void {
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

/** The realm's one batcher for message writes. */
export function writeBatcher(ctx: RealmContext): WriteBatcher {
  let batcher = batchers.get(ctx.db);
  if (!batcher) {
    batcher = new WriteBatcher(ctx.db, ctx.config.groupCommitIntervalMs);
    batchers.set(ctx.db, batcher);
  }
  return batcher;
}
