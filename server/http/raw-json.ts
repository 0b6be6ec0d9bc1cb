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
  /**
   * `oneBuffer`: the envelope copies the pieces into one buffer and sends it with its length,
   * instead of streaming them (chunked): for answers of about a megabyte at most whose clients may
   * read them by Content-Length, such as poll answers (events/queue.ts).
   */
  constructor(
    readonly pieces: readonly Buffer[],
    readonly options: { oneBuffer?: boolean } = {},
  ) {}

  /** A JSON array of elements given as UTF-8 JSON texts without brackets, joined by commas. */
  static array(items: readonly Buffer[]): JsonBytes {
    const pieces: Buffer[] = [OPEN];
    items.forEach((item, i) => pieces.push(...(i > 0 ? [COMMA, item] : [item])));
    pieces.push(CLOSE);
    return new JsonBytes(pieces);
  }
}

const OPEN = Buffer.from('[');
const COMMA = Buffer.from(',');
const CLOSE = Buffer.from(']');

/**
 * An object's JSON as UTF-8 pieces: members already encoded (JsonBytes) are copied as their
 * pieces, the others given as text by `memberText` (undefined leaves a member out, as
 * JSON.stringify does) and encoded between them.
 */
export function objectJsonPieces(
  object: Record<string, unknown>,
  memberText: (value: unknown) => string | undefined,
): Buffer[] {
  const pieces: Buffer[] = [];
  let text = '{';
  let first = true;
  for (const [key, value] of Object.entries(object)) {
    const member = value instanceof JsonBytes ? value.pieces : memberText(value);
    if (member === undefined) continue;
    text += `${first ? '' : ','}${JSON.stringify(key)}:`;
    first = false;
    if (typeof member === 'string') {
      text += member;
    } else {
      pieces.push(Buffer.from(text), ...member);
      text = '';
    }
  }
  pieces.push(Buffer.from(`${text}}`));
  return pieces;
}
