// The spec (chat-api.md, its notation paragraph) writes a few identifiers with neutral words where the
// public API's own names carry brand words. On the wire every server, the local one included, knows
// the public names, so they are what the client sends and what the wire types in shared/api use.
// This table is the one place the renaming is written down: the API client translates any neutral
// name that reaches it, and the local server accepts both spellings through it.

export type PublicNameKind = 'param' | 'field' | 'event' | 'value' | 'path';

export interface PublicName {
  readonly neutral: string;
  readonly public: string;
  /** Where the name appears: a request parameter, a response field, an event type, an enumerated value, a path. */
  readonly kinds: readonly PublicNameKind[];
}

export const PUBLIC_NAMES: readonly PublicName[] = [
  { neutral: 'client_extavatar', public: 'client_gravatar', kinds: ['param'] },
  { neutral: 'lexer_language', public: 'pygments_language', kinds: ['param', 'field'] },
  { neutral: 'has_videoprovider_token', public: 'has_zoom_token', kinds: ['field', 'event'] },
  { neutral: 'svc_extra_emoji', public: 'zulip_extra_emoji', kinds: ['value'] },
  {
    neutral: '/users/me/platform_a_device_token',
    public: '/users/me/apns_device_token',
    kinds: ['path'],
  },
  {
    neutral: '/users/me/platform_b_reg_id',
    public: '/users/me/android_gcm_reg_id',
    kinds: ['path'],
  },
  { neutral: '/calls/videoprovider/create', public: '/calls/zoom/create', kinds: ['path'] },
  // Not a path of the server: the documented name of the request a server makes to a bot's URL.
  { neutral: '/svc-outgoing-webhook', public: '/zulip-outgoing-webhook', kinds: ['path'] },
];

const toPublic = new Map(PUBLIC_NAMES.map((n) => [n.neutral, n.public]));
const toNeutral = new Map(PUBLIC_NAMES.map((n) => [n.public, n.neutral]));

/** The public API's name for a neutral identifier; any other name unchanged. */
export function publicName(name: string): string {
  return toPublic.get(name) ?? name;
}

/** The spec's neutral identifier for a public name; any other name unchanged. */
export function neutralName(name: string): string {
  return toNeutral.get(name) ?? name;
}

/** Both spellings of an identifier, the public one first (a server route or parameter and its alias). */
export function bothSpellings(neutral: string): [string, string] | [string] {
  const pub = publicName(neutral);
  return pub === neutral ? [neutral] : [pub, neutral];
}

/** Parameters whose string value is an enumerated value the table may rename (never free text). */
const ENUM_PARAMS = new Set(['reaction_type']);

/**
 * A request as the public API spells it: the path, every parameter name and the enumerated values
 * renamed from the spec's neutral words. Other values pass unchanged.
 */
export function toPublicRequest(
  path: string,
  params: Record<string, unknown>,
): { path: string; params: Record<string, unknown> } {
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(params)) {
    out[publicName(key)] =
      ENUM_PARAMS.has(key) && typeof value === 'string' ? publicName(value) : value;
  }
  return { path: publicName(path), params: out };
}

/**
 * A web_home_view as the public server spells it. Not a brand word, so not in the table: the spec's
 * settings table writes Recent conversations `recent`, but a public server accepts and sends only
 * `recent_topics` (zerver/views/user_settings.py). The app sends `recent_topics`; the local server
 * accepts both and returns the one it was given, so whatever a server sends is read through this.
 */
export function publicHomeView<T>(value: T): T | 'recent_topics' {
  return value === 'recent' ? 'recent_topics' : value;
}
