/**
 * A value that is already JSON: a top-level member of a response (pre-serialized events) or of an
 * event body (a subscription list built as text). Written as is by the envelope and the event hub.
 */
export class RawJson {
  constructor(readonly text: string) {}
}

/**
 * A top-level member of a response already encoded as UTF-8 JSON, in pieces: a large answer (5,000
 * messages, megabytes) encoded piece by piece between slices of the loop, so the envelope is
 * written as bytes, never serialized and encoded as one string in one turn (bench/hostile-load).
 */
export class JsonBytes {
  constructor(readonly pieces: readonly Buffer[]) {}

  /** A JSON array of elements given as UTF-8 JSON texts without brackets, joined by commas. */
  static array(items: readonly Buffer[]): JsonBytes {
    const pieces: Buffer[] = [OPEN];
    items.forEach((item, i) => pieces.push(...(i > 0 ? [COMMA, item] : [item])));
    pieces.push(CLOSE);
    return new JsonBytes(pieces);
  }
}

/**
 * A top-level member written straight into its answer's one buffer, sent with its length: poll
 * answers (events/queue.ts), a few hundred bytes to about a megabyte. Built as pieces, an answer
 * made a buffer per event for its id, a piece per member of the envelope and then a copy of all
 * of them; at 1,600 answers/s (bench:hostile) that was about 6 % of the server's thread.
 */
export abstract class DirectJson {
  /** Its length in UTF-8 bytes. */
  abstract readonly byteLength: number;
  /** Writes its bytes into `target` at `at`; returns the offset after them. */
  abstract writeTo(target: Buffer, at: number): number;
}

const OPEN = Buffer.from('[');
const COMMA = Buffer.from(',');
const CLOSE = Buffer.from(']');

/**
 * An object's members as JSON, split around the members `asIs` takes (it returns what to put in
 * their place, or undefined for a member to give as text): texts[i] comes before members[i], the
 * last text after them all. `memberText` gives the others (undefined leaves a member out, as
 * JSON.stringify does).
 */
function objectJsonParts<T>(
  object: Record<string, unknown>,
  memberText: (value: unknown) => string | undefined,
  asIs: (value: unknown) => T | undefined,
): { texts: string[]; members: T[] } {
  const texts: string[] = [];
  const members: T[] = [];
  let text = '{';
  let first = true;
  for (const key in object) {
    const value = object[key];
    const kept = asIs(value);
    const member = kept === undefined ? memberText(value) : kept;
    if (member === undefined) continue;
    text += `${first ? '' : ','}${JSON.stringify(key)}:`;
    first = false;
    if (typeof member === 'string') {
      text += member;
    } else {
      texts.push(text);
      members.push(member);
      text = '';
    }
  }
  texts.push(`${text}}`);
  return { texts, members };
}

/**
 * An object's JSON as UTF-8 pieces: members already encoded (JsonBytes) are copied as their
 * pieces, the others given as text by `memberText` and encoded between them.
 */
export function objectJsonPieces(
  object: Record<string, unknown>,
  memberText: (value: unknown) => string | undefined,
): Buffer[] {
  const { texts, members } = objectJsonParts(object, memberText, encodedPieces);
  const pieces: Buffer[] = [];
  texts.forEach((text, i) => {
    if (text.length > 0) pieces.push(Buffer.from(text));
    if (i < members.length) pieces.push(...members[i]);
  });
  return pieces;
}

const encodedPieces = (value: unknown): readonly Buffer[] | undefined =>
  value instanceof JsonBytes
    ? value.pieces
    : value instanceof DirectJson
      ? [directBytes(value)]
      : undefined;

function directBytes(member: DirectJson): Buffer {
  const bytes = Buffer.allocUnsafe(member.byteLength);
  member.writeTo(bytes, 0);
  return bytes;
}

/**
 * An object's JSON in one buffer, its DirectJson members written in place and the others given as
 * text by `memberText`.
 */
export function objectJsonBuffer(
  object: Record<string, unknown>,
  memberText: (value: unknown) => string | undefined,
): Buffer {
  const { texts, members } = objectJsonParts(object, memberText, directMember);
  let length = 0;
  for (const text of texts) length += Buffer.byteLength(text);
  for (const member of members) length += member.byteLength;
  const target = Buffer.allocUnsafe(length);
  let at = 0;
  for (let i = 0; i < texts.length; i++) {
    at += target.write(texts[i], at);
    if (i < members.length) at = members[i].writeTo(target, at);
  }
  return target;
}

const directMember = (value: unknown) => (value instanceof DirectJson ? value : undefined);
