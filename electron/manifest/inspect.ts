// Checks one manifest file end to end: decode, read every payload, parse transcripts, find the audio
// and verify its integrity. The report is plain data: the CLI prints it, the main process sends it to
// the viewer over IPC. What only main may hold (the verified audio's file identity, attachment bytes)
// comes beside the report, never inside it.
import { readFile, stat } from 'node:fs/promises';
import { dirname, resolve } from 'node:path';
import {
  compareIntegrity,
  decodeManifest,
  isPlainObject,
  parseTranscript,
  pointer,
  type Finding,
  type IntegrityOutcome,
  type ManifestReport,
  type SpeakerRef,
  type TranscriptView,
} from '../../shared/manifest';
import type { HashFactory } from '../../shared/ogg';
import { AttachmentBytes } from './attachment-bytes';
import { locateAudio, readAudioIntegrity } from './audio';
import { isReadableRef, readPayload, type PayloadContext } from './payloads';
import type { VerifiedAudio } from './verified-audio';

export interface InspectOptions {
  /** An audio file the user picked; it replaces discovery. */
  audioPath?: string;
  /** Incremental SHA-256 for the audio packets; node:crypto by default. */
  hash?: HashFactory;
}

/** The manifest is read whole; embedded attachments (a recording) make it large, not this large. */
export const MAX_MANIFEST_BYTES = 512 * 1024 * 1024;

/** The manifest file itself could not be read (as opposed to being read and found invalid). */
export class ManifestReadError extends Error {}

/** An attachment of a manifest that decoded without errors; bytes null when not valid base64. */
export interface DecodedAttachment {
  name: string;
  mime: string;
  bytes: Uint8Array | null;
}

export interface ManifestInspection {
  report: ManifestReport;
  /**
   * Only when the integrity is `verified`: the audio that was checked (the file's identity from the
   * handle it was read through, or the attachment's bytes). Playback is bound to this, never to what
   * the path names later.
   */
  verifiedAudio: VerifiedAudio | null;
  /** report.manifest's attachments, each decoded once (the audio check reused the same bytes). */
  attachments: DecodedAttachment[];
}

/** The report alone (the command line): attachments are decoded only as far as the checks need. */
export async function inspectManifestFile(
  manifestPath: string,
  options: InspectOptions = {},
): Promise<ManifestReport> {
  return (await inspect(manifestPath, options)).report;
}

/** The report and what main keeps beside it: the verified audio and every attachment decoded. */
export async function inspectManifest(
  manifestPath: string,
  options: InspectOptions = {},
): Promise<ManifestInspection> {
  const { report, verifiedAudio, attachmentBytes } = await inspect(manifestPath, options);
  // report.manifest is the checked document itself: these are the objects the checks decoded.
  const attachments = (report.manifest?.attachments ?? []).map((item) => ({
    name: item.name,
    mime: item.mime,
    bytes: attachmentBytes.of(item),
  }));
  return { report, verifiedAudio, attachments };
}

async function inspect(
  manifestPath: string,
  options: InspectOptions,
): Promise<Omit<ManifestInspection, 'attachments'> & { attachmentBytes: AttachmentBytes }> {
  const attachmentBytes = new AttachmentBytes();
  const bytes = await readManifestBytes(manifestPath);
  const decoded = decodeManifest(bytes);
  const errors = [...decoded.errors];
  const warnings = [...decoded.warnings];
  const doc = decoded.document;
  if (!doc) {
    const report: ManifestReport = {
      manifestPath,
      valid: false,
      errors,
      warnings,
      transcripts: [],
      integrity: {
        status: 'not-checked',
        mismatches: [],
        reason: 'the manifest could not be decoded',
      },
    };
    return { report, verifiedAudio: null, attachmentBytes };
  }
  const ctx: PayloadContext = {
    folder: dirname(resolve(manifestPath)),
    attachments: doc.attachments,
    attachmentBytes,
  };
  const transcripts = await readTranscripts(doc, ctx, decoded.errors, errors);
  const audio = await checkAudio(manifestPath, doc, ctx, options, decoded.errors, errors);
  const report: ManifestReport = {
    manifestPath,
    valid: errors.length === 0,
    errors,
    warnings,
    manifest: decoded.manifest,
    transcripts,
    integrity: audio.integrity,
  };
  return { report, verifiedAudio: audio.verified, attachmentBytes };
}

