// The Content-Security-Policy of the renderer, the same in Electron (app://) and browser mode: only
// our own bundle runs, nothing loads from the network, and the page can reach main only through the
// bridge (browser mode) or IPC (Electron). One inline script is allowed, by its hash: the page's
// early script (renderer/first-screen.ts), which vite.config.ts puts into the page itself so it runs
// as the page is parsed instead of after a fetch of its own.
import { createHash } from 'node:crypto';

export function contentSecurityPolicy(
  options: { connect?: string[]; media?: string[]; scripts?: string[] } = {},
): string {
  const media = ["'self'", 'blob:', 'data:', ...(options.media ?? [])].join(' ');
  return [
    "default-src 'self'",
    ["script-src 'self'", ...(options.scripts ?? [])].join(' '),
    "style-src 'self' 'unsafe-inline'",
    `img-src ${media}`,
    `media-src ${media}`,
    "font-src 'self' data:",
    `connect-src 'self' ${(options.connect ?? []).join(' ')}`.trim(),
    "object-src 'none'",
    "base-uri 'none'",
    "form-action 'none'",
    "frame-src 'none'",
    "frame-ancestors 'none'",
    "worker-src 'self' blob:",
  ].join('; ');
}

export const SECURITY_HEADERS: Record<string, string> = {
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'no-referrer',
  'cross-origin-opener-policy': 'same-origin',
  'x-frame-options': 'DENY',
  'permissions-policy': 'camera=(), microphone=(), geolocation=()',
};

/** The attribute that marks the page's early script, the only inline script the CSP lets run. */
export const EARLY_SCRIPT_ATTRIBUTE = 'data-first-screen';

/**
 * The CSP sources ('sha256-…') of the page's inline scripts marked as its early script (vite.config.ts
 * writes one): the exact text the build put there runs, no other inline script does.
 */
export function earlyScriptHashes(html: string): string[] {
  const hashes: string[] = [];
  for (const match of html.matchAll(/<script\b([^>]*)>([\s\S]*?)<\/script>/gi)) {
    const [, attributes, body] = match;
    if (!new RegExp(`\\s${EARLY_SCRIPT_ATTRIBUTE}(?:[\\s=>]|$)`).test(attributes)) continue;
    if (/\ssrc=/i.test(attributes)) continue;
    hashes.push(`'sha256-${createHash('sha256').update(body, 'utf8').digest('base64')}'`);
  }
  return hashes;
}
