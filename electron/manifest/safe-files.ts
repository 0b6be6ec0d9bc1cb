// Resolves payload paths against the manifest's folder and refuses anything that leaves it, lexically
// (absolute, drive letter, backslash, "..") and through symbolic links (both sides go through realpath).
import { realpath, stat } from 'node:fs/promises';
import { isAbsolute, join, relative, sep } from 'node:path';
import { unsafePathReason } from '../../shared/manifest';

export type ResolvedFile =
  { ok: true; path: string; size: number } | { ok: false; missing: boolean; reason: string };

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
  const rel = relative(realFolder, real);
  if (rel === '')
    return {
      ok: false,
      missing: false,
      reason: `${relativePath} names the manifest folder, not a file`,
    };
  if (rel === '..' || rel.startsWith('..' + sep) || isAbsolute(rel)) {
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
    return { ok: true, path: real, size: info.size };
  } catch (err) {
    return { ok: false, missing: false, reason: `${relativePath}: ${(err as Error).message}` };
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
