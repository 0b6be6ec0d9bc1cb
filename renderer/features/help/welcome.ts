// Whether the first-run welcome panel is dismissed: remembered in this window's storage across
// launches, and shown again on request (the main menu's "Welcome and things to try").
import { useSyncExternalStore } from 'react';
import { readKept, writeKept } from '../../lib/kept-choice';

const KEY = 'tributary.welcomeDismissed';
const listeners = new Set<() => void>();
/** Shown on request even where it was dismissed, until dismissed again. */
let requested = false;
/** Dismissed in this session: holds until a reload where storage is unavailable. */
let dismissedForSession = false;

function dismissedInStorage(): boolean {
  // Kept as "true": JSON, so older windows' dismissals still read.
  return readKept(KEY, (kept) => (kept === true ? true : undefined), false);
}

function changed(): void {
  for (const listener of listeners) listener();
}

export function dismissWelcome(): void {
  requested = false;
  // Without storage it stays dismissed for this session only.
  dismissedForSession = true;
  writeKept(KEY, true);
  changed();
}

export function showWelcome(): void {
  requested = true;
  dismissedForSession = false;
  changed();
}

export function useWelcomeDismissed(): boolean {
  return useSyncExternalStore(
    (listener) => {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    () => !requested && (dismissedForSession || dismissedInStorage()),
  );
}
