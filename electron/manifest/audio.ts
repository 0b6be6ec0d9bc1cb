// Finds the recording for a manifest (manifest-decisions §3) and computes its integrity values by
// streaming it through the Ogg Opus reader in fixed-size chunks: memory use does not grow with the file.
import { createHash } from 'node:crypto';
import { constants } from 'node:fs';
import { open, readdir, stat } from 'node:fs/promises';
import { basename, dirname, extname, resolve } from 'node:path';
import type { AudioSourceDescription } from '../../shared/manifest';
import { isPlainObject } from '../../shared/manifest';
import { OpusIntegrityReader, type HashFactory, type OpusReadResult } from '../../shared/ogg';
import { AttachmentBytes } from './attachment-bytes';
import { nodeSha256 } from './node-hash';
import { findAttachment } from './payloads';
import { resolveInsideFolder } from './safe-files';
import { fileIdentity, sameIdentity, type VerifiedAudio } from './verified-audio';

export type AudioLocation =
  | { found: true; source: AudioSourceDescription; file: string }
  | { found: true; source: AudioSourceDescription; bytes: Uint8Array }
  | { found: false; status: 'missing' | 'unreadable'; reason: string };

const AUDIO_MIME = new Set(['audio/ogg', 'audio/opus']);
const AUDIO_FILE = /\.(opus|ogg)$/i;

/** Why the user's chosen audio cannot be read as a file, or null when it is a regular file. */
async function notAFile(path: string): Promise<string | null> {
  try {
    return (await stat(path)).isFile() ? null : 'not a regular file';
  } catch {
    return 'no such file';
  }
}

/**
 * A discovered file beside the manifest, under the same rule as payload paths: a symbolic link that
 * leads out of the manifest's folder is not taken (the user can still pick that file explicitly).
 */
async function besideManifest(folder: string, name: string): Promise<string | null> {
  const file = await resolveInsideFolder(folder, name);
  return file.ok ? file.path : null;
}

/**
 * Where the audio is: the user's choice when given, else audio.payloadRef, else an audio attachment,
 * else `<manifest base name>.opus|.ogg`, else the only .opus/.ogg file in the folder. An attachment is
 * decoded through `attachmentBytes`, so the caller can reuse its bytes without decoding them again.
 */
export async function locateAudio(
  manifestPath: string,
  doc: Record<string, unknown>,
  userChoice?: string,
  attachmentBytes = new AttachmentBytes(),
): Promise<AudioLocation> {
  const folder = dirname(resolve(manifestPath));
  if (userChoice !== undefined) {
    const file = resolve(userChoice);
    const problem = await notAFile(file);
    if (problem) return { found: false, status: 'missing', reason: `${userChoice}: ${problem}` };
    return { found: true, source: { via: 'argument', location: file }, file };
  }
  const audio = isPlainObject(doc.audio) ? doc.audio : {};
  if (audio.payloadRef !== undefined)
    return locateByRef(folder, audio.payloadRef, doc.attachments, attachmentBytes);

  if (Array.isArray(doc.attachments)) {
    for (const item of doc.attachments) {
      if (!isPlainObject(item) || typeof item.mime !== 'string' || typeof item.name !== 'string')
        continue;
      if (!AUDIO_MIME.has(item.mime.split(';')[0].trim().toLowerCase())) continue;
      return fromAttachment(item, 'attachment', attachmentBytes);
    }
  }
  const base = basename(manifestPath, extname(manifestPath));
  for (const ext of ['.opus', '.ogg']) {
    const file = await besideManifest(folder, base + ext);
    if (file) return { found: true, source: { via: 'sibling', location: file }, file };
  }
  try {
    const candidates: string[] = [];
    for (const name of await readdir(folder)) {
      const file = AUDIO_FILE.test(name) ? await besideManifest(folder, name) : null;
      if (file) candidates.push(file);
    }
    if (candidates.length === 1) {
      const file = candidates[0];
      return { found: true, source: { via: 'only-file', location: file }, file };
    }
    if (candidates.length > 1) {
      return {
        found: false,
        status: 'missing',
        reason: `${candidates.length} audio files beside the manifest; pick one`,
      };
    }
  } catch (err) {
    return {
      found: false,
      status: 'missing',
      reason: `cannot list ${folder}: ${(err as Error).message}`,
    };
  }
  return {
    found: false,
    status: 'missing',
    reason: 'no audio file found beside the manifest; pick one',
  };
}

