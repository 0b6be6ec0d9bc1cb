// Fixed-window request counter per key (user id or client IP). Cheap and in memory: enough to give
// clients a real RATE_LIMIT_HIT to handle. The default limit is generous (see config.ts).
import type { RateLimitOptions } from '../config';
import { ApiError } from './errors';
import { BoundedMap } from '../memory/bounded-map';

/**
 * Keys (users and client addresses) counted at once. Past it the least recently seen key's window
 * is forgotten: that key starts a fresh window, which lets nobody in sooner unless more than this
 * many clients are active within one window.
 */
export const RATE_LIMIT_MAX_KEYS = 10_000;

interface Window {
  start: number;
  count: number;
}

export class RateLimiter {
  private readonly windows = new BoundedMap<string, Window>({ maxEntries: RATE_LIMIT_MAX_KEYS });

  constructor(private readonly options: RateLimitOptions) {}

  /** Whether hit() would refuse the key now; counts nothing. */
  isExhausted(key: string, now = Date.now()): boolean {
    const window = this.windows.get(key);
    return (
      !!window &&
      now - window.start < this.options.windowMs &&
      window.count >= this.options.requests
    );
  }

  /** Counts one request; returns headers to add, or throws RATE_LIMIT_HIT. */
  hit(key: string, now = Date.now()): Record<string, string> {
    let window = this.windows.get(key);
    if (!window || now - window.start >= this.options.windowMs) {
      window = { start: now, count: 0 };
      this.windows.set(key, window);
    }
    window.count += 1;
    const resetSeconds = (window.start + this.options.windowMs) / 1000;
    const remaining = Math.max(0, this.options.requests - window.count);
    const headers = {
      'X-RateLimit-Limit': String(this.options.requests),
      'X-RateLimit-Remaining': String(remaining),
      'X-RateLimit-Reset': String(Math.ceil(resetSeconds)),
    };
    if (window.count > this.options.requests) {
      const retryAfter = Math.max(0.001, (window.start + this.options.windowMs - now) / 1000);
      throw new ApiError(
        'RATE_LIMIT_HIT',
        'API usage exceeded rate limit',
        429,
        { 'retry-after': retryAfter },
        { ...headers, 'Retry-After': retryAfter.toFixed(3) },
      );
    }
    return headers;
  }
}
