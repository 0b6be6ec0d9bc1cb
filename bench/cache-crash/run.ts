// Cache durability (npm run bench:cache-crash): the bar of ../shared/DESIGN.md is "a crash during cache
// writes loses at most the last second of events and never corrupts the cache".
//
// A child process writes an account cache the way a session does (event batches through
// appendEvents, the snapshot replaced every 3,000 events: test/main/support/cache-writer.ts) and is
// SIGKILLed at a point spread over BENCH_KILLS kills (default 30) between 0.3 and 4 s of writing, so
// kills land in batches, flushes and snapshot replacements alike. Each reopened cache is checked
// (integrity_check, a snapshot, a gap-free run of events after it) and the events it lost are
// measured: the lost window is the time from when the oldest lost event was handed to the cache to
// the kill. Two writers: an idle one, and one whose event loop is blocked
// for BENCH_BUSY_MS (default 700) once a second, as main's is while it parses a large register, so
// the flush timer runs late.
// No in-run reference is needed: the figure is a span of the writer's own clock, not a speed.
// Prints the figures and writes bench/.out/cache-crash.json.
import { mkdtempSync, rmSync } from 'node:fs';
import { availableParallelism, cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { CacheCipher } from '../../electron/cache/cache-cipher';
import { FLUSH_MS } from '../../electron/cache/account-cache';
import { readSurvivor, runWriterAndKill } from '../../test/main/support/cache-writer-run';
import { writeBenchFigures } from '../support/output';

const KILLS = Number(process.env.BENCH_KILLS ?? 30);
const BUSY_MS = Number(process.env.BENCH_BUSY_MS ?? 700);
const BAR_MS = 1_000;

interface Kill {
  killAfterMs: number;
  intact: boolean;
  gapFree: boolean;
  handedOver: number;
  lostEvents: number;
  lostWindowMs: number;
}

async function killOnce(
  dir: string,
  index: number,
  killAfterMs: number,
  busyMs: number,
): Promise<Kill> {
  const path = join(dir, `cache-${busyMs}-${index}.sqlite`);
  const key = CacheCipher.newKey();
  const { reports, killedAt } = await runWriterAndKill(path, key, killAfterMs, { busyMs });
  const last = reports[reports.length - 1];
  const survivor = readSurvivor(path, key);
  const base = survivor.snapshotEventId ?? 0;
  const gapFree =
    survivor.snapshotEventId !== null && survivor.eventIds.every((id, at) => id === base + at + 1);
  const stored = survivor.eventIds.at(-1) ?? base;
  const firstLost = reports.find((report) => report.id > stored);
  return {
    killAfterMs,
    intact: survivor.integrity === 'ok',
    gapFree,
    handedOver: last.id,
    lostEvents: Math.max(0, last.id - stored),
    lostWindowMs: firstLost ? killedAt - firstLost.epoch : 0,
  };
}

function quantile(sorted: number[], q: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))];
}

function summarize(kills: Kill[]) {
  const windows = kills.map((kill) => kill.lostWindowMs).sort((a, b) => a - b);
  const lost = kills.map((kill) => kill.lostEvents).sort((a, b) => a - b);
  return {
    kills: kills.length,
    corrupted: kills.filter((kill) => !kill.intact).length,
    withGaps: kills.filter((kill) => !kill.gapFree).length,
    lostWindowMs: {
      p50: quantile(windows, 0.5),
      p95: quantile(windows, 0.95),
      max: windows.at(-1)!,
    },
    lostEvents: { p50: quantile(lost, 0.5), max: lost.at(-1)! },
    overBar: kills.filter((kill) => kill.lostWindowMs > BAR_MS).length,
  };
}

async function main(): Promise<void> {
  console.log(
    `cache crash benchmark — ${availableParallelism()} cores, ${cpus()[0]?.model ?? '?'}, load ` +
      `${loadavg()
        .map((value) => value.toFixed(1))
        .join(' ')}, ${new Date().toISOString()}; ` +
      `${KILLS} kills per writer, flush every ${FLUSH_MS} ms, bar: lost window < ${BAR_MS} ms, never corrupt`,
  );
  const dir = mkdtempSync(join(tmpdir(), 'tributary-bench-cache-crash-'));
  const result: Record<string, ReturnType<typeof summarize> & { runs: Kill[] }> = {};
  try {
    for (const [name, busyMs] of [
      ['idle writer', 0],
      [`writer blocked ${BUSY_MS} ms a second`, BUSY_MS],
    ] as const) {
      const kills: Kill[] = [];
      for (let index = 0; index < KILLS; index += 1) {
        // Evenly over 0.3–4 s, offset per writer so the two do not share kill points.
        const killAfterMs = Math.round(300 + ((index + (busyMs ? 0.5 : 0)) * 3_700) / KILLS);
        kills.push(await killOnce(dir, index, killAfterMs, busyMs));
      }
      const summary = summarize(kills);
      result[name] = { ...summary, runs: kills };
      console.log(
        `${name}: ${summary.kills} kills, corrupted ${summary.corrupted}, with gaps ${summary.withGaps}; ` +
          `lost window p50 ${summary.lostWindowMs.p50} ms, p95 ${summary.lostWindowMs.p95} ms, ` +
          `max ${summary.lostWindowMs.max} ms (${summary.overBar} over ${BAR_MS} ms); ` +
          `lost events p50 ${summary.lostEvents.p50}, max ${summary.lostEvents.max}`,
      );
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  console.log(
    `figures: ${writeBenchFigures('cache-crash', { kills: KILLS, busyMs: BUSY_MS, flushMs: FLUSH_MS, result })}`,
  );
}

await main();
