// The app:// protocol: serves the built renderer (dist/renderer) to Electron windows, with the CSP,
// and refuses any path that would leave that folder. Also the media protocol, through which the
// renderer loads realm images fetched by main with the account's credentials.
import { readFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { extname, resolve, sep } from 'node:path';
import type { Protocol } from 'electron';
import { MEDIA_SCHEME } from '../../shared/ipc/wire';
import { MEETING_AUDIO_HOST } from '../../shared/ipc/manifest';
import { contentSecurityPolicy, earlyScriptHashes, SECURITY_HEADERS } from '../host/csp';

export const APP_SCHEME = 'app';
export const APP_HOST = 'tributary';

const MIME: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json',
  '.map': 'application/json',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.webp': 'image/webp',
  '.woff2': 'font/woff2',
  // KaTeX's older font formats, beside its woff2 (which Chromium loads first).
  '.woff': 'font/woff',
  '.ttf': 'font/ttf',
  '.ico': 'image/x-icon',
  '.wasm': 'application/wasm',
};

/** Maps app://tributary/<path> to a file under rendererDir, or null when it would escape it. */
export function resolveAppPath(rendererDir: string, requestUrl: string): string | null {
  let url: URL;
  try {
    url = new URL(requestUrl);
  } catch {
    return null;
  }
  if (url.protocol !== `${APP_SCHEME}:` || url.host !== APP_HOST) return null;
  let pathname: string;
  try {
    pathname = decodeURIComponent(url.pathname);
  } catch {
    return null;
  }
  if (pathname.includes('\0')) return null;
  const root = resolve(rendererDir);
  const target = resolve(root, `.${pathname === '/' ? '/index.html' : pathname}`);
  if (target !== root && !target.startsWith(root + sep)) return null;
  return target;
}

export const APP_CSP = contentSecurityPolicy({ media: [`${MEDIA_SCHEME}:`] });

/** APP_CSP with the built page's inline early script allowed by its hash (csp.ts). */
function pageCsp(rendererDir: string): string {
  let scripts: string[] = [];
  try {
    scripts = earlyScriptHashes(readFileSync(resolve(rendererDir, 'index.html'), 'utf8'));
  } catch {
    // Not built: every answer is a 404 anyway.
  }
  return contentSecurityPolicy({ media: [`${MEDIA_SCHEME}:`], scripts });
}

export function registerAppProtocol(protocol: Pick<Protocol, 'handle'>, rendererDir: string): void {
  const csp = pageCsp(rendererDir);
  protocol.handle(APP_SCHEME, async (request) => {
    const path = resolveAppPath(rendererDir, request.url);
    if (!path) return new Response('Not found', { status: 404 });
    try {
      const body = await readFile(path);
      return new Response(body, {
        status: 200,
        headers: {
          'content-type': MIME[extname(path).toLowerCase()] ?? 'application/octet-stream',
          'content-security-policy': csp,
          ...SECURITY_HEADERS,
        },
      });
    } catch {
      return new Response('Not found', { status: 404 });
    }
  });
}

export function registerMediaProtocol(
  protocol: Pick<Protocol, 'handle'>,
  fetchMedia: (accountId: string, realmPath: string, range: string | null) => Promise<Response>,
  /** Verified meeting audio (tributary-media://meeting-audio/<token>), with Range support. */
  serveMeetingAudio?: (request: Request) => Response,
): void {
  protocol.handle(MEDIA_SCHEME, async (request) => {
    const url = new URL(request.url);
    if (serveMeetingAudio && url.host === MEETING_AUDIO_HOST) return serveMeetingAudio(request);
    const path = `${decodeURIComponent(url.pathname).replace(/^\/+/, '')}${url.search}`;
    return fetchMedia(decodeURIComponent(url.host), path, request.headers.get('range'));
  });
}
