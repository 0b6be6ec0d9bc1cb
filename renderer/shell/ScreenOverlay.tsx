// Settings and the channel browser open over the whole window, as the public web app's overlays:
// both sidebars out of the way, their tables at the window's width. The frame has a bar with the
// close button; Esc closes it too.
import { useEffect, useRef, type ReactNode } from 'react';
import { X } from 'lucide-react';
import { ALL_MESSAGES_ROUTE, goBack, replaceRoute, uiStore } from '../store/ui-store';
import { leaveSettings } from '../features/settings/form/unsaved';

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
 * The frame of a full-window screen: a bar with its close button over the screen itself. Esc
 * closes it when nothing inside is open (a menu closes first; a field being typed in keeps its Esc).
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
  // The screen takes the focus as it opens (the button that opened it is now under it) and gives
  // it back as it closes, when the focus was still inside.
  const frame = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const opener = document.activeElement as HTMLElement | null;
    if (!frame.current?.contains(opener)) frame.current?.focus();
    const node = frame.current;
    return () => {
      const focused = document.activeElement;
      if (opener?.isConnected && (!focused || focused === document.body || node?.contains(focused)))
        opener.focus();
    };
  }, []);
  return (
    <div
      ref={frame}
      tabIndex={-1}
      className="screen-overlay"
      role="dialog"
      aria-label={title}
      onKeyDown={(e) => {
        if (e.key !== 'Escape' || e.defaultPrevented || uiStore.getState().overlay) return;
        const field = e.target as HTMLElement;
        if (field.matches('input:not([type=checkbox]):not([type=radio]), textarea, select')) return;
        // An open menu or dialog inside is a Radix layer: it closed on this Esc (defaultPrevented).
        e.stopPropagation();
        closeScreen(kind);
      }}
    >
      <div className="screen-overlay-bar">
        {kind === 'settings' ? (
          <h1>{title}</h1>
        ) : (
          <span className="screen-overlay-title">{title}</span>
        )}
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
    </div>
  );
}
