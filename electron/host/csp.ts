// The Content-Security-Policy of the renderer, the same in Electron (app://) and browser mode: only
// our own bundle runs, nothing loads from the network, and the page can reach main only through the
// bridge (browser mode) or IPC (Electron).

export function contentSecurityPolicy(
  options: { connect?: string[]; media?: string[] } = {},
): string {
  const media = ["'self'", 'blob:', 'data:', ...(options.media ?? [])].join(' ');
  return [
    "default-src 'self'",
    "script-src 'self'",
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
