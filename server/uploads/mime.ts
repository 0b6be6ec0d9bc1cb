// Content types of served uploads and how they are presented. A small table is enough for a chat
// server: anything unknown is application/octet-stream and downloads. Only types a browser renders
// without running code are shown inline; HTML, SVG, XML and the rest always download.

const BY_EXTENSION: Record<string, string> = {
  png: 'image/png',
  jpg: 'image/jpeg',
  jpeg: 'image/jpeg',
  gif: 'image/gif',
  webp: 'image/webp',
  avif: 'image/avif',
  bmp: 'image/bmp',
  ico: 'image/x-icon',
  svg: 'image/svg+xml',
  tif: 'image/tiff',
  tiff: 'image/tiff',
  heic: 'image/heic',
  pdf: 'application/pdf',
  txt: 'text/plain',
  log: 'text/plain',
  md: 'text/markdown',
  csv: 'text/csv',
  tsv: 'text/tab-separated-values',
  json: 'application/json',
  xml: 'application/xml',
  html: 'text/html',
  htm: 'text/html',
  css: 'text/css',
  js: 'text/javascript',
  mjs: 'text/javascript',
  opus: 'audio/ogg',
  ogg: 'audio/ogg',
  oga: 'audio/ogg',
  mp3: 'audio/mpeg',
  m4a: 'audio/mp4',
  wav: 'audio/wav',
  flac: 'audio/flac',
  weba: 'audio/webm',
  mp4: 'video/mp4',
  m4v: 'video/mp4',
  webm: 'video/webm',
  ogv: 'video/ogg',
  mov: 'video/quicktime',
  zip: 'application/zip',
  gz: 'application/gzip',
  tgz: 'application/gzip',
  tar: 'application/x-tar',
  '7z': 'application/x-7z-compressed',
  doc: 'application/msword',
  docx: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
  xls: 'application/vnd.ms-excel',
  xlsx: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
  ppt: 'application/vnd.ms-powerpoint',
  pptx: 'application/vnd.openxmlformats-officedocument.presentationml.presentation',
  odt: 'application/vnd.oasis.opendocument.text',
  ods: 'application/vnd.oasis.opendocument.spreadsheet',
};

const GENERIC = 'application/octet-stream';

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

export function contentTypeForName(fileName: string): string {
  const dot = fileName.lastIndexOf('.');
  if (dot < 0) return GENERIC;
  return BY_EXTENSION[fileName.slice(dot + 1).toLowerCase()] ?? GENERIC;
}

/**
 * The type to record for an upload: what the client declared when it is specific and well formed,
 * otherwise the extension's type (the desktop client always declares application/octet-stream).
 */
export function chooseContentType(declared: string | undefined | null, fileName: string): string {
  const type = (declared ?? '').split(';')[0].trim().toLowerCase();
  if (type && type !== GENERIC && /^[a-z0-9.+-]+\/[a-z0-9.+-]+$/.test(type)) return type;
  return contentTypeForName(fileName);
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
