// The client name a request identifies as (stored as a message's `client`, recorded for queues) and
// the read_by_sender default it implies. The public API decides from the client whether a message
// was typed by a human at a full UI (marked read for its sender) or sent by an integration using
// the user's key (left unread, so the user notices it).
//
// Name: the `client` parameter when given; else from the User-Agent: a browser ("Mozilla/…", our
// renderer in browser mode, which cannot set its own User-Agent) is "website", the official
// desktop app ("… ZulipElectron/x …") is "ZulipElectron", anything else is its first product token
// ("Tributary" for electron/api/client.ts, "ZulipMobile/27.2 (Android)" -> "ZulipMobile");
// no User-Agent at all is "API".

const HUMAN_CLIENTS = new Set([
  'website',
  'tributary',
  'zulipandroid',
  'zulipios',
  'zulipdesktop',
  'zulipmobile',
  'zulipelectron',
  'zulipterminal',
  'snipe',
  'ios',
  'android',
  'test suite',
]);

export function clientNameFrom(
  explicit: string | undefined,
  userAgent: string | undefined,
): string {
  const given = explicit?.trim();
  if (given) return given;
  const agent = userAgent?.trim() ?? '';
  if (agent === '') return 'API';
  if (/\bZulipElectron\//.test(agent)) return 'ZulipElectron';
  if (/^Mozilla\//.test(agent)) return 'website';
  return /^[^/\s]+/.exec(agent)?.[0] ?? 'API';
}

/** Whether a message sent by this client is marked read for its sender when not said. */
export function defaultReadBySender(clientName: string): boolean {
  const name = clientName.toLowerCase();
  return HUMAN_CLIENTS.has(name) || name.includes('desktop app');
}
