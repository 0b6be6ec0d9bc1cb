// What says which build made the demo realm's template (seed/template.ts): small and free of the
// server's code, so the build (scripts/build.ts, part of the launcher's bundle) can check it.
import { readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';

/** Where a first launch's realm process finds the template (given in its config). */
export interface DemoTemplateLocation {
  /** The template's folder: realm.sqlite3, uploads/, demo-credentials.json, template.json. */
  dir: string;
  /** The realm process's bundle that made it (and must be the one running to use it). */
  bundle: string;
}

export interface TemplateStamp {
  /** PRAGMA user_version of the template's database. */
  schemaVersion: number;
  /** UNIX seconds the seed took as its `now`. */
  seededAt: number;
  /** The bundle that made it, by size and time (launch-code-cache.mjs keys its cache the same way). */
  bundle: { size: number; mtimeMs: number };
}

const STAMP_FILE = 'template.json';

export function templateStampPath(dir: string): string {
  return join(dir, STAMP_FILE);
}

/** The template's stamp, or null if there is none that reads. */
export function readTemplateStamp(dir: string): TemplateStamp | null {
  try {
    return JSON.parse(readFileSync(templateStampPath(dir), 'utf8')) as TemplateStamp;
  } catch {
    return null;
  }
}

export function bundleStamp(bundle: string): TemplateStamp['bundle'] {
  const { size, mtimeMs } = statSync(bundle);
  return { size, mtimeMs };
}

/** Whether the template at `location` was made by its bundle as it is now. */
export function madeByItsBundle(location: DemoTemplateLocation): boolean {
  const stamp = readTemplateStamp(location.dir);
  try {
    const running = bundleStamp(location.bundle);
    return stamp?.bundle?.size === running.size && stamp.bundle.mtimeMs === running.mtimeMs;
  } catch {
    return false;
  }
}
