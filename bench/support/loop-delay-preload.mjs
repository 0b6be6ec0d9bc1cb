// Preloaded into a benchmark's server process (node --import this-file): every 100 ms it appends
// the event loop's largest delay in that window to $BENCH_LOOP_DELAY_FILE, so a bench can see how
// long one request held the server's loop. Plain JavaScript because it loads before tsx.
import { appendFileSync } from 'node:fs';
import { monitorEventLoopDelay } from 'node:perf_hooks';

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
