// What a browser-mode launch leaves for the next one: its port and bridge secret. A page left open
// when the host process died (a crash, a restart) keeps reconnecting with the secret it was given;
// when the next launch listens on the same port with the same secret, that page comes back with
// everything it still holds (typed text, messages it could not hand over), instead of pointing at
// a host that refuses it. The file is the vault's neighbour and as private (0600): whoever can
// read it can read the vault's key file too.
import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { readJsonFile, writeJsonFile } from '../storage/json-file';

export interface LaunchRecord {
  port: number;
  secret: string;
}

const FILE = 'browser-host.json';

export function readLaunchRecord(dataDir: string): LaunchRecord | null {
  const record = readJsonFile<Partial<LaunchRecord> | null>(join(dataDir, FILE), null);
  if (!record || typeof record.port !== 'number' || typeof record.secret !== 'string') return null;
  if (record.secret.length < 32) return null;
  return { port: record.port, secret: record.secret };
}

export function writeLaunchRecord(dataDir: string, record: LaunchRecord): void {
  writeJsonFile(join(dataDir, FILE), record);
}

export function newSecret(): string {
  return randomBytes(32).toString('base64url');
}
