// What main found among a message's uploads, asked once per account and set of links while the app
// runs (main caches each upload's reading too). Opening a meeting changes what its card shows (the
// verdict becomes known), so a successful open forgets the answers that list that manifest.
import type { MeetingProbe, MeetingRef } from '../../../shared/ipc/meetings';
import type { ManifestSession } from '../../../shared/ipc/manifest';
import { api } from '../../bridge/api';

const probes = new Map<string, Promise<MeetingProbe>>();
const listeners = new Set<() => void>();
/** Answers kept at once (each is a few cards). */
const MAX_PROBES = 300;

const keyOf = (accountId: string, paths: readonly string[]) => `${accountId}\n${paths.join('\n')}`;

export function probeMeetings(accountId: string, paths: string[]): Promise<MeetingProbe> {
  const key = keyOf(accountId, paths);
  let pending = probes.get(key);
  if (!pending) {
    pending = api().probeMeetingMessage({ accountId, paths });
    probes.set(key, pending);
    if (probes.size > MAX_PROBES) probes.delete(probes.keys().next().value!);
    // A failed call (main busy, signed out) is asked again next time the card comes into view.
    pending.catch(() => probes.delete(key));
  }
  return pending;
}

/** Calls `listener` whenever answers were forgotten (a card then asks again). */
export function onProbesForgotten(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** Opens a meeting of a message through main; its cards learn the verdict. */
export async function openMeeting(
  meeting: MeetingRef,
  downloadId: string,
): Promise<ManifestSession> {
  const { accountId, manifestPath, paths } = meeting;
  try {
    return await api().openMeetingMessage({ accountId, manifestPath, paths, downloadId });
  } finally {
    // Also after a failure: a download that failed halfway leaves the card's state as it was, but
    // asking again costs one cached read in main.
    for (const key of [...probes.keys()])
      if (key.startsWith(`${accountId}\n`) && key.split('\n').includes(manifestPath))
        probes.delete(key);
    for (const listener of listeners) listener();
  }
}
