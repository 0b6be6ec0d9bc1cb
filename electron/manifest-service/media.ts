// Serves verified recordings to the renderer's <audio> element. A token is minted only after the
// integrity check said `verified`, is bound to that one file (the identity, size and times its open
// handle had when it was checked, see electron/manifest/verified-audio.ts) or to the attachment bytes
// that were verified, and is revoked when the viewer closes the manifest or
// checks another audio file. Requests carry byte ranges so the element can seek.
import { randomBytes } from 'node:crypto';
import { closeSync, constants, createReadStream, fstatSync, openSync } from 'node:fs';
import { Readable } from 'node:stream';
import { fileIdentity, sameIdentity, type FileIdentity, type VerifiedAudio } from '../manifest';

/** An inclusive byte range, or why the Range header cannot be satisfied. */
export type RangeRequest =
  { kind: 'whole' } | { kind: 'range'; start: number; end: number } | { kind: 'unsatisfiable' };

/**
 * Parses a `Range: bytes=...` header against a resource of `size` bytes (RFC 9110 §14.1.2). Only a
 * single range is honoured; anything else (several ranges, another unit, garbage) is answered with the
 * whole resource, which the RFC allows.
 */
export function parseRange(header: string | null | undefined, size: number): RangeRequest {
  if (!header) return { kind: 'whole' };
  const match = /^\s*bytes\s*=\s*(\d*)\s*-\s*(\d*)\s*$/i.exec(header);
  if (!match || (match[1] === '' && match[2] === '')) return { kind: 'whole' };
  if (match[1] === '') {
    const suffix = Number(match[2]);
    if (suffix === 0 || size === 0) return { kind: 'unsatisfiable' };
    return { kind: 'range', start: Math.max(0, size - suffix), end: size - 1 };
  }
  const start = Number(match[1]);
  const end = match[2] === '' ? size - 1 : Math.min(Number(match[2]), size - 1);
  if (start >= size || end < start) return { kind: 'unsatisfiable' };
  return { kind: 'range', start, end };
}

const AUDIO_TYPE = 'audio/ogg';

export class MeetingAudioStreams {
  private readonly byToken = new Map<string, VerifiedAudio>();

  /** Mints an unguessable token (256 bits) for audio that has just been verified. */
  register(audio: VerifiedAudio): string {
    const token = randomBytes(32).toString('base64url');
    this.byToken.set(token, audio);
    return token;
  }

  revoke(token: string | null | undefined): void {
    if (token) this.byToken.delete(token);
  }

  revokeAll(): void {
    this.byToken.clear();
  }

  has(token: string): boolean {
    return this.byToken.has(token);
  }

  /**
   * Answers one request for a token. Unknown tokens get 404; a file that changed since it was verified
   * gets 410 (and its token is revoked), so what plays is always what was verified. The file is opened
   * first and its identity taken from that descriptor, which the response then streams from: a file
   * renamed over the path between the check and the read cannot slip in.
   */
  serve(token: string, rangeHeader: string | null | undefined, method = 'GET'): Response {
    const audio = this.byToken.get(token);
    if (!audio) return plain(404, 'Not found');
    if (audio.kind === 'bytes') {
      return ranged(audio.bytes.length, rangeHeader, method, (start, end) =>
        new Blob([audio.bytes.subarray(start, end + 1) as Uint8Array<ArrayBuffer>]).stream(),
      );
    }
    let fd: number;
    try {
      // Non-blocking, so that a FIFO put at the path cannot stall the main process in open().
      fd = openSync(audio.path, constants.O_RDONLY | (constants.O_NONBLOCK ?? 0));
    } catch {
      this.byToken.delete(token);
      return plain(410, 'The verified audio file is gone');
    }
    let streaming = false;
    try {
      let now: FileIdentity | null = null;
      try {
        now = fileIdentity(fstatSync(fd));
      } catch {
        // Treated as changed below.
      }
      if (!now || !sameIdentity(now, audio.identity)) {
        this.byToken.delete(token);
        return plain(410, 'The audio file changed after it was verified; open it again');
      }
      return ranged(now.size, rangeHeader, method, (start, end) => {
        streaming = true;
        // The stream owns the descriptor from here and closes it when it ends or is cancelled.
        return Readable.toWeb(createReadStream(audio.path, { fd, start, end })) as ReadableStream;
      });
    } finally {
      if (!streaming) closeSync(fd);
    }
  }
}

/** A 200/206/416 response for a resource of `size` bytes; `body` is asked only for a non-empty GET. */
function ranged(
  size: number,
  rangeHeader: string | null | undefined,
  method: string,
  body: (start: number, end: number) => ReadableStream,
): Response {
  const headers: Record<string, string> = {
    'content-type': AUDIO_TYPE,
    'accept-ranges': 'bytes',
    'cache-control': 'no-store',
    'x-content-type-options': 'nosniff',
  };
  const range = parseRange(rangeHeader, size);
  if (range.kind === 'unsatisfiable') {
    return new Response(null, {
      status: 416,
      headers: { ...headers, 'content-range': `bytes */${size}` },
    });
  }
  const start = range.kind === 'range' ? range.start : 0;
  const end = range.kind === 'range' ? range.end : size - 1;
  const length = size === 0 ? 0 : end - start + 1;
  headers['content-length'] = String(length);
  if (range.kind === 'range') headers['content-range'] = `bytes ${start}-${end}/${size}`;
  const status = range.kind === 'range' ? 206 : 200;
  if (method === 'HEAD' || length === 0) return new Response(null, { status, headers });
  return new Response(body(start, end), { status, headers });
}

function plain(status: number, text: string): Response {
  return new Response(text, {
    status,
    headers: { 'content-type': 'text/plain; charset=utf-8', 'cache-control': 'no-store' },
  });
}
