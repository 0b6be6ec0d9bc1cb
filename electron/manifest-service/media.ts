// Serves verified recordings to the renderer's <audio> element. A token is minted only after the
// integrity check said `verified`, is bound to that one file (its identity and size at verification)
// or to the attachment bytes that were verified, and is revoked when the viewer closes the manifest or
// checks another audio file. Requests carry byte ranges so the element can seek.
import { randomBytes } from 'node:crypto';
import { createReadStream, statSync, type Stats } from 'node:fs';
import { Readable } from 'node:stream';

export type VerifiedAudio =
  { kind: 'file'; path: string; identity: FileIdentity } | { kind: 'bytes'; bytes: Uint8Array };

export interface FileIdentity {
  dev: number;
  ino: number;
  size: number;
  mtimeMs: number;
}

export function fileIdentity(stats: Stats): FileIdentity {
  return { dev: stats.dev, ino: stats.ino, size: stats.size, mtimeMs: stats.mtimeMs };
}

function sameIdentity(a: FileIdentity, b: FileIdentity): boolean {
  return a.dev === b.dev && a.ino === b.ino && a.size === b.size && a.mtimeMs === b.mtimeMs;
}

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
   * gets 410 (and its token is revoked), so what plays is always what was verified.
   */
  serve(token: string, rangeHeader: string | null | undefined, method = 'GET'): Response {
    const audio = this.byToken.get(token);
    if (!audio) return plain(404, 'Not found');
    let size: number;
    if (audio.kind === 'file') {
      let now: FileIdentity;
      try {
        now = fileIdentity(statSync(audio.path));
      } catch {
        this.byToken.delete(token);
        return plain(410, 'The verified audio file is gone');
      }
      if (!sameIdentity(now, audio.identity)) {
        this.byToken.delete(token);
        return plain(410, 'The audio file changed after it was verified; open it again');
      }
      size = now.size;
    } else {
      size = audio.bytes.length;
    }
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
    const body =
      audio.kind === 'file'
        ? (Readable.toWeb(createReadStream(audio.path, { start, end })) as ReadableStream)
        : new Blob([audio.bytes.subarray(start, end + 1) as Uint8Array<ArrayBuffer>]).stream();
    return new Response(body, { status, headers });
  }
}

function plain(status: number, text: string): Response {
  return new Response(text, {
    status,
    headers: { 'content-type': 'text/plain; charset=utf-8', 'cache-control': 'no-store' },
  });
}
