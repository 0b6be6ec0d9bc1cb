// Preloaded into a benchmark's server process (node --import this-file): every 100 ms it appends
// the event loop's largest delay in that window to $BENCH_LOOP_DELAY_FILE, so a bench can see how
// long one request held the server's loop. With $BENCH_GC_FILE it also appends each garbage
// collection ("<epoch ms> <kind> <ms>"), so a stall can be told apart from a collection's pause.
// Plain JavaScript because it loads before tsx.
import { appendFileSync } from 'node:fs';
import { constants, monitorEventLoopDelay, PerformanceObserver } from 'node:perf_hooks';

const file = process.env.BENCH_LOOP_DELAY_FILE;
if (file) {
  const delay = monitorEventLoopDelay({ resolution: 5 });
  delay.enable();
  setInterval(() => {
    // Wall-clock time, so the bench can match windows with its own requests.
    appendFileSync(file, `${Date.now()} ${(delay.max / 1e6).toFixed(1)}\n`);
    delay.reset();
  }, 100).unref();
}

const gcFile = process.env.BENCH_GC_FILE;
if (gcFile) {
  const kinds = {
    [constants.NODE_PERFORMANCE_GC_MAJOR]: 'major',
    [constants.NODE_PERFORMANCE_GC_MINOR]: 'minor',
    [constants.NODE_PERFORMANCE_GC_INCREMENTAL]: 'incremental',
    [constants.NODE_PERFORMANCE_GC_WEAKCB]: 'weak',
  };
  new PerformanceObserver((list) => {
    let lines = '';
    for (const entry of list.getEntries()) {
      const at = Math.round(performance.timeOrigin + entry.startTime);
      lines += `${at} ${kinds[entry.detail?.kind] ?? 'other'} ${entry.duration.toFixed(1)}\n`;
    }
    appendFileSync(gcFile, lines);
  }).observe({ entryTypes: ['gc'] });
}
