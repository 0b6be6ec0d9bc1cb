// Images and videos from other hosts, fetched for the page only after the person clicked their
// placeholder (the page's CSP blocks remote loads, and never loading them unasked keeps a message's
// sender from learning who read it and when). The URL comes from message HTML, so: http and https
// only, at every redirect too; no credentials, cookies or referrer; a few redirects at most; only
// image and video types a browser shows without running code (no SVG); a size cap checked on the
// declared length and again while reading; a time limit.
import { ApiError } from '../api/errors';
import { EXTERNAL_MEDIA_MAX_BYTES, type ExternalMedia } from '../../shared/ipc/media';

export const ExternalMediaCodes = {
  refused: 'EXTERNAL_MEDIA_REFUSED',
  failed: 'EXTERNAL_MEDIA_FAILED',
} as const;

const SHOWN_TYPES =
  /^(?:image\/(?:png|jpeg|gif|webp|avif|bmp|x-icon)|video\/(?:mp4|webm|ogg|quicktime))$/;

export interface ExternalMediaOptions {
  maxBytes?: number;
  maxRedirects?: number;
  timeoutMs?: number;
}

const refused = (msg: string) => new ApiError('server', ExternalMediaCodes.refused, msg, 400);
const failed = (msg: string, status = 502) =>
  new ApiError('server', ExternalMediaCodes.failed, msg, status);

function webUrl(text: string, base?: URL): URL {
  let url: URL;
  try {
    url = new URL(text, base);
  } catch {
    throw refused('Not a web address');
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    throw refused('Only http and https media are loaded');
  if (url.username || url.password) throw refused('Addresses with credentials are not loaded');
  return url;
}

export async function fetchExternalMedia(
  address: string,
  {
    maxBytes = EXTERNAL_MEDIA_MAX_BYTES,
    maxRedirects = 3,
    timeoutMs = 30_000,
  }: ExternalMediaOptions = {},
): Promise<ExternalMedia> {
  let url = webUrl(address);
  const signal = AbortSignal.timeout(timeoutMs);
  let response: Response;
  for (let hop = 0; ; hop += 1) {
    try {
      response = await fetch(url, {
        redirect: 'manual',
        credentials: 'omit',
        referrerPolicy: 'no-referrer',
        headers: { accept: 'image/*,video/*;q=0.9' },
        signal,
      });
    } catch {
      throw failed(`${url.host} did not answer`);
    }
    const location = response.headers.get('location');
    if (response.status < 300 || response.status >= 400 || !location) break;
    await response.body?.cancel();
    if (hop >= maxRedirects) throw refused('Too many redirects');
    url = webUrl(location, url);
  }
  if (!response.ok) {
    await response.body?.cancel();
    throw failed(`${url.host} answered ${response.status}`);
  }
  const contentType = (response.headers.get('content-type') ?? '')
    .split(';')[0]
    .trim()
    .toLowerCase();
  if (!SHOWN_TYPES.test(contentType)) {
    await response.body?.cancel();
    throw refused(`Not an image or video (${contentType || 'no type'})`);
  }
  const declared = Number(response.headers.get('content-length') ?? NaN);
  if (declared > maxBytes) {
    await response.body?.cancel();
    throw refused(`Larger than ${Math.floor(maxBytes / (1024 * 1024))} MiB`);
  }
  const chunks: Uint8Array[] = [];
  let size = 0;
  try {
    for await (const chunk of response.body ?? []) {
      size += chunk.byteLength;
      if (size > maxBytes) throw refused(`Larger than ${Math.floor(maxBytes / (1024 * 1024))} MiB`);
      chunks.push(chunk);
    }
  } catch (error) {
    await response.body?.cancel().catch(() => undefined);
    if (error instanceof ApiError) throw error;
    throw failed(`${url.host} stopped sending`);
  }
  return { contentType, contentBase64: Buffer.concat(chunks).toString('base64') };
}
