// The hand-over from the first screen (the last screen of the previous launch, which the page's early
// script shows in an inert overlay: renderer/first-screen.ts) to the app's own. The rule lives here
// alone: the overlay goes once the frame holding the app's own chat list (its first rows) has been
// painted, so no blank frame comes between; at once when the app shows anything else (sign-in, a
// screen outside the chat, another view than the overlay's); and after ten seconds regardless (the
// early script's own timer). Once decided, a late overlay is not shown at all.
import { useEffect } from 'react';
import { firstScreenNarrowView } from '../../shared/ipc/first-screen-view';
import { uiStore, type Route } from '../store/ui-store';
import { afterNextPaint } from './paint-marks';

const OVERLAY_ID = 'first-screen';

let settled = false;

/** Which chat view a route shows, as the first screen records it; null for anything else. */
export function firstScreenView(route: Route): string | null {
  if (route.kind === 'inbox' || route.kind === 'recent') return route.kind;
  if (route.kind === 'narrow') return firstScreenNarrowView(route.narrow);
  return null;
}

function handOver(): void {
  if (settled) return;
  settled = true;
  // The early script checks this before it shows a screen that arrives late.
  document.documentElement.dataset.firstScreen = 'done';
  document.getElementById(OVERLAY_ID)?.remove();
}

/** The app's own chat view (a message list's first rows, the Inbox, Recent) is rendered. */
export function chatScreenRendered(): void {
  if (!settled) afterNextPaint(handOver);
}

/**
 * What the app shows now that it knows its accounts: a chat view (firstScreenView) or null for
 * anything else. Anything but the overlay's own view ends the overlay at once.
 */
export function appScreenShown(view: string | null): void {
  if (settled) return;
  const overlay = document.getElementById(OVERLAY_ID);
  if (view === null || (overlay && overlay.dataset.view !== view)) handOver();
}

/** Whether the first screen still covers the app (capture waits for the app's own). */
export function firstScreenShowing(): boolean {
  return document.getElementById(OVERLAY_ID) !== null;
}

/**
 * The app shell's report, after each render: what it shows once the accounts are known. The route is
 * read when the effect runs, after the shell's own effects (the home view may just have replaced it).
 */
export function useFirstScreenHandoff(shell: {
  accountsLoaded: boolean;
  hasActiveAccount: boolean;
  accountLoaded: boolean;
}): void {
  const { accountsLoaded, hasActiveAccount, accountLoaded } = shell;
  useEffect(() => {
    if (settled) return;
    const { route } = uiStore.getState();
    if (route.kind === 'signin' || route.kind === 'manifest') return appScreenShown(null);
    if (!accountsLoaded) return;
    if (!hasActiveAccount) return appScreenShown(null);
    if (accountLoaded) appScreenShown(firstScreenView(route));
  });
}
