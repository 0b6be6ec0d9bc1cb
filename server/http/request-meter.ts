// How long a request held the event loop, for the server-time budget (server-time-budget.ts).
//
// The router times each request from its handler's start to its response. Time the handler spent
// waiting for something other than this thread (the thread pool hashing a password, the group
// commit's timer, its own yields to other requests) is not its cost, so such waits go through
// offLoop() and are taken off, and so are the events other requests queued meanwhile. A wait not
// marked is charged: the estimate errs towards the user who asked for more.
export class RequestMeter {
  private readonly startedMs = performance.now();
  private readonly bytesAtStart: number;
  private waitedMs = 0;
  private othersBytes = 0;

  /** `eventBytesQueued`: the event hub's running total of bytes queued (EventHub.bytesQueued). */
  constructor(private readonly eventBytesQueued: () => number = () => 0) {
    this.bytesAtStart = eventBytesQueued();
  }

  /** Awaits `work` without charging the request for its time or for others' events meanwhile. */
  async offLoop<T>(work: Promise<T>): Promise<T> {
    const started = performance.now();
    const bytes = this.eventBytesQueued();
    try {
      return await work;
    } finally {
      this.waitedMs += performance.now() - started;
      this.othersBytes += this.eventBytesQueued() - bytes;
    }
  }

  /** Milliseconds the request held the event loop so far. */
  heldMs(): number {
    return Math.max(0, performance.now() - this.startedMs - this.waitedMs);
  }

  /** Bytes of events the request itself queued so far. */
  queuedBytes(): number {
    return Math.max(0, this.eventBytesQueued() - this.bytesAtStart - this.othersBytes);
  }
}
