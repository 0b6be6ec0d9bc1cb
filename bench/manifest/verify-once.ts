// Child process of the benchmark: verifies one recording through the real streaming path and reports
// its time and peak memory, measured in a process that does nothing else.
import { readAudioIntegrity } from '../../electron/manifest';

const file = process.argv[2];
let peakHeap = process.memoryUsage().heapUsed;
let peakRss = process.memoryUsage().rss;
const baselineRss = peakRss;
const sampler = setInterval(() => {
  const m = process.memoryUsage();
  peakHeap = Math.max(peakHeap, m.heapUsed);
  peakRss = Math.max(peakRss, m.rss);
}, 2);

const started = performance.now();
const { result } = await readAudioIntegrity({
  found: true,
  source: { via: 'argument', location: file },
  file,
});
const ms = performance.now() - started;
clearInterval(sampler);
const m = process.memoryUsage();
process.stdout.write(
  JSON.stringify({
    ms,
    result,
    baselineRssBytes: baselineRss,
    peakRssBytes: Math.max(peakRss, m.rss),
    maxRssBytes: process.resourceUsage().maxRSS * 1024,
    peakHeapUsedBytes: Math.max(peakHeap, m.heapUsed),
  }),
);