/** The manifest file's bytes, refusing what is not a regular file or is over MAX_MANIFEST_BYTES. */
export async function readManifestBytes(manifestPath: string): Promise<Uint8Array> {
  try {
    // Checked first: reading a device (/dev/zero) or a FIFO as the manifest would never end.
    const info = await stat(manifestPath);
    if (!info.isFile()) throw new Error('not a regular file');
    if (info.size > MAX_MANIFEST_BYTES) {
      throw new Error(`larger than ${MAX_MANIFEST_BYTES} bytes`);
    }
    return new Uint8Array(await readFile(manifestPath));
  } catch (err) {
    throw new ManifestReadError(`cannot read ${manifestPath}: ${(err as Error).message}`);
  }
}

function speakersOf(doc: Record<string, unknown>): SpeakerRef[] {
  if (!Array.isArray(doc.speakers)) return [];
  return doc.speakers.filter(
    (s): s is SpeakerRef =>
      isPlainObject(s) && typeof s.id === 'string' && typeof s.label === 'string',
  );
}

async function readTranscripts(
  doc: Record<string, unknown>,
  ctx: PayloadContext,
  decodeErrors: readonly Finding[],
  errors: Finding[],
): Promise<TranscriptView[]> {
  const speakers = speakersOf(doc);
  const views: TranscriptView[] = [];
  for (const list of ['transcripts', 'readableTranscripts'] as const) {
    const items = doc[list];
    if (!Array.isArray(items)) continue;
    for (let index = 0; index < items.length; index++) {
      const entry = items[index];
      if (!isPlainObject(entry)) continue;
      const refPointer = pointer([list, index, 'payloadRef']);
      const format = typeof entry.format === 'string' ? entry.format : '';
      const view: TranscriptView = {
        list,
        index,
        id: typeof entry.id === 'string' ? entry.id : '',
        role: typeof entry.role === 'string' ? entry.role : undefined,
        format,
        language: typeof entry.language === 'string' ? entry.language : undefined,
        isDefault: entry.default === true,
        status: 'unreadable',
        timed: false,
        cues: [],
      };
      views.push(view);
      if (!isReadableRef(entry.payloadRef, refPointer, decodeErrors)) {
        view.reason = 'the payloadRef is invalid';
        continue;
      }
      // Every payload is read and checked, also those in formats the viewer cannot show.
      const payload = await readPayload(ctx, entry.payloadRef, refPointer);
      errors.push(...payload.errors);
      if (!payload.bytes || payload.errors.length > 0) {
        view.reason = payload.errors.map((f) => f.message).join('; ');
        continue;
      }
      const parsed = parseTranscript(format, payload.bytes, speakers);
      if (parsed.ok) {
        view.status = 'parsed';
        view.timed = parsed.timed;
        view.cues = parsed.cues;
      } else {
        view.status = 'unsupported' in parsed ? 'unsupported-format' : 'unparseable';
        view.reason = parsed.reason;
      }
    }
  }
  return views;
}

async function checkAudio(
  manifestPath: string,
  doc: Record<string, unknown>,
  ctx: PayloadContext,
  options: InspectOptions,
  decodeErrors: readonly Finding[],
  errors: Finding[],
): Promise<{ integrity: IntegrityOutcome; verified: VerifiedAudio | null }> {
  const location = await locateAudio(manifestPath, doc, options.audioPath, ctx.attachmentBytes);
  if (!location.found) {
    return {
      integrity: { status: location.status, mismatches: [], reason: location.reason },
      verified: null,
    };
  }
  // The declared sha256/byteLength of audio.payloadRef are checked in the same streaming pass.
  const ref = isPlainObject(doc.audio) ? doc.audio.payloadRef : undefined;
  const refChecked =
    location.source.via === 'payloadRef' &&
    isPlainObject(ref) &&
    isReadableRef(ref, '/audio/payloadRef', decodeErrors);
  const wantsSha =
    refChecked && typeof ref.sha256 === 'string' && /^[0-9a-f]{64}$/.test(ref.sha256);
  const { result, fileSha256, checkedAudio } = await readAudioIntegrity(location, {
    hash: options.hash,
    wholeFileSha256: wantsSha,
  });
  if (refChecked && Number.isInteger(ref.byteLength) && ref.byteLength !== result.byteLength) {
    errors.push({
      code: 'payload-length-mismatch',
      path: '/audio/payloadRef/byteLength',
      message: `the audio file has ${result.byteLength} bytes, the manifest says ${ref.byteLength}`,
    });
  }
  if (wantsSha && fileSha256 !== ref.sha256) {
    errors.push({
      code: 'payload-hash-mismatch',
      path: '/audio/payloadRef/sha256',
      message: `the audio file's SHA-256 is ${fileSha256}, the manifest says ${ref.sha256}`,
    });
  }
  const integrity = compareIntegrity(doc.integrity, result, location.source);
  const verified = integrity.status === 'verified' ? (checkedAudio ?? null) : null;
  return { integrity, verified };
}
