// Sends a stored upload: streamed from disk, single byte ranges for media seeking, and headers that
// keep uploaded HTML or SVG from running script in the client (nosniff, a sandboxing CSP, and
// attachment disposition for anything not known to be inert).
import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { notFound } from '../http/errors';
import type { AttachmentRow } from './attachments';
import {
  SERVED_FILE_CSP,
  chooseContentType,
  contentDisposition,
  contentTypeHeader,
  isInlineSafe,
} from './mime';

export interface ServeOptions {
  /** /user_uploads/download/...: always a download, never shown inline. */
  forceDownload: boolean;
  cacheControl: string;
}

export async function sendUpload(
  request: FastifyRequest,
  reply: FastifyReply,
  row: AttachmentRow,
  filePath: string,
  options: ServeOptions,
): Promise<void> {
  const info = await stat(filePath).catch(() => null);
  if (!info || !info.isFile()) throw notFound('File not found');
  const type = chooseContentType(row.content_type, row.file_name);
  const inline = !options.forceDownload && isInlineSafe(type);
  reply.headers({
    'content-type': contentTypeHeader(type),
    'content-disposition': contentDisposition(inline ? 'inline' : 'attachment', row.file_name),
    'x-content-type-options': 'nosniff',
    'content-security-policy': SERVED_FILE_CSP,
    'cache-control': options.cacheControl,
    'accept-ranges': 'bytes',
    'last-modified': info.mtime.toUTCString(),
  });
  const range = parseRange(request.headers.range, info.size);
  if (range === 'unsatisfiable') {
    await reply.code(416).header('content-range', `bytes */${info.size}`).send();
    return;
  }
  if (range) {
    reply
      .code(206)
      .header('content-range', `bytes ${range.start}-${range.end}/${info.size}`)
      .header('content-length', String(range.end - range.start + 1));
    await reply.send(createReadStream(filePath, range));
    return;
  }
  reply.code(200).header('content-length', String(info.size));
  await reply.send(info.size === 0 ? '' : createReadStream(filePath));
}

/** One `bytes=a-b`, `bytes=a-` or `bytes=-n` range; multiple ranges are served whole. */
function parseRange(
  header: string | undefined,
  size: number,
): { start: number; end: number } | 'unsatisfiable' | null {
  if (!header) return null;
  const match = /^bytes=(\d*)-(\d*)$/.exec(header.trim());
  if (!match || (match[1] === '' && match[2] === '')) return null;
  let start: number;
  let end: number;
  if (match[1] === '') {
    const suffix = Number(match[2]);
    if (suffix === 0) return 'unsatisfiable';
    start = Math.max(0, size - suffix);
    end = size - 1;
  } else {
    start = Number(match[1]);
    end = match[2] === '' ? size - 1 : Math.min(Number(match[2]), size - 1);
  }
  if (start >= size || start > end) return 'unsatisfiable';
  return { start, end };
}

/**
 * Replies with an image this server made itself (avatars, custom emoji, the organization icon):
 * public, and cacheable because its URL changes with each new version. 404 when it is gone.
 */
export async function sendStoredImage(
  reply: FastifyReply,
  filePath: string,
  contentType: string,
): Promise<void> {
  const info = await stat(filePath).catch(() => null);
  if (!info?.isFile()) throw notFound('File not found');
  await reply
    .headers({
      'content-type': contentType,
      'content-length': String(info.size),
      'x-content-type-options': 'nosniff',
      'content-security-policy': SERVED_FILE_CSP,
      'cache-control': 'public, max-age=86400',
    })
    .send(createReadStream(filePath));
}
