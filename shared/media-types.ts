// A file's media type from its name and its first bytes, for uploads (main sends it as the multipart
// part's and the tus upload's type: the public server keeps whatever type the client declares, and
// shows an image preview only for an image type) and for the local server's records of them.

/** Media types by file extension (lower case, without the dot). */
export const MEDIA_TYPE_BY_EXTENSION: Readonly<Record<string, string>> = {
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

export const GENERIC_MEDIA_TYPE = 'application/octet-stream';

/** How many leading bytes sniffMediaType looks at. */
export const SNIFF_BYTES = 16;

export function mediaTypeForName(fileName: string): string {
  const dot = fileName.lastIndexOf('.');
  if (dot < 0) return GENERIC_MEDIA_TYPE;
  return MEDIA_TYPE_BY_EXTENSION[fileName.slice(dot + 1).toLowerCase()] ?? GENERIC_MEDIA_TYPE;
}

function startsWith(head: Uint8Array, bytes: readonly number[], at = 0): boolean {
  return bytes.every((b, i) => head[at + i] === b);
}

function ascii(text: string): number[] {
  return [...text].map((c) => c.charCodeAt(0));
}

/** ISO base media brands (bytes 8–11 after `ftyp`) that are not plain MP4 video. */
const FTYP_BRANDS: Record<string, string> = {
  'qt  ': 'video/quicktime',
  heic: 'image/heic',
  heix: 'image/heic',
  mif1: 'image/heic',
  avif: 'image/avif',
  'M4A ': 'audio/mp4',
};

/** The type a file's first bytes announce (magic numbers of common formats), or null. */
export function sniffMediaType(head: Uint8Array): string | null {
  if (startsWith(head, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) return 'image/png';
  if (startsWith(head, [0xff, 0xd8, 0xff])) return 'image/jpeg';
  if (startsWith(head, ascii('GIF87a')) || startsWith(head, ascii('GIF89a'))) return 'image/gif';
  if (startsWith(head, ascii('RIFF')) && startsWith(head, ascii('WEBP'), 8)) return 'image/webp';
  if (startsWith(head, ascii('RIFF')) && startsWith(head, ascii('WAVE'), 8)) return 'audio/wav';
  if (startsWith(head, ascii('BM')) && head.length >= 14) return 'image/bmp';
  if (startsWith(head, ascii('%PDF-'))) return 'application/pdf';
  if (startsWith(head, ascii('OggS'))) return 'audio/ogg';
  if (startsWith(head, ascii('fLaC'))) return 'audio/flac';
  if (startsWith(head, ascii('ID3'))) return 'audio/mpeg';
  if (startsWith(head, [0x1a, 0x45, 0xdf, 0xa3])) return 'video/webm';
  if (startsWith(head, ascii('ftyp'), 4)) {
    const brand = String.fromCharCode(...head.subarray(8, 12));
    return FTYP_BRANDS[brand] ?? 'video/mp4';
  }
  if (startsWith(head, [0x50, 0x4b, 0x03, 0x04])) return 'application/zip';
  if (startsWith(head, [0x1f, 0x8b])) return 'application/gzip';
  return null;
}

/**
 * A file's media type: what its first bytes announce, else what its extension says. A zip container
 * keeps its extension's more specific type (a .docx is a zip).
 */
export function detectMediaType(fileName: string, head: Uint8Array): string {
  const byName = mediaTypeForName(fileName);
  const sniffed = sniffMediaType(head);
  if (!sniffed) return byName;
  if (sniffed === 'application/zip' && byName !== GENERIC_MEDIA_TYPE) return byName;
  if (sniffed === 'audio/ogg' && byName.endsWith('/ogg')) return byName; // .ogv is video
  if (sniffed === 'video/webm' && byName === 'audio/webm') return byName;
  return sniffed;
}
