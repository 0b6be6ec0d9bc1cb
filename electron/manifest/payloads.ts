// Reads transcript payloads named by payloadRef (a file beside the manifest or an attachment) and
// checks their declared sha256 and byteLength.
import { createHash } from 'node:crypto';
import { isPlainObject, type Finding } from '../../shared/manifest';
import type { AttachmentBytes } from './attachment-bytes';
import { readInsideFolder } from './safe-files';

/** Transcripts are text; anything larger is refused rather than read into memory. */
export const MAX_PAYLOAD_BYTES = 64 * 1024 * 1024;
const SHA256_HEX = /^[0-9a-f]{64}$/;

export interface PayloadContext {
  folder: string;
  /** The manifest's `attachments`, as they are (possibly malformed). */
  attachments: unknown;
  /** Decodes each attachment once for the whole inspection. */
  attachmentBytes: AttachmentBytes;
}

export interface PayloadRead {
  bytes?: Uint8Array;
  errors: Finding[];
}

/** Finds an attachment by name; returns its first match's item. */
export function findAttachment(
  attachments: unknown,
  name: string,
): Record<string, unknown> | undefined {
  if (!Array.isArray(attachments)) return undefined;
  return attachments.find((a): a is Record<string, unknown> => isPlainObject(a) && a.name === name);
}

/** The bytes a well-formed payloadRef names, or why they cannot be read. */
async function loadBytes(
  ctx: PayloadContext,
  ref: Record<string, unknown>,
): Promise<{ bytes?: Uint8Array; reason?: string }> {
  if (typeof ref.path === 'string')
    return readInsideFolder(ctx.folder, ref.path, MAX_PAYLOAD_BYTES);
  if (typeof ref.attachment === 'string') {
    const item = findAttachment(ctx.attachments, ref.attachment);
    if (!item || typeof item.contentBase64 !== 'string')
      return { reason: `no attachment named "${ref.attachment}"` };
    const bytes = ctx.attachmentBytes.of(item);
    if (!bytes) return { reason: `attachment "${ref.attachment}" is not valid base64` };
    return { bytes };
  }
  return { reason: 'the payloadRef names neither a path nor an attachment' };
}

/**
 * Reads one payload and checks it. `refPointer` is the JSON Pointer of the payloadRef, used in findings.
 * A ref that the decoder already rejected (both or neither of path/attachment, unsafe path) is not read.
 */
export async function readPayload(
  ctx: PayloadContext,
  ref: unknown,
  refPointer: string,
): Promise<PayloadRead> {
  if (!isPlainObject(ref)) return { errors: [] };
  const { bytes, reason } = await loadBytes(ctx, ref);
  if (!bytes) {
    return {
      errors: [
        {
          code: 'payload-unreadable',
          path: refPointer,
          message: `payload cannot be read: ${reason}`,
        },
      ],
    };
  }
  const errors: Finding[] = [];
  if (Number.isInteger(ref.byteLength) && ref.byteLength !== bytes.length) {
    errors.push({
      code: 'payload-length-mismatch',
      path: `${refPointer}/byteLength`,
      message: `the payload has ${bytes.length} bytes, the manifest says ${ref.byteLength}`,
    });
  }
  if (typeof ref.sha256 === 'string' && SHA256_HEX.test(ref.sha256)) {
    const actual = createHash('sha256').update(bytes).digest('hex');
    if (actual !== ref.sha256) {
      errors.push({
        code: 'payload-hash-mismatch',
        path: `${refPointer}/sha256`,
        message: `the payload's SHA-256 is ${actual}, the manifest says ${ref.sha256}`,
      });
    }
  }
  return { bytes, errors };
}

/** True when the decoder found nothing wrong with this payloadRef itself, so reading it makes sense. */
export function isReadableRef(
  ref: unknown,
  refPointer: string,
  decodeErrors: readonly Finding[],
): boolean {
  if (!isPlainObject(ref)) return false;
  return !decodeErrors.some(
    (f) =>
      f.code === 'bad-payload-ref' &&
      (f.path === refPointer || f.path.startsWith(refPointer + '/')),
  );
}
