// The spec and fixtures folder beside the repository (`../shared`), read at test time and never
// copied into the repo. TRIBUTARY_SHARED points elsewhere (a worktree whose parent has no
// `shared/`); tests that need a file skip with a message naming what is missing.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const SHARED_DIR =
  process.env.TRIBUTARY_SHARED ?? fileURLToPath(new URL('../../../shared', import.meta.url));

/** Absolute path of a file under the shared folder. */
export function sharedPath(relative: string): string {
  return join(SHARED_DIR, relative);
}

export function haveShared(relative: string): boolean {
  const found = existsSync(sharedPath(relative));
  if (!found) {
    console.warn(
      `skipped: ${sharedPath(relative)} is absent (set TRIBUTARY_SHARED to the spec and fixtures folder)`,
    );
  }
  return found;
}

export function readSharedJson<T>(relative: string): T {
  return JSON.parse(readFileSync(sharedPath(relative), 'utf8')) as T;
}

/** `{request, status, response}`: one recorded call of the public server. */
export interface RecordedCall {
  request: { method: string; path: string; params?: Record<string, unknown>; as?: string };
  status: number;
  response: Record<string, unknown>;
}

/** A register fixture's response, whichever way the file stores it (bare or as a recorded call). */
export function registerFixture(file: string): Record<string, unknown> {
  const raw = readSharedJson<Record<string, unknown>>(`fixtures/zulip-server/${file}`);
  return 'response' in raw && 'request' in raw ? (raw.response as Record<string, unknown>) : raw;
}
