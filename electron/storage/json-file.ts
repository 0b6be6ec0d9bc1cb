// Small JSON files owned by the main process (accounts, outbox, drafts, window state). Writes go to a
// temporary file that is then renamed over the old one, so a crash never leaves a half-written file.
import { mkdirSync, readFileSync, renameSync, writeFileSync, chmodSync, existsSync } from 'node:fs';
import { dirname } from 'node:path';

export function readJsonFile<T>(path: string, fallback: T): T {
  if (!existsSync(path)) return fallback;
  try {
    return JSON.parse(readFileSync(path, 'utf8')) as T;
  } catch (error) {
    // A corrupt file is kept aside for inspection rather than silently overwritten later.
    renameSync(path, `${path}.corrupt-${Date.now()}`);
    console.warn(`Tributary: ${path} was unreadable (${(error as Error).message}); starting empty`);
    return fallback;
  }
}

export function writeJsonFile(path: string, value: unknown, mode = 0o600): void {
  mkdirSync(dirname(path), { recursive: true, mode: 0o700 });
  const temp = `${path}.${process.pid}.tmp`;
  writeFileSync(temp, JSON.stringify(value, null, 2), { mode });
  chmodSync(temp, mode);
  renameSync(temp, path);
}
