// A handler's answer can carry JSON main already has (the cached snapshot, decrypted from the local
// cache) instead of the object it stands for: parsing megabytes only to serialize them again for
// the page costs main a second or more on a large organization's start. The WebSocket bridge
// splices the JSON into its frame as it is, and when it is UTF-8 bytes (as the cache decrypts it)
// the frame is bytes too: the megabytes are never decoded into a string and encoded back. Electron's
// IPC (structured clone) needs the object, so its transport parses it there.
import { randomUUID } from 'node:crypto';

/**
 * JSON standing for a value in a handler's answer (only as a property of the answer): text, or
 * its UTF-8 bytes.
 */
export class RawJson {
  constructor(readonly text: string | Uint8Array) {}

  /** Any other serializer still gets the right value. */
  toJSON(): unknown {
    const { text } = this;
    return JSON.parse(typeof text === 'string' ? text : Buffer.from(text).toString('utf8'));
  }
}

/**
 * JSON.stringify of a bridge frame, with each RawJson property of its answer (`frame.value`) put in
 * place as the JSON it is: a string, or UTF-8 bytes when any of them is bytes (a WebSocket text
 * frame either way). They are swapped for markers before stringify runs: stringify would call their
 * toJSON (a full parse) before any replacer could see them.
 */
export function stringifyWithRawJson(frame: object): string | Buffer {
  const value = (frame as { value?: unknown }).value;
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    return JSON.stringify(frame);
  }
  const raws: Array<string | Uint8Array> = [];
  // A marker no other string in the frame can be: a random nonce per call.
  const nonce = randomUUID();
  const marked: Record<string, unknown> = {};
  for (const [key, property] of Object.entries(value)) {
    if (property instanceof RawJson) {
      marked[key] = `raw-json:${nonce}:${raws.length}`;
      raws.push(property.text);
    } else marked[key] = property;
  }
  if (raws.length === 0) return JSON.stringify(frame);
  const json = JSON.stringify({ ...frame, value: marked });
  const marker = new RegExp(`"raw-json:${nonce}:(\\d+)"`, 'g');
  if (raws.every((raw) => typeof raw === 'string')) {
    return json.replace(marker, (_match, index: string) => raws[Number(index)] as string);
  }
  // split() with a capture group: the frame's own JSON, then a raw's index, and so on.
  const parts = json.split(marker);
  return Buffer.concat(
    parts.map((part, i) => {
      if (i % 2 === 0) return Buffer.from(part, 'utf8');
      const raw = raws[Number(part)]!;
      return typeof raw === 'string' ? Buffer.from(raw, 'utf8') : raw;
    }),
  );
}

/** The answer with each RawJson property replaced by the value it stands for (structured clone). */
export function parseRawJson(value: unknown): unknown {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return value;
  const entries = Object.entries(value);
  if (!entries.some(([, v]) => v instanceof RawJson)) return value;
  return Object.fromEntries(entries.map(([k, v]) => [k, v instanceof RawJson ? v.toJSON() : v]));
}

/** JSON already made for a value, while a push of it runs (withKnownJson). */
const knownJson = new WeakMap<object, string>();

/**
 * Runs `use` (a push) with `json` known as `value`'s JSON, so the bridge splices it into its frame
 * (knownJsonOf) instead of serializing `value` again: a large organization's register, which
 * main has as the server's text. Known only meanwhile, so main keeps no second copy of it. The
 * value must be what the JSON says.
 */
export function withKnownJson<T>(value: object, json: string, use: () => T): T {
  knownJson.set(value, json);
  try {
    return use();
  } finally {
    knownJson.delete(value);
  }
}

/** The JSON known for `value` while a push of it runs (withKnownJson), if any. */
export function knownJsonOf(value: unknown): string | undefined {
  return typeof value === 'object' && value !== null ? knownJson.get(value) : undefined;
}
