// Access to the shared fixtures and temporary copies of them for tests that change files.
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach } from 'vitest';
import { sharedPath } from '../../support/shared-fixtures';

export const FIXTURES = sharedPath('fixtures/manifests');
export const WEEKLY = join(FIXTURES, 'weekly-planning');
export const REENCODED = join(FIXTURES, 'weekly-planning-reencoded');
export const INVALID = join(FIXTURES, 'invalid');

export type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
export type JsonObject = { [key: string]: Json };

/** A fresh, deep copy of the valid weekly-planning manifest, to mutate. */
export function validManifest(): JsonObject {
  return JSON.parse(readFileSync(join(WEEKLY, 'manifest.json'), 'utf8')) as JsonObject;
}

export function weeklyAudio(): Uint8Array {
  return new Uint8Array(readFileSync(join(WEEKLY, 'recording.opus')));
}

/** A temporary copy of the weekly-planning folder; `manifest` replaces its manifest.json when given. */
export function tempMeetingFolder(manifest?: JsonObject): {
  dir: string;
  manifestPath: string;
  cleanup: () => void;
} {
  const dir = mkdtempSync(join(tmpdir(), 'tributary-manifest-'));
  cpSync(WEEKLY, dir, { recursive: true });
  const manifestPath = join(dir, 'manifest.json');
  if (manifest) writeFileSync(manifestPath, JSON.stringify(manifest, null, 2));
  return { dir, manifestPath, cleanup: () => rmSync(dir, { recursive: true, force: true }) };
}

/**
 * For one test file: `folder(change)` makes a temporary meeting folder whose manifest is the valid one
 * changed by `change`; `removeAfterTest` adds another cleanup. All are removed after each test.
 */
export function tempFoldersPerTest() {
  let cleanups: (() => void)[] = [];
  afterEach(() => {
    for (const cleanup of cleanups) cleanup();
    cleanups = [];
  });
  return {
    folder(change?: (doc: JsonObject) => void) {
      const doc = validManifest();
      change?.(doc);
      const f = tempMeetingFolder(doc);
      cleanups.push(f.cleanup);
      return f;
    },
    removeAfterTest(cleanup: () => void) {
      cleanups.push(cleanup);
    },
  };
}

/** Follows a JSON Pointer-like list of segments to the parent object and member name. */
export function at(
  doc: Json,
  path: (string | number)[],
): { parent: Record<string, Json> | Json[]; key: string | number } {
  let cur: Json = doc;
  for (const seg of path.slice(0, -1)) cur = (cur as Record<string, Json>)[seg as string];
  return { parent: cur as Record<string, Json>, key: path[path.length - 1] };
}

export function setAt(doc: Json, path: (string | number)[], value: Json): void {
  const { parent, key } = at(doc, path);
  (parent as Record<string, Json>)[key as string] = value;
}

export function deleteAt(doc: Json, path: (string | number)[]): void {
  const { parent, key } = at(doc, path);
  delete (parent as Record<string, Json>)[key as string];
}

/** The files sharing weekly-planning posts, in the order its message links them. */
export const WEEKLY_SHARED_FILES = [
  'manifest.json',
  'recording.opus',
  'transcript.raw.vtt',
  'transcript.corrected.json',
  'transcript.es.txt',
  'transcript.readable.txt',
];
