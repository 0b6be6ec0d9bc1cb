// Content types of served uploads and how they are presented. A small table is enough for a chat
// server: anything unknown is application/octet-stream and downloads. Only types a browser renders
// without running code are shown inline; HTML, SVG, XML and the rest always download. The extension
// table is shared with the desktop client's upload code (shared/media-types.ts).
import { GENERIC_MEDIA_TYPE, mediaTypeForName } from '../../shared/media-types';

const GENERIC = GENERIC_MEDIA_TYPE;

/** Types safe to render inline: no script, no active content. */
const INLINE_SAFE = new Set([
  'image/png',
  'image/jpeg',
  'image/gif',
  'image/webp',
  'image/avif',
  'image/bmp',
  'image/x-icon',
  'application/pdf',
  'text/plain',
  'audio/ogg',
  'audio/mpeg',
  'audio/mp4',
  'audio/wav',
  'audio/flac',
  'audio/webm',
  'video/mp4',
  'video/webm',
  'video/ogg',
  'video/quicktime',
]);

/**
 * Served files may be HTML or SVG written by anyone in the realm: forbid every script and
 * connection, and sandbox the document so even an inline-rendered file has an opaque origin.
 */
export const SERVED_FILE_CSP =
  "default-src 'none'; img-src 'self' data:; media-src 'self'; style-src 'unsafe-inline'; sandbox";

/**
 * The type to record for an upload: what the client declared when it is specific and well formed,
 * otherwise the extension's type (some clients declare application/octet-stream for everything).
 */
export function chooseContentType(declared: string | undefined | null, fileName: string): string {
  const type = (declared ?? '').split(';')[0].trim().toLowerCase();
  if (type && type !== GENERIC && /^[a-z0-9.+-]+\/[a-z0-9.+-]+$/.test(type)) return type;
  return mediaTypeForName(fileName);
}

export function isInlineSafe(contentType: string): boolean {
  return INLINE_SAFE.has(contentType.split(';')[0].trim().toLowerCase());
}

/** Content-Type header value; text gets an explicit charset so browsers never guess one. */
export function contentTypeHeader(contentType: string): string {
  return contentType.startsWith('text/') && !contentType.includes('charset')
    ? `${contentType}; charset=utf-8`
    : contentType;
}

/** RFC 6266 Content-Disposition with an ASCII fallback name and the UTF-8 name (RFC 5987). */
export function contentDisposition(kind: 'inline' | 'attachment', fileName: string): string {
  const fallback = fileName.replace(/[^\x20-\x7e]|["\\%]/g, '_');
  const encoded = encodeURIComponent(fileName).replace(
    /['()*]/g,
    (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`,
  );
  return `${kind}; filename="${fallback}"; filename*=UTF-8''${encoded}`;
}
