// Images served to anyone who has the URL (custom emoji, avatars): every client shows them in plain
// <img> tags without credentials, so they are cacheable for a day and never sniffed as another type.
import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import type { FastifyReply } from 'fastify';
import { notFound } from '../http/errors';
import { SERVED_FILE_CSP } from './mime';

export async function sendPublicImage(
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
