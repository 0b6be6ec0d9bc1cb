// Settings and the channel browser open over the whole window, as the public web app's overlays:
// both sidebars out of the way, their tables at the window's width. The frame has a bar with the
// close button; Esc closes it too.
import { useRef, type ReactNode } from 'react';
import { Dialog } from 'radix-ui';
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
 * The frame of a full-window screen: a bar with its close button over the screen itself, a modal
 * dialog on Radix (focus kept inside and given back, the rest of the page hidden from screen
 * readers, menus and dialogs inside closed first by Esc). Esc closes it when nothing inside is open,
 * except in a field being typed in, which keeps its Esc. Its keys still reach the app's shortcuts
 * (`c`/`x` leave it through the unsaved-changes question).
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
  const frame = useRef<HTMLDivElement>(null);
  return (
    <Dialog.Root open onOpenChange={(open) => !open && closeScreen(kind)}>
      <Dialog.Content
        ref={frame}
        tabIndex={-1}
        className="screen-overlay"
        aria-label={title}
        aria-describedby={undefined}
        // The screen takes the focus as it opens (the button that opened it is now under it),
        // unless something inside took it first (the channel filter's autofocus).
        onOpenAutoFocus={(e) => {
          e.preventDefault();
          if (!frame.current?.contains(document.activeElement)) frame.current?.focus();
        }}
        onEscapeKeyDown={(e) => {
          const field = e.target as HTMLElement;
          const typing = field.matches?.(
            'input:not([type=checkbox]):not([type=radio]), textarea, select',
          );
          // A question the app asks over it (unsaved changes) answers Esc itself.
          if (typing || uiStore.getState().overlay) e.preventDefault();
        }}
        // It covers the window: nothing is outside it but other layers (toasts, menus), whose
        // presses must not close it.
        onPointerDownOutside={(e) => e.preventDefault()}
        onInteractOutside={(e) => e.preventDefault()}
      >
        <div className="screen-overlay-bar">
          <Dialog.Title asChild>
            {kind === 'settings' ? (
              <h1>{title}</h1>
            ) : (
              <span className="screen-overlay-title">{title}</span>
            )}
          </Dialog.Title>
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
      </Dialog.Content>
    </Dialog.Root>
  );
}
