/**
 * A value that is already JSON: a top-level member of a response (pre-serialized events) or of an
 * event body (a subscription list built as text). Written as is by the envelope and the event hub.
 */
export class RawJson {
  constructor(readonly text: string) {}
}
