// A handler's answer can carry JSON text main already has (the cached snapshot, decrypted from the
// local cache) instead of the object it stands for: parsing megabytes only to serialize them again
// for the page costs main a second or more on a large organization's start. The WebSocket bridge
// splices the text into its frame as it is; Electron's IPC (structured clone) needs the object, so
// its transport parses it there.
import { randomUUID } from 'node:crypto';

/** JSON text standing for a value in a handler's answer (only as a property of the answer). */
export class RawJson {
  constructor(readonly text: string) {}

  /** Any other serializer still gets the right value. */
  toJSON(): unknown {
    return JSON.parse(this.text) as unknown;
  }
}

/**
 * JSON.stringify of a bridge frame, with each RawJson property of its answer (`frame.value`) put in
 * place as the text it is. They are swapped for markers before stringify runs: stringify would
 * call their toJSON (a full parse) before any replacer could see them.
 */
export function stringifyWithRawJson(frame: object): string {
  const value = (frame as { value?: unknown }).value;
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    return JSON.stringify(frame);
  }
  const texts: string[] = [];
  // A marker no other string in the frame can be: a random nonce per call.
  const nonce = randomUUID();
  const marked: Record<string, unknown> = {};
  for (const [key, property] of Object.entries(value)) {
    if (property instanceof RawJson) {
      marked[key] = `raw-json:${nonce}:${texts.length}`;
      texts.push(property.text);
    } else marked[key] = property;
  }
  if (texts.length === 0) return JSON.stringify(frame);
  const json = JSON.stringify({ ...frame, value: marked });
  const marker = new RegExp(`"raw-json:${nonce}:(\\d+)"`, 'g');
  return json.replace(marker, (_match, index: string) => texts[Number(index)]!);
}

/** The answer with each RawJson property replaced by the value it stands for (structured clone). */
export function parseRawJson(value: unknown): unknown {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return value;
  const entries = Object.entries(value);
  if (!entries.some(([, v]) => v instanceof RawJson)) return value;
  return Object.fromEntries(entries.map(([k, v]) => [k, v instanceof RawJson ? v.toJSON() : v]));
}
