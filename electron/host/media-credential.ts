// The browser-mode page's credential for /media (realm images and files, meeting audio): a random
// token of its own, never the bridge secret. It travels in an HttpOnly cookie scoped to /media;
// cookies are not separated by port, so another server on 127.0.0.1 that the same browser visits
// may receive it. What it could do there is load media, nothing else, and only until the next
// rotation: every bridge handshake issues a fresh token (the page's cookie is replaced at once)
// and the previous one stays valid for a short grace, for images already requested.
import { randomBytes } from 'node:crypto';
import { secretMatches } from './secret';

const GRACE_MS = 60_000;

export class MediaCredential {
  private current = MediaCredential.fresh();
  private previous: { token: string; until: number } | null = null;

  constructor(private readonly now: () => number = Date.now) {}

  private static fresh(): string {
    return randomBytes(32).toString('base64url');
  }

  /** A new token for a page that has just proven itself on the bridge. */
  rotate(): string {
    this.previous = { token: this.current, until: this.now() + GRACE_MS };
    this.current = MediaCredential.fresh();
    return this.current;
  }

  accepts(token: string | null): boolean {
    if (secretMatches(token, this.current)) return true;
    const previous = this.previous;
    return previous !== null && this.now() < previous.until && secretMatches(token, previous.token);
  }
}
