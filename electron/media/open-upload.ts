// Opening a file uploaded to the realm (a `/user_uploads/…` link in a message) outside the app. The
// page cannot open it itself: in Electron its window may only load app:// and the media protocol,
// and shell.openExternal takes only http, https and mailto. So main asks the realm for a short-lived
// download URL (GET /api/v1/user_uploads/{path_id}: `/user_uploads/temporary/<token>/<name>`, valid
// about a minute, for this one file, needing no credentials) and hands that to the system browser.
// The API key never leaves main, and nothing but that temporary URL on the account's own server is
// opened: the path is checked before the request and the answer before it is opened.
import type { ApiClient } from '../api/client';
import { ApiError } from '../api/errors';
import { endpoints } from '../../shared/api/endpoints';
import { realmMediaUrl, relativeTo, siteBase } from './media-proxy';

/** `user_uploads/<realm id>/<rest>` once normalised: an upload's own path (a thumbnail or temporary
 * URL has no realm id there), without a query. */
const UPLOAD_PATH = /^user_uploads\/(\d+\/[^?#]+)$/;

function badPath(path: string): ApiError {
  return new ApiError('server', 'BAD_REQUEST', `Not an uploaded file of this realm: ${path}`, 400);
}

/** The path_id of an upload link (`<realm id>/…`), or null for anything else. */
export function uploadPathId(site: string, path: string): string | null {
  // The media proxy's normalisation guard (no `..`, encoded separators or other sites), and the
  // shape checked on the path as normalised: `1/%2e%2e/temporary/…` is `temporary/…` to the server.
  const url = realmMediaUrl(site, path.replace(/^\//, ''));
  return url ? (UPLOAD_PATH.exec(relativeTo(site, url))?.[1] ?? null) : null;
}

/** The realm's temporary, credential-free URL of one upload (absolute, on the account's server). */
export async function temporaryUploadUrl(client: ApiClient, path: string): Promise<string> {
  const pathId = uploadPathId(client.site, path);
  if (!pathId) throw badPath(path);
  // The normalised path, sent as is: percent-escapes stay as the link has them (the server encoded
  // the name). Through the client's call, so a 429 is waited out and a dropped connection retried.
  const body = (await client.call(endpoints.getUploadUrl, { path_id: pathId })) as {
    url?: unknown;
  };
  const site = siteBase(client.site);
  let url: URL;
  try {
    url = new URL(String(body.url ?? ''), site);
  } catch {
    throw new ApiError('server', 'BAD_RESPONSE', 'The server gave no download URL', 502);
  }
  // Only the server's own temporary download route: never another site or another page.
  if (
    url.origin !== site.origin ||
    !url.pathname.startsWith(`${site.pathname}user_uploads/temporary/`) ||
    !['http:', 'https:'].includes(url.protocol)
  )
    throw new ApiError('server', 'BAD_RESPONSE', 'The server gave an unexpected download URL', 502);
  return url.href;
}

/** Opens an upload in the system browser through its temporary URL. */
export async function openUploadExternally(
  client: ApiClient,
  path: string,
  openExternal: (url: string) => Promise<void> | void,
): Promise<void> {
  await openExternal(await temporaryUploadUrl(client, path));
}
