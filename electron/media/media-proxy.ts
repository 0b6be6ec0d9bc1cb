// Realm images and files for the page, fetched by main with the account's credentials: the renderer
// never reaches the chat server itself. Electron's media protocol and browser mode's /media route both
// come here. Guards, because the path comes from the page:
// - only the realm's upload and avatar paths, checked AFTER URL normalisation (a `%2e%2e` segment is
//   resolved by the URL parser, so a check on the raw string alone would let `/api/v1/...` through);
// - the request stays on the account's own site: redirects are followed by hand, credentials only to
//   the same origin, only http(s), a few hops;
// - the answer cannot run as a page or script on our origin (CSP sandbox, scripts and HTML as text).
import type { ApiClient } from '../api/client';

const MEDIA_PATH = /^(user_uploads|user_avatars|avatar|static|external_content)\/[^?#]*(\?[^#]*)?$/;
const MAX_REDIRECTS = 3;
const PASSED_HEADERS = [
  'content-type',
  'content-length',
  'cache-control',
  'last-modified',
  'etag',
  // A video seeks with byte ranges: the realm's answer to one passes through.
  'accept-ranges',
  'content-range',
];
/** One byte range as a media element asks for it; anything else is not passed on. */
const BYTE_RANGE = /^bytes=\d*-\d*$/;
/** Content types a browser would run; served as plain text so they stay inert. */
const ACTIVE_TYPES =
  /^(text\/html|application\/xhtml|text\/javascript|application\/(x-)?javascript|application\/ecmascript|text\/xml|application\/xml)/i;
/** Sent with every media answer: if one is opened as a document, it is an inert sandboxed one. */
export const MEDIA_CSP = "default-src 'none'; img-src data:; style-src 'unsafe-inline'; sandbox";

/** Realm paths the media proxy serves (relative, before normalisation): uploads and avatars. */
export function isAllowedMediaPath(path: string): boolean {
  if (path.includes('..') || path.includes('\\') || path.startsWith('/')) return false;
  return MEDIA_PATH.test(path);
}

/**
 * The URL a media path names on the site, or null when it would leave the allowed paths once
 * normalised (dot segments, encoded dots or slashes) or leave the site.
 */
export function realmMediaUrl(site: string, realmPath: string): URL | null {
  if (!isAllowedMediaPath(realmPath)) return null;
  const base = siteBase(site);
  let url: URL;
  try {
    url = new URL(realmPath, base);
  } catch {
    return null;
  }
  if (url.origin !== base.origin || !url.pathname.startsWith(base.pathname)) return null;
  const relative = `${url.pathname.slice(base.pathname.length)}${url.search}`;
  // Encoded dots or separators have no business in an upload path: refuse rather than guess.
  if (/%2e|%2f|%5c/i.test(url.pathname)) return null;
  return isAllowedMediaPath(relative) ? url : null;
}

/**
 * The realm's own answer for one media path, fetched with the account's credentials and the
 * redirect rules above (a 404 or 502 made here when the path or a redirect is refused). Main-side
 * callers that keep the bytes themselves (meeting downloads) read this; the page gets
 * fetchRealmMedia's inert copy.
 */
export async function fetchRealmFile(
  client: ApiClient,
  realmPath: string,
  options: { signal?: AbortSignal; range?: string | null; fetch?: typeof fetch } = {},
): Promise<Response> {
  const { signal, range } = options;
  const fetchImpl = options.fetch ?? fetch;
  let url = realmMediaUrl(client.site, realmPath);
  if (!url) return new Response('Not found', { status: 404 });
  const origin = url.origin;
  let upstream: Response;
  for (let hop = 0; ; hop += 1) {
    const sameOrigin = url.origin === origin;
    const headers: Record<string, string> = range && BYTE_RANGE.test(range) ? { range } : {};
    if (sameOrigin) headers.authorization = client.authorizationHeader() ?? '';
    upstream = await fetchImpl(url, {
      headers,
      redirect: 'manual',
      signal,
    });
    const location = upstream.headers.get('location');
    if (upstream.status < 300 || upstream.status >= 400 || !location) break;
    await upstream.body?.cancel();
    let next: URL;
    try {
      next = new URL(location, url);
    } catch {
      return new Response('Bad gateway', { status: 502 });
    }
    // Redirects are the realm's choice (e.g. to file storage), but never beyond http(s) and never
    // back to a path of the realm other than the media ones, and never endlessly.
    const allowed =
      (next.protocol === 'https:' || next.protocol === 'http:') &&
      (next.origin !== origin ||
        realmMediaUrl(client.site, relativeTo(client.site, next)) !== null);
    if (!allowed || hop >= MAX_REDIRECTS) return new Response('Bad gateway', { status: 502 });
    url = next;
  }
  return upstream;
}

export async function fetchRealmMedia(
  client: ApiClient,
  realmPath: string,
  signal?: AbortSignal,
  range?: string | null,
): Promise<Response> {
  const upstream = await fetchRealmFile(client, realmPath, { signal, range });
  const headers = new Headers();
  for (const name of PASSED_HEADERS) {
    const value = upstream.headers.get(name);
    if (value) headers.set(name, value);
  }
  if (ACTIVE_TYPES.test(headers.get('content-type') ?? '')) {
    headers.set('content-type', 'text/plain; charset=utf-8');
  }
  headers.set('x-content-type-options', 'nosniff');
  headers.set('content-security-policy', MEDIA_CSP);
  return new Response(upstream.body, { status: upstream.status, headers });
}

/** The site as a base URL (with its trailing slash), against which realm paths resolve. */
export function siteBase(site: string): URL {
  return new URL(site.endsWith('/') ? site : `${site}/`);
}

/** A URL on the site as a realm path (`user_uploads/…?…`, no leading slash). */
export function relativeTo(site: string, url: URL): string {
  const base = siteBase(site);
  return `${url.pathname.slice(base.pathname.length)}${url.search}`;
}
