// What an integrity check verified, in the form playback binds to: the identity of the file that was
// read (taken from the open handle, never from the path afterwards) or the attachment bytes themselves.
// Main-process only: it never goes into the report the renderer receives.
import type { Stats } from 'node:fs';

/**
 * Which file, and which version of it. ctimeMs is included beside mtimeMs because a process can set
 * mtime back with utimes() but cannot set ctime (the kernel sets it on every write, rename or utimes).
 */
export interface FileIdentity {
  dev: number;
  ino: number;
  size: number;
  mtimeMs: number;
  ctimeMs: number;
}

export function fileIdentity(stats: Stats): FileIdentity {
  return {
    dev: stats.dev,
    ino: stats.ino,
    size: stats.size,
    mtimeMs: stats.mtimeMs,
    ctimeMs: stats.ctimeMs,
  };
}

export function sameIdentity(a: FileIdentity, b: FileIdentity): boolean {
  return (
    a.dev === b.dev &&
    a.ino === b.ino &&
    a.size === b.size &&
    a.mtimeMs === b.mtimeMs &&
    a.ctimeMs === b.ctimeMs
  );
}

export type VerifiedAudio =
  { kind: 'file'; path: string; identity: FileIdentity } | { kind: 'bytes'; bytes: Uint8Array };
