// Memory given back once a burst of requests is over, so the process's resident size returns to
// about its idle baseline (issue #24: within 1.3x a minute after load or hostile input ends).
//
// What a burst leaves behind that no cache bound removes: SQLite's page cache (up to 64 MiB, see
// db/index.ts: kept full, it is the larger part of what did not come back after bench:hostile) and
// the V8 heap's grown old generation, which V8 shrinks only at its next full collection. After
// `quietMs` with no request started, both are released once: PRAGMA shrink_memory empties the page
// cache (the next reads come from the OS's file cache, cheap), and where the process runs with
// --expose-gc, a full collection lets V8 hand its free pages back. Nothing runs while requests
// keep coming, and nothing again until the next burst.
import type { Server } from 'node:http';
import type { Db } from '../db';

export interface IdleRelease {
  stop(): void;
  /** How many times memory was released (for tests and benches). */
  readonly releases: number;
}

export function releaseMemoryWhenIdle(server: Server, db: Db, quietMs: number): IdleRelease {
  let requestsSinceTick = 0;
  let burstPending = false;
  let releases = 0;
  const onRequest = () => {
    requestsSinceTick += 1;
  };
  server.on('request', onRequest);
  // Checked every quietMs: a tick with requests marks a burst; the first quiet tick after one
  // releases (so between quietMs and twice that after the last request).
  const timer = setInterval(() => {
    if (requestsSinceTick > 0) {
      requestsSinceTick = 0;
      burstPending = true;
      return;
    }
    if (!burstPending || !db.open) return;
    burstPending = false;
    releases += 1;
    db.pragma('shrink_memory');
    (globalThis as { gc?: () => void }).gc?.();
  }, quietMs);
  timer.unref();
  return {
    stop() {
      clearInterval(timer);
      server.off('request', onRequest);
    },
    get releases() {
      return releases;
    },
  };
}
