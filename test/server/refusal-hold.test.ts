// Refusals (RATE_LIMIT_HIT) are answered when they may be retried, at most a second later
// (server/http/refusal-hold.ts), so a client that ignores Retry-After cannot have the server
// answer it back to back; a client that obeys it loses nothing.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ApiError } from '../../server/http/errors';
import { RefusalHold } from '../../server/http/refusal-hold';

function rateLimitHit(retryAfterS: number): ApiError {
  return new ApiError(
    'RATE_LIMIT_HIT',
    'API usage exceeded rate limit',
    429,
    { 'retry-after': retryAfterS },
    { 'Retry-After': retryAfterS.toFixed(3), 'X-RateLimit-Limit': '10' },
  );
}

describe('RefusalHold', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('answers when the refusal may be retried, with what is left of Retry-After', () => {
    const hold = new RefusalHold(1000, 10);
    const answered: ApiError[] = [];
    hold.answer(rateLimitHit(0.25), (error) => answered.push(error));
    expect(answered).toEqual([]);
    expect(hold.size).toBe(1);
    vi.advanceTimersByTime(249);
    expect(answered).toEqual([]);
    vi.advanceTimersByTime(1);
    expect(answered).toHaveLength(1);
    expect(answered[0].status).toBe(429);
    expect(answered[0].body()).toEqual({
      result: 'error',
      msg: 'API usage exceeded rate limit',
      code: 'RATE_LIMIT_HIT',
      'retry-after': 0.001,
    });
    expect(answered[0].headers).toEqual({ 'Retry-After': '0.001', 'X-RateLimit-Limit': '10' });
    expect(hold.size).toBe(0);
  });

  it('holds a long wait for a second at most and tells the client the rest', () => {
    const hold = new RefusalHold(1000, 10);
    const answered: ApiError[] = [];
    hold.answer(rateLimitHit(42.5), (error) => answered.push(error));
    vi.advanceTimersByTime(999);
    expect(answered).toEqual([]);
    vi.advanceTimersByTime(1);
    expect(answered[0].body()['retry-after']).toBe(41.5);
    expect(answered[0].headers['Retry-After']).toBe('41.500');
  });

  it('answers at once past its bound, and any other error at once', () => {
    const hold = new RefusalHold(1000, 2);
    const answered: ApiError[] = [];
    for (let i = 0; i < 3; i++) hold.answer(rateLimitHit(5), (error) => answered.push(error));
    expect(answered).toHaveLength(1);
    expect(answered[0].body()['retry-after']).toBe(5);
    const other = new ApiError('BAD_REQUEST', 'Invalid', 400);
    hold.answer(other, (error) => answered.push(error));
    expect(answered[1]).toBe(other);
    vi.advanceTimersByTime(1000);
    expect(answered).toHaveLength(4);
    expect(hold.size).toBe(0);
  });
});
