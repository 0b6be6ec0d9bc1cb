// Whether the first-run welcome panel is dismissed: remembered in this window's storage across
// launches, and shown again on request (the main menu's "Welcome and things to try").
import { useSyncExternalStore } from 'react';

const KEY = 'tributary.welcomeDismissed';
const listeners = new Set<() => void>();
/** Shown on request even where it was dismissed, until dismissed again. */
let requested = false;
/** Dismissed in this session: holds until a reload where storage is unavailable. */
let dismissedForSession = false;

function dismissedInStorage(): boolean {
  try {
    return globalThis.localStorage?.getItem(KEY) === 'true';
  } catch {
    return false;
  }
}

function changed(): void {
  for (const listener of listeners) listener();
}

export function dismissWelcome(): void {
  requested = false;
  dismissedForSession = true;
  try {
    globalThis.localStorage?.setItem(KEY, 'true');
  } catch {
    // Without storage it stays dismissed for this session only.
  }
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
