// WAL checkpoints on a worker thread. SQLite's automatic checkpoint runs inside the commit that
// crosses the threshold, on the thread that commits: it copies the WAL into the database file and
// fsyncs both, which in profiles under load blocked the event loop for milliseconds at a time and
// was most of the system time of a send. Here the main connection never checkpoints; a second
// connection on a worker thread runs PASSIVE checkpoints (they never block writers or readers) on a
// timer, so that I/O uses another core. If the worker cannot start, SQLite's own automatic
// checkpoint stays on.
import { Worker } from 'node:worker_threads';
import { createRequire } from 'node:module';
import type { Db } from './index';

/** Pages SQLite itself would let the WAL reach before checkpointing (its default). */
const SQLITE_DEFAULT_AUTOCHECKPOINT = 1000;

// CommonJS source for the worker (eval'd, so it works the same from tsx, the esbuild start bundle
// and Electron, with no extra file to ship). It reports each failed checkpoint to the main thread.
const WORKER_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
const Database = require(workerData.driver);
const db = new Database(workerData.path, { fileMustExist: true });
db.pragma('busy_timeout = 1000');
const timer = setInterval(() => {
  try {
    db.pragma('wal_checkpoint(PASSIVE)');
  } catch (error) {
    parentPort.postMessage({ error: String(error && error.message || error) });
  }
}, workerData.intervalMs);
parentPort.on('message', (message) => {
  if (message !== 'stop') return;
  clearInterval(timer);
  try { db.pragma('wal_checkpoint(PASSIVE)'); } catch {}
  db.close();
  parentPort.postMessage({ stopped: true });
});
parentPort.postMessage({ ready: true });
`;

export interface Checkpointer {
  /**
   * Whether the worker took over: true once it has opened its connection and the main one stopped
   * checkpointing, false if it could not start (SQLite then keeps checkpointing as usual).
   */
  readonly ready: Promise<boolean>;
  /** Stops the worker after a last checkpoint; the main connection checkpoints itself again. */
  stop(): Promise<void>;
}

/** No worker: SQLite checkpoints as usual. */
const noop: Checkpointer = { ready: Promise.resolve(false), stop: async () => {} };

/**
 * Moves the WAL checkpoints of db (a file database in WAL mode) to a worker thread. Returns at
 * once: starting the worker took about 180 ms, which server start-up need not wait for. Until the
 * worker is ready, and if it fails, SQLite checkpoints as usual.
 *
 * `delayMs` > 0 starts the worker only that long from now. The app's realm process uses it: the
 * worker's own Node start is 100-130 ms of CPU (process.cpuUsage around it), which otherwise
 * competes on two cores with the window's first register and first page; the few commits of a
 * start-up are checkpointed by SQLite meanwhile.
 */
export function startCheckpointer(db: Db, intervalMs = 100, delayMs = 0): Checkpointer {
  if (db.memory || db.pragma('journal_mode', { simple: true }) !== 'wal') return noop;
  if (delayMs <= 0) return startWorker(db, intervalMs);
  let started: Checkpointer | null = null;
  let stopped = false;
  let settle: (checkpointer: Checkpointer) => void = () => undefined;
  const startedOrNot = new Promise<Checkpointer>((resolve) => (settle = resolve));
  // Unref'd like the worker: a server that forgets to close must not be kept alive by it.
  const timer = setTimeout(() => {
    if (stopped || !db.open) return settle(noop);
    started = startWorker(db, intervalMs);
    settle(started);
  }, delayMs);
  timer.unref();
  return {
    ready: startedOrNot.then((checkpointer) => checkpointer.ready),
    stop() {
      stopped = true;
      if (started) return started.stop();
      clearTimeout(timer);
      settle(noop);
      return Promise.resolve();
    },
  };
}

function startWorker(db: Db, intervalMs: number): Checkpointer {
  const driver = createRequire(import.meta.url).resolve('better-sqlite3');
  let worker: Worker;
  try {
    worker = new Worker(WORKER_SOURCE, {
      eval: true,
      workerData: { driver, path: db.name, intervalMs },
    });
  } catch {
    return noop;
  }
  // Unref'd: a server that forgets to close must not be kept alive by its checkpointer.
  worker.unref();
  let stopping: Promise<void> | undefined;
  const handBack = () => {
    if (db.open) db.pragma(`wal_autocheckpoint = ${SQLITE_DEFAULT_AUTOCHECKPOINT}`);
  };
  // Listened for from the start: stop() may come after the worker already died (an 'exit' that
  // fired before stop() subscribed would otherwise leave it waiting forever).
  const exited = new Promise<void>((resolve) => worker.once('exit', () => resolve()));
  const ready = new Promise<boolean>((resolve) => {
    worker.on('message', (message: { ready?: boolean; error?: string }) => {
      if (message.ready) {
        // A worker that comes up after stop() or close must not switch checkpoints off.
        const takesOver = stopping === undefined && db.open;
        if (takesOver) db.pragma('wal_autocheckpoint = 0');
        resolve(takesOver);
      }
      if (message.error) console.error(`WAL checkpoint failed: ${message.error}`);
    });
    void exited.then(() => resolve(false));
  });
  worker.on('error', (error) => {
    console.error('WAL checkpointer stopped:', error);
    handBack();
  });
  return {
    ready,
    stop() {
      stopping ??= (async () => {
        handBack();
        const stopped = new Promise<void>((resolve) => {
          worker.on('message', (message: { stopped?: boolean }) => {
            if (message.stopped) resolve();
          });
        });
        // Queued until the worker listens, so this also stops a worker still starting.
        worker.postMessage('stop');
        await Promise.race([stopped, exited]);
        await worker.terminate();
      })();
      return stopping;
    },
  };
}
