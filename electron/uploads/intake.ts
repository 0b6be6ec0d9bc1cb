// Files the user chose, by token. The renderer never names a path: a path enters here only from
// main's open dialog, from Electron's preload (webUtils.getPathForFile on a dropped/pasted File), or
// as a temporary file the browser-mode host wrote from bytes the bridge streamed. The renderer then
// refers to the file by the opaque token.
//
// Defence in depth for the Electron intake channel: a path from the preload came from a real File
// (contextIsolation keeps page scripts away from ipcRenderer), but a compromised renderer process
// could still name any path there. So user-supplied paths must be absolute regular files, not
// Tributary's own state (the key vault, accounts, outboxes, the local realm's database: passed in as
// protected paths) and not in the kernel's /proc, /sys and /dev, judged after resolving symlinks.
import { randomBytes } from 'node:crypto';
import { realpathSync, statSync, rmSync } from 'node:fs';
import { basename, isAbsolute, sep } from 'node:path';
import type { ChosenFile } from '../../shared/ipc/uploads';

export interface IntakeEntry extends ChosenFile {
  path: string;
  /** Written by us (browser mode); deleted when the upload ends. */
  temporary: boolean;
}

const SYSTEM_DIRS = ['/proc', '/sys', '/dev'];

export class FileIntake {
  private readonly entries = new Map<string, IntakeEntry>();
  private readonly protectedPaths: string[];

  /** `protectedPaths`: files and folders no user-supplied path may point to or into. */
  constructor(protectedPaths: string[] = []) {
    this.protectedPaths = [...protectedPaths.map(realOrSame), ...SYSTEM_DIRS];
  }

  register(path: string, options: { name?: string; temporary?: boolean } = {}): ChosenFile {
    // Our own temporary copies (browser mode) live in the data folder on purpose.
    if (!options.temporary) this.assertUserPath(path);
    const stat = statSync(path);
    if (!stat.isFile()) throw new Error('Only regular files can be uploaded');
    const token = randomBytes(18).toString('base64url');
    const entry: IntakeEntry = {
      token,
      path,
      name: options.name ?? basename(path),
      size: stat.size,
      temporary: options.temporary ?? false,
    };
    this.entries.set(token, entry);
    return { token, name: entry.name, size: entry.size };
  }

  private assertUserPath(path: string): void {
    if (!isAbsolute(path)) throw new Error('Not an absolute file path');
    const real = realpathSync(path);
    if (this.protectedPaths.some((dir) => real === dir || real.startsWith(dir + sep))) {
      throw new Error("This is one of Tributary's own or a system file; it cannot be used");
    }
  }

  get(token: string): IntakeEntry | undefined {
    return this.entries.get(token);
  }

  /** Forgets a token (after its upload ends), deleting our temporary copy if there is one. */
  release(token: string): void {
    const entry = this.entries.get(token);
    if (!entry) return;
    this.entries.delete(token);
    if (entry.temporary) rmSync(entry.path, { force: true });
  }

  releaseAll(): void {
    for (const token of [...this.entries.keys()]) this.release(token);
  }
}

function realOrSame(path: string): string {
  try {
    return realpathSync(path);
  } catch {
    return path;
  }
}
