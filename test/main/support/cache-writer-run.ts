// Runs test/main/support/cache-writer.ts in a child process, SIGKILLs it once it has written for a
// given time, and reads back what survived. Shared by the cache crash test and `npm run
// bench:cache-crash`, which kills it many times to measure the window of events a crash loses.
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import Database from 'better-sqlite3';
import { AccountCache } from '../../../electron/cache/account-cache';

const WRITER = fileURLToPath(new URL('./cache-writer.ts', import.meta.url));

/** One line the writer printed: the last event id it handed to the cache, and when (ms since start). */
export interface WriterReport {
  id: number;
  ms: number;
  /** The same moment on the machine's clock (Date.now()), to compare with the kill's. */
  epoch: number;
}

export interface KilledWriter {
  reports: WriterReport[];
  /** When the kill was sent (Date.now()): the writer may have been inside a blocked stretch then. */
  killedAt: number;
}

export interface WriterOptions {
  /** Block the writer's event loop this long once a second (a large register parsed on main). */
  busyMs?: number;
}

/** Runs the writer, kills it `killAfterMs` after it started writing, returns all it reported. */
export function runWriterAndKill(
  path: string,
  key: string,
  killAfterMs: number,
  options: WriterOptions = {},
): Promise<KilledWriter> {
  return new Promise((resolve, reject) => {
    const child = spawn(
      process.execPath,
      ['--import', 'tsx', WRITER, path, key, String(options.busyMs ?? 0)],
      { stdio: ['ignore', 'pipe', 'inherit'] },
    );
    const reports: WriterReport[] = [];
    let buffered = '';
    let killedAt = 0;
    child.stdout.on('data', (chunk: Buffer) => {
      buffered += chunk.toString();
      const lines = buffered.split('\n');
      buffered = lines.pop()!;
      for (const line of lines) {
        const [id, ms, epoch] = line.split(' ').map(Number);
        reports.push({ id, ms, epoch });
        // A timer, not the next report, so the kill can land anywhere: inside a blocked stretch too.
        if (reports.length === 1) {
          const killAt = epoch - ms + killAfterMs;
          setTimeout(
            () => {
              killedAt = Date.now();
              child.kill('SIGKILL');
            },
            Math.max(0, killAt - Date.now()),
          );
        }
      }
    });
    child.on('error', reject);
    // 'close', not 'exit': the lines still in the pipe are read first.
    child.on('close', (code, signal) => {
      if (signal === 'SIGKILL') resolve({ reports, killedAt });
      else reject(new Error(`writer exited without being killed (${signal ?? code})`));
    });
  });
}

/** What a killed writer's cache holds when it is opened again. */
export interface Survivor {
  integrity: string;
  /** The snapshot's last event id; null when no snapshot survived. */
  snapshotEventId: number | null;
  /** The stored events' ids after the snapshot, in stored order. */
  eventIds: number[];
}

export function readSurvivor(path: string, key: string): Survivor {
  const raw = new Database(path);
  const integrity = String(raw.pragma('integrity_check', { simple: true }));
  raw.close();
  const cache = AccountCache.open(path, key);
  const { snapshot, events } = cache.load();
  cache.close();
  return {
    integrity,
    snapshotEventId: snapshot ? snapshot.register.last_event_id : null,
    eventIds: events.map((event) => event.id),
  };
}
