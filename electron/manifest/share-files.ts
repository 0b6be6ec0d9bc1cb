// Which files make up a meeting when it is shared (issue 21, part 3): the manifest, every payload it
// references by `path` (transcripts, readable transcripts, audio.payloadRef), and the audio found by
// the sibling rule when the manifest does not name it (manifest-decisions §3). Embedded attachments
// travel inside the manifest. A receiver resolves `path` references by file name among the files of
// the message, so every file is shared under its last path segment and those names must differ.
// Nothing outside the manifest's folder is ever shared: paths go through resolveInsideFolder.
import { basename, dirname, resolve } from 'node:path';
import { decodeManifest, isPlainObject, linkableFileName } from '../../shared/manifest';
import { sanitizeFileName } from '../../shared/upload-name';
import { locateAudio } from './audio';
import { readManifestBytes } from './inspect';
import { resolveInsideFolder } from './safe-files';

export interface MeetingFile {
  /** Absolute path of the file to upload. */
  path: string;
  /** The name it is shared under (and that the manifest refers to it by). */
  name: string;
  size: number;
}

export interface MeetingFiles {
  /** The manifest first, then the audio (when it is a file), then the payloads in manifest order. */
  files: MeetingFile[];
  title?: string;
  durationMs?: number;
}

/** The meeting cannot be shared as it is; the message says what to fix. */
export class MeetingShareError extends Error {}

export async function meetingFilesToShare(manifestPath: string): Promise<MeetingFiles> {
  const path = resolve(manifestPath);
  const bytes = await readManifestBytes(path);
  const { document: doc } = decodeManifest(bytes);
  if (!doc || doc.kind !== 'fmt-portable-meeting') {
    throw new MeetingShareError(`${basename(path)} is not a meeting manifest`);
  }
  const folder = dirname(path);
  const files: MeetingFile[] = [{ path, name: basename(path), size: bytes.length }];
  const problems: string[] = [];
  const add = async (relativePath: string, where: string) => {
    const file = await resolveInsideFolder(folder, relativePath);
    if (!file.ok) {
      problems.push(`${where}: ${file.reason}`);
      return;
    }
    if (files.some((f) => f.path === file.path)) return; // referenced twice: shared once
    files.push({ path: file.path, name: basename(relativePath), size: file.size });
  };

  const audio = isPlainObject(doc.audio) ? doc.audio : {};
  const audioRef = isPlainObject(audio.payloadRef) ? audio.payloadRef : undefined;
  if (typeof audioRef?.path === 'string') {
    await add(audioRef.path, '/audio/payloadRef');
  } else if (audioRef === undefined) {
    // No reference: the audio is an attachment (inside the manifest) or found beside it.
    const found = await locateAudio(path, doc);
    if (found.found && 'file' in found) await add(basename(found.file), 'the recording');
    if (!found.found) problems.push(`the recording: ${found.reason}`);
  }
  for (const list of ['transcripts', 'readableTranscripts'] as const) {
    const entries = doc[list];
    if (!Array.isArray(entries)) continue;
    for (const [index, entry] of entries.entries()) {
      const ref = isPlainObject(entry) ? entry.payloadRef : undefined;
      if (isPlainObject(ref) && typeof ref.path === 'string') {
        await add(ref.path, `/${list}/${index}/payloadRef`);
      }
    }
  }

  const names = new Map<string, string>();
  for (const file of files) {
    if (!linkableFileName(file.name)) {
      problems.push(`${file.name}: a shared file's name cannot contain [, ] or control characters`);
    } else if (sanitizeFileName(file.name) !== file.name) {
      // The server renames uploads (spaces to '-', other characters dropped); the receiver would
      // look for the name the manifest uses and not find it.
      problems.push(
        `${file.name}: the server would store it as ${sanitizeFileName(file.name)}, and a receiver finds files by the name the manifest uses (rename it to letters, digits, '_', '-' and '.' only)`,
      );
    }
    const other = names.get(file.name);
    if (other) {
      problems.push(
        `${other} and ${file.path} are both named ${file.name}; a message links files by name`,
      );
    }
    names.set(file.name, file.path);
  }
  if (problems.length > 0) {
    throw new MeetingShareError(`This meeting cannot be shared: ${problems.join('; ')}`);
  }
  const meeting = isPlainObject(doc.meeting) ? doc.meeting : {};
  return {
    files,
    title: typeof meeting.title === 'string' ? meeting.title : undefined,
    durationMs: typeof meeting.durationMs === 'number' ? meeting.durationMs : undefined,
  };
}
