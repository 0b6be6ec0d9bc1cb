// Whether the first-run welcome panel is dismissed: remembered in this window's storage across
// launches, and shown again on request (the app menu's "Welcome and things to try").
import { useSyncExternalStore } from 'react';

const KEY = 'tributary.welcomeDismissed';
const listeners = new Set<() => void>();
/** Shown on request even where it was dismissed, until dismissed again. */
let requested = false;

function dismissedInStorage(): boolean {
  try {
    return globalThis.localStorage?.getItem(KEY) === 'true';
  } catch {
    return false;
  }
}

function isDismissed(): boolean {
  return !requested && dismissedInStorage();
}

function changed(): void {
  for (const listener of listeners) listener();
}

export function dismissWelcome(): void {
  requested = false;
  try {
    globalThis.localStorage?.setItem(KEY, 'true');
  } catch {
    // Without storage it stays dismissed for this session only.
  }
  dismissedForSession = true;
  changed();
}

/** Where storage is unavailable, dismissing still holds until the window reloads. */
let dismissedForSession = false;

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
    () => !requested && (dismissedForSession || isDismissed()),
  );
}
