// A request whose work grows with its size (up to the caps of LIMITS) must not hold the event loop
// while it works: other clients' sends and event deliveries wait for it (issue #15's hostile-load
// bar, bench/hostile-load). Such a request awaits `slice()` between units of work; it yields to
// other I/O only once SLICE_MS have passed since the last yield, so small requests never yield.

const SLICE_MS = 20;

export interface LoopSlicer {
  /** Resolves at once, or after other callbacks have run if this request has worked SLICE_MS. */
  slice(): Promise<void>;
  /** Whether the request has yielded: other requests may have changed state meanwhile. */
  readonly yielded: boolean;
}

export function loopSlicer(sliceMs = SLICE_MS): LoopSlicer {
  let since = performance.now();
  let yielded = false;
  return {
    async slice() {
      if (performance.now() - since < sliceMs) return;
      yielded = true;
      await new Promise<void>((resolve) => setImmediate(resolve));
      since = performance.now();
    },
    get yielded() {
      return yielded;
    },
  };
}
