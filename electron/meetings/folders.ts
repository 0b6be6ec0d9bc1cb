// The private folders meetings from messages are downloaded into: DATA/meetings/<account>/<key>/,
// mode 0700, one per manifest upload. `files/` holds the manifest and its payloads at their
// references' relative paths, so the viewer checks it exactly like a local folder; `state.json` records
// each file as downloaded (its upload, size, SHA-256 and file identity) and the last check's verdict.
//
// Nothing half-downloaded is ever used: a file is written to a `.part` name and renamed only when all
// of it arrived; a failure or cancel deletes the part (and the state no longer lists the file). A
// second open reuses a file only if it is still the one written (same size, inode and mtime) and, for
// all but the audio, still hashes to what was downloaded; the audio's bytes are then checked by the
// integrity check itself (which reads every packet), so it is not read twice.
//
// Each account has a size cap: before a file is downloaded, the meetings opened longest ago are
// deleted until it fits; a meeting larger than the cap alone is refused.
import { createHash, randomBytes } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { mkdir, readdir, readFile, rename, rm, stat } from 'node:fs/promises';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { Readable, Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { ReadableStream as WebReadableStream } from 'node:stream/web';
import type { MeetingVerdict } from '../../shared/ipc/meetings';
import { readJsonFile, writeJsonFile } from '../storage/json-file';

export interface StoredFile {
  upload: string;
  size: number;
  sha256: string;
  ino: number;
  mtimeMs: number;
}

export interface FolderState {
  manifestUpload: string;
  /** By relative path inside files/. */
  files: Record<string, StoredFile>;
  openedAt: number;
  verdict: MeetingVerdict | null;
}

/** Default per-account cap of downloaded meetings. */
export const DEFAULT_MEETING_CAP_BYTES = 2 * 1024 * 1024 * 1024;
/** Files up to this size are hashed again before reuse; the audio is checked by integrity instead. */
const REHASH_LIMIT = 16 * 1024 * 1024;
const STATE = 'state.json';
const FILES = 'files';

export class MeetingTooLarge extends Error {}

export class MeetingFolders {
  /** Folders an open is downloading into or checking right now: never evicted. */
  readonly busy = new Set<string>();

  constructor(
    private readonly root: string,
    private readonly capBytes = DEFAULT_MEETING_CAP_BYTES,
  ) {}

  accountRoot(accountId: string): string {
    return join(this.root, accountId);
  }

  folderFor(accountId: string, manifestUpload: string): string {
    const key = createHash('sha256').update(manifestUpload).digest('hex').slice(0, 32);
    return join(this.accountRoot(accountId), key);
  }

  filesOf(folder: string): string {
    return join(folder, FILES);
  }

  /** Where a relative path goes inside files/, or null if it would leave it (never, for a plan's paths). */
  fileAt(folder: string, relativePath: string): string | null {
    const files = this.filesOf(folder);
    const target = resolve(files, relativePath);
    const rel = relative(files, target);
    return rel && !rel.startsWith('..') && !rel.startsWith(sep) ? target : null;
  }

  state(folder: string, manifestUpload: string): FolderState {
    const stored = readJsonFile<FolderState | null>(join(folder, STATE), null);
    if (stored && stored.manifestUpload === manifestUpload && typeof stored.files === 'object')
      return stored;
    return { manifestUpload, files: {}, openedAt: 0, verdict: null };
  }

  saveState(folder: string, state: FolderState): void {
    writeJsonFile(join(folder, STATE), state);
  }

  /** Whether the file recorded under `relativePath` is still, byte for byte, the one downloaded. */
  async reusable(folder: string, relativePath: string, stored: StoredFile | undefined) {
    const path = this.fileAt(folder, relativePath);
    if (!stored || !path) return false;
    try {
      const info = await stat(path);
      if (!info.isFile() || info.size !== stored.size || info.ino !== stored.ino) return false;
      if (info.mtimeMs !== stored.mtimeMs) return false;
      if (info.size > REHASH_LIMIT) return true;
      return (
        createHash('sha256')
          .update(await readFile(path))
          .digest('hex') === stored.sha256
      );
    } catch {
      return false;
    }
  }

  /**
   * Streams `body` into files/<relativePath> through a `.part` file, hashing it; `limit` is the most
   * it may hold (the cap left). Resolves with the file's record once renamed into place.
   */
  async write(
    folder: string,
    relativePath: string,
    upload: string,
    body: ReadableStream<Uint8Array>,
    options: { limit: number; onBytes(count: number): void; signal?: AbortSignal },
  ): Promise<StoredFile> {
    const target = this.fileAt(folder, relativePath);
    if (!target) throw new Error(`${relativePath} leaves the meeting folder`);
    await rm(target, { force: true });
    await mkdir(dirname(target), { recursive: true, mode: 0o700 });
    const part = `${target}.part-${randomBytes(6).toString('hex')}`;
    const hash = createHash('sha256');
    let size = 0;
    const count = new Transform({
      transform(chunk: Buffer, _encoding, done) {
        size += chunk.length;
        if (size > options.limit) {
          done(new MeetingTooLarge(`${relativePath} is larger than the space left for meetings`));
          return;
        }
        hash.update(chunk);
        options.onBytes(chunk.length);
        done(null, chunk);
      },
    });
    try {
      await pipeline(
        Readable.fromWeb(body as WebReadableStream<Uint8Array>),
        count,
        createWriteStream(part, { mode: 0o600 }),
        { signal: options.signal },
      );
      await rename(part, target);
      const info = await stat(target);
      return { upload, size, sha256: hash.digest('hex'), ino: info.ino, mtimeMs: info.mtimeMs };
    } catch (error) {
      await rm(part, { force: true });
      throw error;
    }
  }

  /** Bytes an account's meetings take, other than `except`, with each folder's last open. */
  private async others(accountId: string, except: string) {
    const root = this.accountRoot(accountId);
    const names = await readdir(root).catch(() => [] as string[]);
    const folders: Array<{ folder: string; bytes: number; openedAt: number }> = [];
    for (const name of names) {
      const folder = join(root, name);
      if (folder === except) continue;
      const state = readJsonFile<Partial<FolderState> | null>(join(folder, STATE), null);
      const bytes = Object.values(state?.files ?? {}).reduce((sum, f) => sum + (f.size ?? 0), 0);
      folders.push({ folder, bytes, openedAt: state?.openedAt ?? 0 });
    }
    return folders.sort((a, b) => a.openedAt - b.openedAt);
  }

  /**
   * Makes room for `needed` more bytes in `folder` (which already holds `held`): deletes the account's
   * other meetings, least recently opened first, never one being opened (its bytes still count).
   * Returns the bytes this folder may still take.
   */
  async makeRoom(accountId: string, folder: string, held: number, needed: number): Promise<number> {
    // Refused before anything is deleted: no eviction can make a meeting fit that alone exceeds the cap.
    if (held + needed > this.capBytes)
      throw new MeetingTooLarge(
        `This meeting needs more than the ${formatBytes(this.capBytes)} kept for downloaded meetings`,
      );
    const others = await this.others(accountId, folder);
    let used = others.reduce((sum, f) => sum + f.bytes, 0) + held;
    for (const other of others) {
      if (used + needed <= this.capBytes) break;
      // Its bytes count, but another open is writing into it: it is not deleted under that open.
      if (this.busy.has(other.folder)) continue;
      await rm(other.folder, { recursive: true, force: true });
      used -= other.bytes;
    }
    return this.capBytes - used;
  }

  /** Deletes `.part` files a crash or a killed process left behind (never listed in the state). */
  async sweepParts(folder: string): Promise<void> {
    const files = this.filesOf(folder);
    const names = await readdir(files, { recursive: true }).catch(() => [] as string[]);
    for (const name of names)
      if (/\.part-[0-9a-f]{12}$/.test(name)) await rm(join(files, name), { force: true });
  }

  async removeAccount(accountId: string): Promise<void> {
    await rm(this.accountRoot(accountId), { recursive: true, force: true });
  }
}

function formatBytes(bytes: number): string {
  return bytes >= 1024 ** 3
    ? `${(bytes / 1024 ** 3).toFixed(1)} GiB`
    : `${Math.round(bytes / 1024 ** 2)} MiB`;
}
