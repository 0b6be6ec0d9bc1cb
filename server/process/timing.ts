// Start-up timings of the realm's process for the start-up benches: with TRIBUTARY_TIMING=1 it
// prints `tributary-timing NAME EPOCH_MS`, the line main prints (electron/timing.ts, which the
// server may not import). Its stdout is the launcher's, so a bench reads both from one stream.
const enabled = process.env.TRIBUTARY_TIMING === '1';

/** `at`: an epoch time in ms (default now). */
export function logRealmTiming(
  name: string,
  at = performance.timeOrigin + performance.now(),
): void {
  if (enabled) console.log(`tributary-timing ${name} ${at.toFixed(1)}`);
}
