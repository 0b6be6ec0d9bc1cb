// How long a request held the event loop, for the server-time budget (server-time-budget.ts).
//
// The router times each request from its handler's start to its response. Time the handler spent
// waiting for something other than this thread (the thread pool hashing a password, the group
// commit's timer, its own yields to other requests) is not its cost, so such waits go through
// offLoop() and are taken off. A wait not marked is charged: the estimate errs towards the user
// who asked for more.
export class RequestMeter {
  private waitedMs = 0;

  /** Awaits `work` without charging the request for the time it takes. */
  async offLoop<T>(work: Promise<T>): Promise<T> {
    const started = performance.now();
    try {
      return await work;
    } finally {
      this.waitedMs += performance.now() - started;
    }
  }

  /** Milliseconds the request held the event loop, given its wall time. */
  heldMs(wallMs: number): number {
    return Math.max(0, wallMs - this.waitedMs);
  }
}
