import { createHash, timingSafeEqual } from 'node:crypto';

/** Constant-time comparison, also in the length: both sides are hashed to 32 bytes first. */
export function secretMatches(given: string | null, secret: string): boolean {
  if (!given) return false;
  const digest = (value: string) => createHash('sha256').update(value).digest();
  return timingSafeEqual(digest(given), digest(secret));
}
