// What the app's register answer is made of, for bench:large: the owner's POST /register with the
// event loop's own parameters (electron/events/event-loop.ts), its bytes in all and per key (the
// largest first), with the counts of the lists and the subscribers inside the channel lists.
// Asked once the launches are timed: the answer is built anew by the realm, which would otherwise
// compete with them.
import { DEFAULT_REGISTER_PARAMS } from '../../shared/api/register-params';

export interface RegisterSize {
  bytes: number;
  /** Server build + transfer, as the bench's own client sees it (wall time, one request). */
  requestMs: number;
  keys: Array<{ key: string; bytes: number; count?: number }>;
  /** Subscriber ids inside subscriptions and never_subscribed, and their bytes. */
  subscribers: { count: number; bytes: number };
}

export async function registerSize(
  realmUrl: string,
  owner: { email: string; api_key: string },
): Promise<RegisterSize> {
  const form = new URLSearchParams();
  for (const [name, value] of Object.entries(DEFAULT_REGISTER_PARAMS)) {
    form.set(name, typeof value === 'string' ? value : JSON.stringify(value));
  }
  const started = performance.now();
  const res = await fetch(`${realmUrl}/api/v1/register`, {
    method: 'POST',
    headers: {
      authorization: `Basic ${Buffer.from(`${owner.email}:${owner.api_key}`).toString('base64')}`,
      'content-type': 'application/x-www-form-urlencoded',
    },
    body: form,
  });
  const text = await res.text();
  const requestMs = performance.now() - started;
  if (!res.ok) throw new Error(`register: ${res.status} ${text.slice(0, 200)}`);
  const body = JSON.parse(text) as Record<string, unknown>;
  const keys = Object.entries(body)
    .map(([key, value]) => ({
      key,
      bytes: Buffer.byteLength(JSON.stringify(value)),
      ...(Array.isArray(value) ? { count: value.length } : {}),
    }))
    .sort((a, b) => b.bytes - a.bytes);
  const subscribers = { count: 0, bytes: 0 };
  for (const list of ['subscriptions', 'never_subscribed', 'unsubscribed']) {
    for (const channel of (body[list] ?? []) as Array<{ subscribers?: number[] }>) {
      subscribers.count += channel.subscribers?.length ?? 0;
      subscribers.bytes += channel.subscribers ? JSON.stringify(channel.subscribers).length : 0;
    }
  }
  return { bytes: Buffer.byteLength(text), requestMs, keys, subscribers };
}

/** One line per key from the largest down to `minBytes`, and the rest summed. */
export function describeRegisterSize(size: RegisterSize, minBytes = 10_000): string {
  const kb = (n: number) => `${(n / 1000).toFixed(n < 10_000 ? 1 : 0)} KB`;
  const big = size.keys.filter((k) => k.bytes >= minBytes);
  const rest = size.keys.slice(big.length);
  return [
    `register answer (the app's parameters): ${(size.bytes / 1e6).toFixed(2)} MB in ${Math.round(size.requestMs)} ms, ${size.keys.length} keys`,
    ...big.map(
      (k) => `  ${k.key}: ${kb(k.bytes)}${k.count === undefined ? '' : ` (${k.count} entries)`}`,
    ),
    `  ${rest.length} other keys: ${kb(rest.reduce((n, k) => n + k.bytes, 0))}`,
    `  of which channels' subscribers: ${size.subscribers.count} ids, ${kb(size.subscribers.bytes)}`,
  ].join('\n');
}
