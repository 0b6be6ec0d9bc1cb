// The decoded bytes of a manifest's embedded attachments, each decoded at most once per inspection: an
// embedded recording can be hundreds of megabytes of base64, and the audio check, the transcript
// payloads and the session's attachment list (save, preview, playback) all need the same bytes.
import { decodeBase64 } from './safe-files';

export class AttachmentBytes {
  // Keyed by the attachment object itself: two attachments may share a name.
  private readonly decoded = new Map<object, Uint8Array | null>();

  /** The attachment's bytes, or null when its contentBase64 is missing or not valid base64. */
  of(item: Record<string, unknown>): Uint8Array | null {
    let bytes = this.decoded.get(item);
    if (bytes === undefined) {
      bytes = typeof item.contentBase64 === 'string' ? decodeBase64(item.contentBase64) : null;
      this.decoded.set(item, bytes);
    }
    return bytes;
  }
}
