// Start-up timings for benchmarks: with TRIBUTARY_TIMING=1 in the environment, main prints
// `tributary-timing NAME EPOCH_MS` at the moments a bench compares with the page's own performance
// marks (the page's performance.timeOrigin + mark.startTime is on the same wall clock).
// Without the variable it prints nothing.
const enabled = typeof process !== 'undefined' && process.env.TRIBUTARY_TIMING === '1';

export function logTiming(name: string): void {
  if (!enabled) return;
  console.log(
    `tributary-timing ${name} ${(performance.timeOrigin + performance.now()).toFixed(1)}`,
  );
}
