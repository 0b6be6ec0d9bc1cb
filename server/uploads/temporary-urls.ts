// Short-lived download URLs (/user_uploads/temporary/<token>/<filename>) for clients that cannot
// send an Authorization header (e.g. an <img> or <audio> element). The token is signed with a
// per-process secret, so it needs no table and dies with the server; it names one attachment and
// an expiry time.
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';

export const TEMPORARY_URL_LIFETIME_SECONDS = 60;

export class TemporaryUrlSigner {
  private readonly secret = randomBytes(32);

  constructor(private readonly nowSeconds: () => number) {}

  /** Token for an attachment, valid for TEMPORARY_URL_LIFETIME_SECONDS. */
  sign(attachmentId: number): string {
    const expires = this.nowSeconds() + TEMPORARY_URL_LIFETIME_SECONDS;
    const payload = `${attachmentId.toString(36)}.${expires.toString(36)}`;
    return `${payload}.${this.mac(payload)}`;
  }

  /** The attachment id of a valid, unexpired token, else null. */
  verify(token: string): number | null {
    const match = /^([0-9a-z]+)\.([0-9a-z]+)\.([\w-]+)$/.exec(token);
    if (!match) return null;
    const payload = `${match[1]}.${match[2]}`;
    const expected = Buffer.from(this.mac(payload));
    const given = Buffer.from(match[3]);
    if (expected.length !== given.length || !timingSafeEqual(expected, given)) return null;
    if (parseInt(match[2], 36) < this.nowSeconds()) return null;
    return parseInt(match[1], 36);
  }

  private mac(payload: string): string {
    return createHmac('sha256', this.secret).update(payload).digest('base64url');
  }
}
