// Reading the launch record (launch-record.ts) and making a bridge secret, in plain JavaScript:
// the launcher binds its port and prints its URL (scripts/launch-early.mjs) before the start bundle
// or any transpiler loads, and needs the last launch's port and secret to do it. The host reads
// the record through launch-record.ts, which re-exports these, so both read it by the same rules.
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

export const LAUNCH_RECORD_FILE = 'browser-host.json';

/** The last launch's record in `dataDir`, or null when there is none or it is not one. */
export function readLaunchRecord(dataDir) {
  let record;
  try {
    record = JSON.parse(readFileSync(join(dataDir, LAUNCH_RECORD_FILE), 'utf8'));
  } catch {
    // Missing or unreadable: this launch writes a fresh one (launch-record.ts, atomically).
    return null;
  }
  if (!record || typeof record.port !== 'number' || typeof record.secret !== 'string') return null;
  if (record.secret.length < 32) return null;
  const earlier = Array.isArray(record.earlierSecrets)
    ? record.earlierSecrets.filter((s) => typeof s === 'string')
    : [];
  return { port: record.port, secret: record.secret, earlierSecrets: earlier };
}

export function newSecret() {
  return randomBytes(32).toString('base64url');
}
