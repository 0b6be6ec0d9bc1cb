// What each side of a load bench did during one phase: CPU time of the server's process (and of its
// main thread, the one that answers requests) and of the bench's own processes (read from /proc,
// so the bench can tell whether a slow phase was the server or the load generator), and the
// bench's own event loop (its delay distribution and how busy it was: a busy bench answers its
// polls late and stamps their arrival late).
import { readFileSync } from 'node:fs';
import { monitorEventLoopDelay, performance, type EventLoopUtilization } from 'node:perf_hooks';

/** Linux's USER_HZ: /proc/PID/stat counts CPU time in these ticks. */
const TICKS_PER_SECOND = 100;

/**
 * CPU time (user + system) a process has used so far, in ms; NaN where /proc is not there. With
 * `thread`, that thread's alone (a process's main thread has the process's id): work moved to a
 * worker thread leaves the process's figure as it was, so only the main thread's shows it.
 */
export function processCpuMs(pid: number, thread?: number): number {
  try {
    const path = thread === undefined ? `/proc/${pid}/stat` : `/proc/${pid}/task/${thread}/stat`;
    const stat = readFileSync(path, 'utf8');
    // The command name (field 2) may hold spaces: the fields after it start past its ')'.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    // utime and stime are fields 14 and 15 of the line, 12 and 13 after the name.
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / TICKS_PER_SECOND;
  } catch {
    return NaN;
  }
}

export interface PhaseFigures {
  seconds: number;
  /** CPU time per process, as a share of one core over the phase (1 = a whole core). */
  cpu_cores: Record<string, number>;
  /** This process's event loop: delay percentiles sampled every 5 ms, and the busy share. */
  bench_loop: { delay_p50_ms: number; delay_p99_ms: number; delay_max_ms: number; busy: number };
}

/**
 * Meters one phase: `processes` names the pids to account for (the bench itself is `bench`, all
 * its threads). start() then stop() once; stop() returns the figures.
 */
export class PhaseMeter {
  private readonly delay = monitorEventLoopDelay({ resolution: 5 });
  private cpuAtStart: Record<string, number> = {};
  private startedAt = 0;
  private eluAtStart: EventLoopUtilization | undefined;

  /** `processes`: name to pid, or to a pid and one of its threads (`{ pid, thread }`). */
  constructor(
    private readonly processes: () => Record<string, number | { pid: number; thread: number }>,
  ) {}

  start(): void {
    this.startedAt = performance.now();
    this.cpuAtStart = this.cpuNow();
    this.eluAtStart = performance.eventLoopUtilization();
    this.delay.enable();
  }

  stop(): PhaseFigures {
    this.delay.disable();
    const seconds = (performance.now() - this.startedAt) / 1000;
    const cpu = this.cpuNow();
    const round = (n: number, places = 1) => Math.round(n * 10 ** places) / 10 ** places;
    const cores = Object.fromEntries(
      Object.entries(cpu).map(([name, ms]) => [
        name,
        round((ms - (this.cpuAtStart[name] ?? 0)) / 1000 / seconds, 2),
      ]),
    );
    const ms = (ns: number) => round(ns / 1e6);
    return {
      seconds: round(seconds),
      cpu_cores: cores,
      bench_loop: {
        delay_p50_ms: ms(this.delay.percentile(50)),
        delay_p99_ms: ms(this.delay.percentile(99)),
        delay_max_ms: ms(this.delay.max),
        busy: round(performance.eventLoopUtilization(this.eluAtStart).utilization, 2),
      },
    };
  }

  private cpuNow(): Record<string, number> {
    const own = process.cpuUsage();
    const figures: Record<string, number> = { bench: (own.user + own.system) / 1000 };
    for (const [name, which] of Object.entries(this.processes())) {
      figures[name] =
        typeof which === 'number' ? processCpuMs(which) : processCpuMs(which.pid, which.thread);
    }
    return figures;
  }
}
