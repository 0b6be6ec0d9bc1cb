// Fetches one upload of the account's realm for main itself (never for the page): through the media
// proxy's request rules (credentials only to the account's own site, vetted redirects), refusing what
// is not the file: an error status, or a web page where a file was expected (a sign-in or proxy error
// page answered with 200). Bodies are read as a stream, so a cap stops the read at the cap, not after.
import type { ApiClient } from '../api/client';
import { ApiError } from '../api/errors';
import { fetchRealmFile } from '../media/media-proxy';
import { MeetingIpcCodes } from '../../shared/ipc/meetings';

export type FetchLike = typeof fetch;

/** An answer that is not the file: a web page (HTML) when the name says otherwise. */
function isWebPage(contentType: string | null, name: string): boolean {
  return (
    /^\s*(text\/html|application\/xhtml)/i.test(contentType ?? '') && !/\.x?html?$/i.test(name)
  );
}

export function downloadFailed(message: string): ApiError {
  return new ApiError('server', MeetingIpcCodes.downloadFailed, message, 502);
}

/** The open answer for an upload, or a clear refusal. The caller reads (or cancels) its body. */
export async function requestUpload(
  client: ApiClient,
  path: string,
  name: string,
  options: { signal?: AbortSignal; fetch?: FetchLike } = {},
): Promise<{ body: ReadableStream<Uint8Array>; length: number | null }> {
  let response: Response;
  try {
    response = await fetchRealmFile(client, path.replace(/^\//, ''), options);
  } catch (error) {
    if (options.signal?.aborted) throw error;
    throw downloadFailed(`${name} could not be downloaded: ${(error as Error).message}`);
  }
  if (!response.ok || !response.body) {
    await response.body?.cancel();
    throw downloadFailed(`The server answered ${response.status} for ${name}`);
  }
  if (isWebPage(response.headers.get('content-type'), name)) {
    await response.body.cancel();
    throw downloadFailed(`The server answered with a web page instead of ${name}`);
  }
  const declared = Number(response.headers.get('content-length'));
  return {
    body: response.body,
    length: response.headers.has('content-length') && Number.isFinite(declared) ? declared : null,
  };
}

/**
 * An upload's bytes when it has at most `maxBytes`; otherwise `complete` is false and nothing past
 * the cap was read (a declared larger length is refused unread, the stream is cancelled at the cap).
 */
export async function readUploadHead(
  client: ApiClient,
  path: string,
  name: string,
  maxBytes: number,
  options: { signal?: AbortSignal; fetch?: FetchLike } = {},
): Promise<{ bytes: Uint8Array; complete: boolean }> {
  const { body, length } = await requestUpload(client, path, name, options);
  if (length !== null && length > maxBytes) {
    await body.cancel();
    return { bytes: new Uint8Array(0), complete: false };
  }
  const chunks: Uint8Array[] = [];
  let total = 0;
  const reader = body.getReader();
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      total += value.length;
      if (total > maxBytes) {
        await reader.cancel();
        return { bytes: new Uint8Array(0), complete: false };
      }
      chunks.push(value);
    }
  } catch (error) {
    if (options.signal?.aborted) throw error;
    throw downloadFailed(`${name} could not be downloaded: ${(error as Error).message}`);
  }
  const bytes = new Uint8Array(total);
  let at = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, at);
    at += chunk.length;
  }
  return { bytes, complete: true };
}
