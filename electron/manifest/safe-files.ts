// Resolves payload paths against the manifest's folder and refuses anything that leaves it, lexically
// (absolute, drive letter, backslash, "..") and through symbolic links (both sides go through realpath).
// readInsideFolder also checks the file it opened: a folder on the way swapped for a symbolic link
// between the check and the open is caught there.
import { constants } from 'node:fs';
import { open, readlink, realpath, stat } from 'node:fs/promises';
import { isAbsolute, join, relative, sep } from 'node:path';
import { unsafePathReason } from '../../shared/manifest';

export type ResolvedFile =
  | { ok: true; path: string; size: number; dev: number; ino: number; folder: string }
  | { ok: false; missing: boolean; reason: string };

/** Whether `real` (a path without symbolic links) is a file inside `realFolder`. */
function inside(realFolder: string, real: string): boolean {
  const rel = relative(realFolder, real);
  return rel !== '' && rel !== '..' && !rel.startsWith('..' + sep) && !isAbsolute(rel);
}

export async function resolveInsideFolder(
  folder: string,
  relativePath: string,
): Promise<ResolvedFile> {
  const lexical = unsafePathReason(relativePath);
  if (lexical) return { ok: false, missing: false, reason: lexical };
  let realFolder: string;
  let real: string;
  try {
    realFolder = await realpath(folder);
    real = await realpath(join(realFolder, relativePath));
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ENOTDIR') {
      return { ok: false, missing: true, reason: `${relativePath}: no such file` };
    }
    return { ok: false, missing: false, reason: `${relativePath}: ${(err as Error).message}` };
  }
  if (real === realFolder)
    return {
      ok: false,
      missing: false,
      reason: `${relativePath} names the manifest folder, not a file`,
    };
  if (!inside(realFolder, real)) {
    return {
      ok: false,
      missing: false,
      reason: `${relativePath} leaves the manifest folder (through a symbolic link)`,
    };
  }
  try {
    const info = await stat(real);
    if (!info.isFile())
      return { ok: false, missing: false, reason: `${relativePath} is not a regular file` };
    return {
      ok: true,
      path: real,
      size: info.size,
      dev: info.dev,
      ino: info.ino,
      folder: realFolder,
    };
  } catch (err) {
    return { ok: false, missing: false, reason: `${relativePath}: ${(err as Error).message}` };
  }
}

/**
 * The bytes of a file inside the manifest's folder (at most maxBytes), or why not. The file is
 * opened once and checked as opened: where the system tells which file a descriptor is (Linux's
 * /proc/self/fd), that file must be inside the folder; elsewhere it must be the file the check saw
 * (same device and inode). `beforeOpen` is for tests that swap a folder in between.
 */
export async function readInsideFolder(
  folder: string,
  relativePath: string,
  maxBytes: number,
  beforeOpen?: () => Promise<void>,
): Promise<{ bytes: Uint8Array } | { reason: string }> {
  const file = await resolveInsideFolder(folder, relativePath);
  if (!file.ok) return { reason: file.reason };
  if (file.size > maxBytes) return { reason: `${relativePath} is larger than ${maxBytes} bytes` };
  await beforeOpen?.();
  let handle;
  try {
    // Non-blocking: a FIFO put there in between must not hang the open.
    handle = await open(file.path, constants.O_RDONLY | (constants.O_NONBLOCK ?? 0));
  } catch (err) {
    return { reason: `${relativePath}: ${(err as Error).message}` };
  }
  try {
    const opened = await handle.stat();
    let openedPath: string | null = null;
    if (process.platform === 'linux')
      openedPath = await readlink(`/proc/self/fd/${handle.fd}`).catch(() => null);
    const same =
      openedPath !== null
        ? inside(file.folder, openedPath)
        : opened.dev === file.dev && opened.ino === file.ino;
    if (!same)
      return { reason: `${relativePath} leaves the manifest folder (changed while it was opened)` };
    if (!opened.isFile()) return { reason: `${relativePath} is not a regular file` };
    if (opened.size > maxBytes)
      return { reason: `${relativePath} is larger than ${maxBytes} bytes` };
    return { bytes: new Uint8Array(await handle.readFile()) };
  } catch (err) {
    return { reason: `${relativePath}: ${(err as Error).message}` };
  } finally {
    await handle.close();
  }
}

// Alphabet and padding as one flat pattern plus a length check: a pattern repeating 4-character
// groups, `(?:[...]{4})*`, keeps a backtracking entry per group and overflows the regexp stack on
// attachments of a few megabytes (an embedded recording).
const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;

/** Strict base64 (Buffer.from alone silently skips bad characters). Null when not valid base64. */
export function decodeBase64(text: string): Uint8Array | null {
  if (text.length % 4 !== 0 || !BASE64.test(text)) return null;
  return new Uint8Array(Buffer.from(text, 'base64'));
}
