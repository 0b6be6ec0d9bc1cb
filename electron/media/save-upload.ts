// Saving the original of an uploaded file (the image viewer's Download) where the person chooses.
// Main asks for the save path first, then for the realm's short-lived download URL of that one file
// (as opening an upload does: open-upload.ts), and streams it to disk: the API key never leaves main
// and the page never names a path on disk.
import { createWriteStream } from 'node:fs';
import { rm } from 'node:fs/promises';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { ReadableStream as WebReadableStream } from 'node:stream/web';
import type { ApiClient } from '../api/client';
import { ApiError } from '../api/errors';
import { temporaryUploadUrl, uploadPathId } from './open-upload';

/** The name an upload was stored under (the last segment of its path_id). */
export function uploadFileName(site: string, path: string): string {
  const last = (uploadPathId(site, path) ?? '').split('/').pop() ?? '';
  try {
    return decodeURIComponent(last) || 'download';
  } catch {
    return last || 'download';
  }
}

export async function saveUpload(
  client: ApiClient,
  path: string,
  chooseSavePath: (defaultName: string) => Promise<string | null>,
): Promise<{ savedTo: string } | null> {
  // Refuses anything but an upload of this realm before a dialog opens.
  if (!uploadPathId(client.site, path)) await temporaryUploadUrl(client, path);
  const target = await chooseSavePath(uploadFileName(client.site, path));
  if (!target) return null;
  const response = await fetch(await temporaryUploadUrl(client, path), { redirect: 'follow' });
  if (!response.ok || !response.body) {
    await response.body?.cancel();
    throw new ApiError('server', 'BAD_RESPONSE', `The server answered ${response.status}`, 502);
  }
  try {
    await pipeline(
      Readable.fromWeb(response.body as WebReadableStream<Uint8Array>),
      createWriteStream(target),
    );
  } catch (error) {
    await rm(target, { force: true });
    throw error;
  }
  return { savedTo: target };
}
