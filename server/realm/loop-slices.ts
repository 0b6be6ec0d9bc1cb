// A request whose work grows with its size (up to the caps of LIMITS) must not hold the event loop
// while it works: other clients' sends and event deliveries wait for it (issue #15's hostile-load
// bar, bench/hostile-load). Such a request awaits `slice()` between units of work; it yields to
// other I/O only once SLICE_MS have passed since the last yield, so small requests never yield.

import type { RequestMeter } from '../http/request-meter';

// Short: a send and its delivery each need several turns of the loop (request, group commit,
// wake-up, the next poll), and while a large request runs each turn costs one of its slices. At
// 20 ms a 600 ms subscribe delayed other clients' messages by up to 800 ms (bench/hostile-load).
const SLICE_MS = 5;

export interface LoopSlicer {
  /** Resolves at once, or after other callbacks have run if this request has worked SLICE_MS. */
  slice(): Promise<void>;
  /** Whether the request has yielded: other requests may have changed state meanwhile. */
  readonly yielded: boolean;
}

/** `meter`: the request's, so the time others run while it yields is not charged to it. */
export function loopSlicer(meter?: RequestMeter, sliceMs = SLICE_MS): LoopSlicer {
  let since = performance.now();
  let yielded = false;
  return {
    async slice() {
      if (performance.now() - since < sliceMs) return;
      yielded = true;
      const turn = new Promise<void>((resolve) => setImmediate(resolve));
      await (meter ? meter.offLoop(turn) : turn);
      since = performance.now();
    },
    get yielded() {
      return yielded;
    },
  };
}
