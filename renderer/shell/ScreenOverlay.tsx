// Settings and the channel browser open over the whole window, as the public web app's overlays:
// both sidebars out of the way, their tables at the window's width. The frame has a bar with the
// close button; Esc closes it too.
import { type ReactNode } from 'react';
import { X } from 'lucide-react';
import { ALL_MESSAGES_ROUTE, goBack, replaceRoute, uiStore } from '../store/ui-store';
import { leaveSettings } from '../features/settings/form/unsaved';
import { PanelDialog, PanelTitle } from '../lib/ui/Dialog';

/** Leaves a full-window screen (all its own pages: a channel's settings, the create form). The
 * close button, Esc inside it and the global Esc (shortcuts.ts) all come here. */
export function closeScreen(kind: 'settings' | 'channels'): void {
  // Settings save as they go; what could not be saved is asked about before it is dropped.
  if (kind === 'settings') leaveSettings(() => goBackFrom(kind));
  else goBackFrom(kind);
}

function goBackFrom(kind: 'settings' | 'channels'): void {
  for (;;) {
    const shown = uiStore.getState().route;
    if (shown.kind !== kind) return;
    goBack();
    // Nothing to go back to (opened first thing, or only sign-in before it): the chat.
    if (uiStore.getState().route === shown) return replaceRoute(ALL_MESSAGES_ROUTE);
  }
}

/**
 * The frame of a full-window screen: a bar with its close button over the screen itself, a
 * non-modal panel (lib/ui/Dialog.tsx). Non-modal on purpose, unlike the public web app's overlay:
 * the chat under it keeps running and stays in the accessibility tree (its live updates, the
 * offline pill, toasts), and the chat's keys are held back while it is open (shortcuts.ts). Esc
 * closes it when nothing inside is open (a menu or dialog in it closes first), except in a field
 * being typed in, which keeps its Esc; the focus goes back to what opened it.
 */
export function ScreenOverlay({
  title,
  kind,
  children,
}: {
  title: string;
  kind: 'settings' | 'channels';
  children: ReactNode;
}) {
  return (
    <PanelDialog
      className="screen-overlay"
      onClose={() => closeScreen(kind)}
      keepsEscape={(e) => {
        // What the app opened over it (a card, the help) is a layer of its own that closes first;
        // one that Radix does not hear closes here, as the global Esc would.
        if (uiStore.getState().overlay) {
          uiStore.setState({ overlay: null });
          return true;
        }
        return (e.target as HTMLElement).matches?.(TEXT_FIELD) ?? false;
      }}
    >
      <div className="screen-overlay-bar">
        <PanelTitle asChild>
          {kind === 'settings' ? (
            <h1>{title}</h1>
          ) : (
            <span className="screen-overlay-title">{title}</span>
          )}
        </PanelTitle>
        <button
          type="button"
          className="topbar-icon"
          aria-label={`Close ${title.toLowerCase()}`}
          title="Close (Esc)"
          onClick={() => closeScreen(kind)}
        >
          <X size={18} aria-hidden="true" />
        </button>
      </div>
      <div className="screen-overlay-body">{children}</div>
    </PanelDialog>
  );
}

const TEXT_FIELD = 'input:not([type=checkbox]):not([type=radio]), textarea, select';
