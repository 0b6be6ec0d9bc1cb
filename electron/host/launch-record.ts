// What a browser-mode launch leaves for the next one: its port and bridge secret. A page left open
// when the host process died (a crash, a restart) keeps reconnecting with the secret it was given;
// when the next launch listens on the same port with the same secret, that page comes back with
// everything it still holds (typed text, messages it could not hand over), instead of pointing at
// a host that refuses it. The file is the vault's neighbour and as private (0600): whoever can
// read it can read the vault's key file too.
import { join } from 'node:path';
import { writeJsonFile } from '../storage/json-file';
import { LAUNCH_RECORD_FILE } from './launch-record-file.mjs';

export { newSecret, readLaunchRecord } from './launch-record-file.mjs';

export interface LaunchRecord {
  port: number;
  secret: string;
  /**
   * Secrets of earlier launches, newest first (a few): pages of those launches sealed what they
   * could not hand over with them (unsent-handover.ts), and a later launch still opens it.
   */
  earlierSecrets?: string[];
}

/** How many earlier secrets are kept. */
const EARLIER_KEPT = 5;

/** Writes this launch's record; a secret that changed is kept among the earlier ones. */
export function writeLaunchRecord(
  dataDir: string,
  record: { port: number; secret: string },
  last: LaunchRecord | null,
): LaunchRecord {
  const earlier = last ? [last.secret, ...(last.earlierSecrets ?? [])] : [];
  const next: LaunchRecord = {
    ...record,
    earlierSecrets: [...new Set(earlier)].filter((s) => s !== record.secret).slice(0, EARLIER_KEPT),
  };
  writeJsonFile(join(dataDir, LAUNCH_RECORD_FILE), next);
  return next;
}
