// Files the user chose, by token. The renderer never names a path: a path enters here only from
// main's open dialog, from Electron's preload (webUtils.getPathForFile on a dropped/pasted File), or
// as a temporary file the browser-mode host wrote from bytes the bridge streamed. The renderer then
// refers to the file by the opaque token.
import { randomBytes } from 'node:crypto';
import { statSync, rmSync } from 'node:fs';
import { basename } from 'node:path';
import type { ChosenFile } from '../../shared/ipc/uploads';

export interface IntakeEntry extends ChosenFile {
  path: string;
  /** Written by us (browser mode); deleted when the upload ends. */
  temporary: boolean;
}

export class FileIntake {
  private readonly entries = new Map<string, IntakeEntry>();

  register(path: string, options: { name?: string; temporary?: boolean } = {}): ChosenFile {
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
