// The server process's memory as a bench reports it (issue #24 part 3): resident memory (RSS)
// before the load, at its peak and after a minute of idle, read from /proc/<pid>/status (Linux),
// and on request heap snapshots before and after, to show nothing is retained by request.
//
// BENCH_HEAP_SNAPSHOTS=DIR: the server is started with node's --heapsnapshot-signal=SIGUSR2 and
// --diagnostic-dir=DIR (server-process.ts), and heapSnapshot() asks it for a snapshot (a full GC
// first, which is also why the idle RSS is read before the "after" snapshot). Compare two with
//   npx tsx bench/support/heap-summary.ts DIR/before.heapsnapshot DIR/after.heapsnapshot
import { existsSync, readdirSync, renameSync, statSync } from 'node:fs';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { ChildProcess } from 'node:child_process';
import { formRequest } from './http-load';

export const HEAP_SNAPSHOT_DIR = process.env.BENCH_HEAP_SNAPSHOTS || null;

/** Current and peak (high-water mark) resident memory of a process in MB; NaN off Linux. */
export function rssMb(pid: number): { rss_mb: number; peak_rss_mb: number } {
  try {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8');
    const kb = (field: string) => Number(new RegExp(`${field}:\\s+(\\d+)`).exec(status)?.[1]);
    return { rss_mb: Math.round(kb('VmRSS') / 1024), peak_rss_mb: Math.round(kb('VmHWM') / 1024) };
  } catch {
    return { rss_mb: NaN, peak_rss_mb: NaN };
  }
}

export interface IdleMemory {
  /** RSS every 10 s of the idle minute (MB). */
  rss_mb_every_10s: number[];
  rss_mb_after: number;
}

/** Waits `seconds` with the server idle (the caller stopped all load), sampling its RSS. */
export async function idleRss(pid: number, seconds = 60): Promise<IdleMemory> {
  const samples: number[] = [];
  for (let waited = 0; waited < seconds; waited += 10) {
    await new Promise((resolve) => setTimeout(resolve, Math.min(10, seconds - waited) * 1000));
    samples.push(rssMb(pid).rss_mb);
  }
  return { rss_mb_every_10s: samples, rss_mb_after: samples[samples.length - 1] };
}

/** The figures a bench prints: before, peak, after the idle minute, and after / before. */
export function memoryFigures(before: number, peak: number, idle: IdleMemory) {
  return {
    rss_mb_before: before,
    rss_mb_peak: peak,
    ...idle,
    after_to_before: Math.round((idle.rss_mb_after / before) * 100) / 100,
  };
}

/**
 * Asks the server (started under BENCH_HEAP_SNAPSHOTS) for a heap snapshot and names it
 * `<label>.heapsnapshot` in that folder; returns its path, or null when snapshots are off.
 */
export async function heapSnapshot(child: ChildProcess, label: string): Promise<string | null> {
  const dir = HEAP_SNAPSHOT_DIR;
  if (!dir) return null;
  const written = () =>
    new Set(readdirSync(dir).filter((name) => /^Heap\..*\.heapsnapshot$/.test(name)));
  const earlier = written();
  child.kill('SIGUSR2');
  // Node writes Heap.<date>.<time>.<pid>.<tid>.<seq>.heapsnapshot; done when its size holds still
  // for a second (a snapshot of a few hundred MB takes several seconds to write).
  const deadline = Date.now() + 5 * 60_000;
  let file: string | null = null;
  let size = -1;
  while (Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 1000));
    file ??= [...written()].find((name) => !earlier.has(name)) ?? null;
    if (!file) continue;
    const now = statSync(join(dir, file)).size;
    if (now > 0 && now === size) break;
    size = now;
  }
  if (!file) throw new Error('the server wrote no heap snapshot');
  const target = join(dir, `${label}.heapsnapshot`);
  if (existsSync(target)) throw new Error(`${target} exists already`);
  renameSync(join(dir, file), target);
  return target;
}

/**
 * Deletes the bench's event queues, as clients that close do, so what stays in the server after
 * the load is what it keeps by itself (a queue left behind holds its unacknowledged events until it
 * expires after 10 minutes, within the queue bounds).
 */
export async function deleteQueues(
  baseUrl: string,
  queues: ReadonlyArray<{ authorization: string; queueId: string }>,
): Promise<void> {
  for (const { authorization, queueId } of queues) {
    const target = `${baseUrl}/api/v1/events?queue_id=${encodeURIComponent(queueId)}`;
    await formRequest('DELETE', target, authorization, '').catch(() => undefined);
  }
}
