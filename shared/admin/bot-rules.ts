// Rules for outgoing-webhook bots, shared by the local server (which enforces them on POST /bots
// and PATCH /bots/{id}) and the bot settings screen (which checks before sending, in the same
// words).

/** Payload formats (the bot's `interface`): the public server's own, and Slack's. */
export const OUTGOING_WEBHOOK_INTERFACES: ReadonlyArray<readonly [1 | 2, string]> = [
  [1, 'Zulip'],
  [2, 'Slack compatible'],
];

export const interfaceName = (value: number | undefined): string =>
  OUTGOING_WEBHOOK_INTERFACES.find(([id]) => id === value)?.[1] ?? `Interface ${value ?? '?'}`;

/**
 * An endpoint the server may call: http or https, without credentials in it (they would travel
 * with every payload; a bot authenticates calls by the payload's token). Returns the normalized
 * URL, or null.
 */
export function normalizePayloadUrl(text: string): string | null {
  try {
    const url = new URL(text.trim());
    const web = url.protocol === 'http:' || url.protocol === 'https:';
    return web && url.username === '' && url.password === '' ? url.toString() : null;
  } catch {
    return null;
  }
}

/** The public server's refusal of a value that is not a URL, naming the parameter. */
export const notAUrl = (parameter: 'payload_url' | 'service_payload_url'): string =>
  `${parameter} is not a URL`;
