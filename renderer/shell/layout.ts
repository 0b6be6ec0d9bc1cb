// The window's layout, as the public web app lays it out: below 1,200 px the people list leaves the
// row and opens as an overlay (Drawer.tsx) from the top bar; below 770 px the left sidebar does the
// same. Which side panels are inline is decided here (matchMedia) and nowhere else: the styles only read the
// workspace's data attributes, so the test of a breakpoint and the code that acts on it agree.
import { useCallback, useState, useSyncExternalStore } from 'react';
import { useUi, type Route } from '../store/ui-store';

/** Below this width the people list is an overlay (closed until asked for). */
export const PEOPLE_INLINE_MIN_WIDTH = 1200;
/** Below this width the left sidebar is an overlay too. */
export const SIDEBAR_INLINE_MIN_WIDTH = 770;

function useMinWidth(px: number): boolean {
  const query = `(min-width: ${px}px)`;
  return useSyncExternalStore(
    (changed) => {
      const list = window.matchMedia?.(query);
      list?.addEventListener('change', changed);
      return () => list?.removeEventListener('change', changed);
    },
    () => window.matchMedia?.(query).matches ?? true,
  );
}

/** A side panel shown as an overlay over the conversation (only one at a time). */
export type OverlayPanel = 'sidebar' | 'people' | null;

export interface Layout {
  peopleInline: boolean;
  sidebarInline: boolean;
  /** The side panel open as an overlay, if any. */
  panel: OverlayPanel;
  togglePanel: (panel: Exclude<OverlayPanel, null>) => void;
  closePanel: () => void;
}

/** Whether two routes show the same place (a new object for the same view is not a move). */
function sameRoute(a: Route, b: Route): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}

export function useLayout(): Layout {
  const peopleInline = useMinWidth(PEOPLE_INLINE_MIN_WIDTH);
  const sidebarInline = useMinWidth(SIDEBAR_INLINE_MIN_WIDTH);
  const [panel, setPanel] = useState<OverlayPanel>(null);
  const route = useUi((s) => s.route);
  // Going somewhere (a channel chosen in the overlaid sidebar) closes the overlay, as a phone's
  // drawer does; so does the window growing past the breakpoint, where the panel is inline again.
  const [shownRoute, setShownRoute] = useState(route);
  if (!sameRoute(shownRoute, route)) {
    setShownRoute(route);
    if (panel) setPanel(null);
  }
  if ((panel === 'people' && peopleInline) || (panel === 'sidebar' && sidebarInline))
    setPanel(null);
  const togglePanel = useCallback(
    (p: Exclude<OverlayPanel, null>) => setPanel((open) => (open === p ? null : p)),
    [],
  );
  const closePanel = useCallback(() => setPanel(null), []);
  return { peopleInline, sidebarInline, panel, togglePanel, closePanel };
}
