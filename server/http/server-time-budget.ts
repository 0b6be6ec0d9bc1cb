// A budget of server time per user, on top of the request count (rate-limit.ts).
//
// Counting requests does not bound what one member can cost: the largest allowed requests differ
// from the smallest by a thousand times, and the server has one thread. One member sending them
// back to back held it most of the time, and every other client's messages waited (issue #15,
// bench/hostile-load). So each request is also charged what it cost: the time its handler ran, plus
// the delivery of the events it queued (every byte is written to each recipient's poll). A user
// whose budget is spent gets RATE_LIMIT_HIT (429) with the Retry-After the budget needs to be
// positive again, as for the count limit (api-notes §6).
//
// Token bucket in milliseconds: a user starts with `burstMs` and earns `refillMsPerSecond` back
// every second, up to `burstMs`. A request is let in while the balance is positive and charged
// after it ran, so one large request may overdraw the bucket; the user then waits it out.
import type { ServerTimeBudgetOptions } from '../config';
import { ApiError } from './errors';
import { BoundedMap } from '../memory/bounded-map';

/**
 * Buckets kept at once (one per user). Past it the least recently charged user's bucket is
 * forgotten and starts full again: only a realm with more active users than this could gain by it.
 */
export const TIME_BUDGET_MAX_KEYS = 10_000;

interface Bucket {
  balanceMs: number;
  updatedMs: number;
}

export class ServerTimeBudget {
  private readonly buckets = new BoundedMap<string, Bucket>({ maxEntries: TIME_BUDGET_MAX_KEYS });

  constructor(private readonly options: ServerTimeBudgetOptions) {}

  /** Throws RATE_LIMIT_HIT while the key's budget is spent. */
  check(key: string, now = Date.now()): void {
    const bucket = this.bucket(key, now);
    if (bucket.balanceMs > 0) return;
    const retryAfter = Math.max(0.001, (1 - bucket.balanceMs) / this.options.refillMsPerSecond);
    throw new ApiError(
      'RATE_LIMIT_HIT',
      'API usage exceeded rate limit',
      429,
      { 'retry-after': retryAfter },
      { 'Retry-After': retryAfter.toFixed(3) },
    );
  }

  /** Whether check() would refuse the key now (the router asks before reading a body). */
  isSpent(key: string, now = Date.now()): boolean {
    return this.bucket(key, now).balanceMs <= 0;
  }

  /** Charges a finished request: its handler's milliseconds and the bytes of events it queued. */
  charge(key: string, handlerMs: number, eventBytes: number, now = Date.now()): void {
    const bucket = this.bucket(key, now);
    bucket.balanceMs -= handlerMs + (eventBytes / 1024 / 1024) * this.options.msPerEventMegabyte;
  }

  /** The key's balance in milliseconds (for tests and the bench). */
  balance(key: string, now = Date.now()): number {
    return this.bucket(key, now).balanceMs;
  }

  private bucket(key: string, now: number): Bucket {
    let bucket = this.buckets.get(key);
    if (!bucket) {
      bucket = { balanceMs: this.options.burstMs, updatedMs: now };
      this.buckets.set(key, bucket);
      return bucket;
    }
    const earned = ((now - bucket.updatedMs) / 1000) * this.options.refillMsPerSecond;
    bucket.balanceMs = Math.min(this.options.burstMs, bucket.balanceMs + earned);
    bucket.updatedMs = now;
    return bucket;
  }
}
