// Where uploaded bytes live on disk. Finished files sit at DIR/uploads/<path_id>; files still being
// received sit in DIR/uploads/.staging/ (multipart spools and tus uploads), which a path_id can never
// name because every path_id starts with the numeric realm id. Nothing here touches the database.
import { randomBytes } from 'node:crypto';
import { copyFile, link, mkdir, rename, rm, rmdir, unlink } from 'node:fs/promises';
import { mkdirSync, readdirSync, rmSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { FALLBACK_UPLOAD_NAME as FALLBACK_NAME, sanitizeFileName } from '../../shared/upload-name';

export { sanitizeFileName };

/** The local realm has exactly one realm row (id 1); path_ids start with it as the API's do. */
export const REALM_ID = 1;

export class UploadStorage {
  readonly root: string;
  readonly multipartStaging: string;
  readonly tusStaging: string;

  constructor(uploadsDir: string) {
    this.root = resolve(uploadsDir);
    this.multipartStaging = join(this.root, '.staging', 'multipart');
    this.tusStaging = join(this.root, '.staging', 'tus');
    mkdirSync(this.multipartStaging, { recursive: true });
    mkdirSync(this.tusStaging, { recursive: true });
  }

  /**
   * Absolute file path of a path_id, or null when the id is malformed or would leave the uploads
   * folder (path_ids come from the database, but download URLs are typed by users).
   */
  filePath(pathId: string): string | null {
    if (!isWellFormedPathId(pathId)) return null;
    const full = resolve(this.root, pathId);
    const rel = relative(this.root, full);
    if (rel === '' || rel.startsWith('..') || rel.startsWith(`.staging${sep}`)) return null;
    return full;
  }

  /** A fresh spool file name for a multipart upload in progress. */
  newSpoolPath(): string {
    return join(this.multipartStaging, randomBytes(16).toString('hex'));
  }

  /**
   * Moves a finished staging file to its path_id. `keepSource` hard-links instead (tus keeps its
   * copy so HEAD still reports the full offset); copying is the fallback where links fail.
   */
  async place(source: string, pathId: string, keepSource = false): Promise<void> {
    const target = this.filePath(pathId);
    if (!target) throw new Error(`invalid path_id ${pathId}`);
    await mkdir(dirname(target), { recursive: true });
    if (keepSource) {
      try {
        await link(source, target);
      } catch {
        await copyFile(source, target);
      }
      return;
    }
    try {
      await rename(source, target);
    } catch {
      await copyFile(source, target);
      await unlink(source);
    }
  }

  /** Deletes a stored file and the now-empty folders above it; a missing file is not an error. */
  async remove(pathId: string): Promise<void> {
    const target = this.filePath(pathId);
    if (!target) return;
    await rm(target, { force: true });
    let folder = dirname(target);
    while (folder !== this.root && folder.startsWith(this.root)) {
      try {
        await rmdir(folder);
      } catch {
        break; // not empty (or already gone): stop climbing
      }
      folder = dirname(folder);
    }
  }

  /** Spool files left by a crash mid-upload are garbage; tus uploads are kept (they can resume). */
  sweepMultipartStaging(): void {
    for (const name of readdirSync(this.multipartStaging)) {
      rmSync(join(this.multipartStaging, name), { force: true });
    }
  }
}

/** `{realm_id}/{2 hex}/{random}/{sanitized name}`, the shape the API documents. */
export function newPathId(
  fileName: string,
  random = randomBytes(18).toString('base64url'),
): string {
  const bucket = randomBytes(1).toString('hex');
  return `${REALM_ID}/${bucket}/${random}/${sanitizeFileName(fileName)}`;
}

/** The realm-relative URL of a path_id, each segment percent-encoded. */
export function uploadUrl(pathId: string): string {
  return `/user_uploads/${pathId.split('/').map(encodeURIComponent).join('/')}`;
}

export function isWellFormedPathId(pathId: string): boolean {
  const parts = pathId.split('/');
  return (
    parts.length === 4 &&
    /^\d+$/.test(parts[0]) &&
    /^[0-9a-f]{2}$/.test(parts[1]) &&
    /^[\w-]+$/.test(parts[2]) &&
    parts[3] !== '' &&
    parts[3] !== '.' &&
    parts[3] !== '..' &&
    !/[\\\0]/.test(parts[3])
  );
}

/** The name shown to users: the client's name without folders or control characters. */
export function displayFileName(name: string | undefined): string {
  const base = (name ?? '').split(/[/\\]/).pop() ?? '';
  // eslint-disable-next-line no-control-regex
  const clean = base.replace(/[\u0000-\u001f\u007f]/g, '').trim();
  return clean === '' ? FALLBACK_NAME : clean.slice(0, 255);
}
