// A request refused by the count limit or the time budget (RATE_LIMIT_HIT) is answered when it may
// be retried, or after REFUSAL_HOLD_MAX_MS, whichever is sooner, instead of at once.
//
// A client that obeys Retry-After loses nothing: it would have waited that long anyway, and the
// Retry-After it gets is what is left of the wait. A client that ignores it (bench/hostile-load's
// member sends its next request as soon as the last is answered) otherwise had the server answer
// a 429 every half millisecond: about half of the one thread, which every other client's
// deliveries queued behind. Held, it gets at most one answer a second per connection. A held
// refusal costs a timer; past REFUSALS_HELD_MAX at once the rest are answered at once, so many
// connections cannot make the server hold more.
import { ApiError } from './errors';

export const REFUSAL_HOLD_MAX_MS = 1000;
export const REFUSALS_HELD_MAX = 1000;

export class RefusalHold {
  private held = 0;

  constructor(
    private readonly maxHoldMs = REFUSAL_HOLD_MAX_MS,
    private readonly maxHeld = REFUSALS_HELD_MAX,
  ) {}

  /** Refusals waiting to be answered (for tests). */
  get size(): number {
    return this.held;
  }

  /**
   * Calls `answer` with `refusal` now, or later with the same refusal and what is then left of its
   * Retry-After. Any other error is answered at once.
   */
  answer(refusal: ApiError, answer: (error: ApiError) => void): void {
    const retryAfterS = Number(refusal.extra['retry-after']);
    if (refusal.code !== 'RATE_LIMIT_HIT' || !(retryAfterS > 0) || this.held >= this.maxHeld) {
      answer(refusal);
      return;
    }
    const holdMs = Math.min(retryAfterS * 1000, this.maxHoldMs);
    this.held += 1;
    setTimeout(() => {
      this.held -= 1;
      answer(withRetryAfter(refusal, retryAfterS - holdMs / 1000));
    }, holdMs).unref();
  }
}

/** The same refusal with a new Retry-After (seconds, at least 1 ms), in body and header alike. */
function withRetryAfter(refusal: ApiError, seconds: number): ApiError {
  const retryAfter = Math.max(0.001, seconds);
  return new ApiError(
    refusal.code,
    refusal.message,
    refusal.status,
    { ...refusal.extra, 'retry-after': retryAfter },
    { ...refusal.headers, 'Retry-After': retryAfter.toFixed(3) },
  );
}