async function locateByRef(
  folder: string,
  ref: unknown,
  attachments: unknown,
  attachmentBytes: AttachmentBytes,
): Promise<AudioLocation> {
  if (!isPlainObject(ref))
    return { found: false, status: 'missing', reason: 'audio.payloadRef is not an object' };
  const hasPath = typeof ref.path === 'string';
  const hasAttachment = typeof ref.attachment === 'string';
  if (hasPath === hasAttachment) {
    return {
      found: false,
      status: 'missing',
      reason: 'audio.payloadRef needs exactly one of path and attachment',
    };
  }
  if (hasAttachment) {
    const item = findAttachment(attachments, ref.attachment as string);
    if (!item)
      return {
        found: false,
        status: 'missing',
        reason: `no attachment named "${String(ref.attachment)}"`,
      };
    return fromAttachment(item, 'payloadRef', attachmentBytes);
  }
  const file = await resolveInsideFolder(folder, ref.path as string);
  if (!file.ok)
    return { found: false, status: file.missing ? 'missing' : 'unreadable', reason: file.reason };
  return { found: true, source: { via: 'payloadRef', location: file.path }, file: file.path };
}

function fromAttachment(
  item: Record<string, unknown>,
  via: 'payloadRef' | 'attachment',
  attachmentBytes: AttachmentBytes,
): AudioLocation {
  const location = `attachment:${String(item.name)}`;
  const bytes = attachmentBytes.of(item);
  if (!bytes)
    return { found: false, status: 'unreadable', reason: `${location} is not valid base64` };
  return { found: true, source: { via, location }, bytes };
}

export const AUDIO_CHUNK_BYTES = 1 << 20;

export interface AudioRead {
  result: OpusReadResult;
  /** SHA-256 of the whole file, computed in the same pass when asked for (audio.payloadRef.sha256). */
  fileSha256?: string;
  /**
   * Exactly what was read, when the read completed: the attachment bytes, or the file's identity taken
   * from the open handle (the same inode whose bytes were checked, whatever the path names later).
   * Playback is bound to this when the values turn out `verified`.
   */
  checkedAudio?: VerifiedAudio;
}

/** A file whose identity differs after the last read from right after open: its bytes cannot be trusted. */
export const FILE_CHANGED_WHILE_CHECKED = 'the file changed while it was being checked';

/**
 * Streams an audio file (or attachment bytes) through the Ogg Opus reader. One read buffer is reused:
 * the reader consumes each chunk before the next read (hashes copy what they need, a straddling page is
 * copied into the reader's own buffer). A file's identity is taken from the open handle before the
 * first and after the last read; if it moved (a write, a truncation, a restored mtime) the read fails
 * rather than vouch for bytes that are no longer the file's.
 */
export async function readAudioIntegrity(
  location: Extract<AudioLocation, { found: true }>,
  options: { hash?: HashFactory; wholeFileSha256?: boolean } = {},
): Promise<AudioRead> {
  const reader = new OpusIntegrityReader(options.hash ?? nodeSha256);
  const whole = options.wholeFileSha256 ? createHash('sha256') : null;
  const feed = (chunk: Uint8Array) => {
    reader.push(chunk);
    whole?.update(chunk);
  };
  let checkedAudio: VerifiedAudio;
  if ('bytes' in location) {
    for (let at = 0; at < location.bytes.length; at += AUDIO_CHUNK_BYTES) {
      feed(location.bytes.subarray(at, at + AUDIO_CHUNK_BYTES));
    }
    checkedAudio = { kind: 'bytes', bytes: location.bytes };
  } else {
    let handle;
    try {
      // Non-blocking: the path was checked to be a regular file, but a FIFO put there since then
      // would otherwise wait for a writer forever. What was opened is checked through the handle.
      handle = await open(location.file, constants.O_RDONLY | (constants.O_NONBLOCK ?? 0));
    } catch (err) {
      return {
        result: { ok: false, reason: `cannot open: ${(err as Error).message}`, byteLength: 0 },
      };
    }
    try {
      const opened = await handle.stat();
      if (!opened.isFile()) {
        return { result: { ok: false, reason: 'not a regular file', byteLength: 0 } };
      }
      const before = fileIdentity(opened);
      const buffer = new Uint8Array(AUDIO_CHUNK_BYTES);
      let total = 0;
      for (;;) {
        const { bytesRead } = await handle.read(buffer, 0, buffer.length, null);
        if (bytesRead === 0) break;
        total += bytesRead;
        feed(buffer.subarray(0, bytesRead));
      }
      const after = fileIdentity(await handle.stat());
      if (!sameIdentity(before, after) || total !== after.size) {
        return { result: { ok: false, reason: FILE_CHANGED_WHILE_CHECKED, byteLength: total } };
      }
      checkedAudio = { kind: 'file', path: location.file, identity: after };
    } catch (err) {
      return {
        result: { ok: false, reason: `read error: ${(err as Error).message}`, byteLength: 0 },
      };
    } finally {
      await handle.close();
    }
  }
  return { result: reader.finish(), fileSha256: whole?.digest('hex'), checkedAudio };
}
