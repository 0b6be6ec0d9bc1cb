// Dialogs on Radix's Dialog. Modal ones: the library traps the focus inside, closes on Esc and on a
// click on the dimmed backdrop, hides the rest of the page from screen readers and gives the focus
// back to where it was when the dialog closes. Panels (PanelDialog: the full-window screens, the
// narrow window's drawers) are its non-modal kind: Esc, the order of layers and the return of focus
// are still the library's, but what is around them stays live.
import { useRef, useState, type ComponentProps, type KeyboardEvent, type ReactNode } from 'react';
import { AlertDialog, Dialog } from 'radix-ui';

type ContentProps = ComponentProps<typeof Dialog.Content>;

/**
 * Where the focus goes back to when a dialog closes: what had it as the dialog opened or, when that
 * was an item of a menu (which is gone by then), the menu's button. Opened from the app's state
 * rather than from a Radix trigger, the dialog would otherwise give the focus back to nothing.
 */
function useFocusReturn({ onlyWhenLost = false } = {}): (e: Event) => void {
  const [before] = useState(() => {
    const active = document.activeElement as HTMLElement | null;
    const menu = active?.closest('[role="menu"]');
    const trigger = menu?.id ? document.querySelector(`[aria-controls="${menu.id}"]`) : null;
    return (trigger as HTMLElement | null) ?? active;
  });
  return (e) => {
    e.preventDefault();
    // A panel closed by going somewhere else (the compose box the `c` key opened) leaves the
    // focus there; only a focus lost with the panel (back on the page's body) goes back.
    const focused = document.activeElement;
    if (onlyWhenLost && focused && focused !== document.body) return;
    if (before?.isConnected) before.focus();
  };
}

export function ModalDialog({
  label,
  className,
  onClose,
  showTitle = false,
  bare = false,
  onOpenAutoFocus,
  onKeyDown,
  children,
}: {
  /** The dialog's accessible name (its title). */
  label: string;
  /** The panel's classes (after "panel"). */
  className?: string;
  onClose: () => void;
  /** Whether the title is shown as the panel's heading; else the content has its own. */
  showTitle?: boolean;
  /** A dialog that paints its own whole window (the image viewer): no panel, no dimmed backdrop. */
  bare?: boolean;
  /** Where the focus goes as it opens; by default the first focusable element inside. */
  onOpenAutoFocus?: ContentProps['onOpenAutoFocus'];
  /** The dialog's own keys (Esc and Tab are the library's). */
  onKeyDown?: (e: KeyboardEvent<HTMLDivElement>) => void;
  children: ReactNode;
}) {
  const restoreFocus = useFocusReturn();
  const panel = bare ? className : className ? `panel ${className}` : 'panel';
  return (
    <Dialog.Root open onOpenChange={(open) => !open && onClose()}>
      <Dialog.Portal>
        <Dialog.Overlay className={bare ? undefined : 'overlay'}>
          <Dialog.Content
            className={panel}
            aria-modal="true"
            aria-describedby={undefined}
            onOpenAutoFocus={onOpenAutoFocus}
            onCloseAutoFocus={restoreFocus}
            // A portal's events still bubble through the React tree (the message list's keys and
            // clicks, when a dialog opens from a row): they end here.
            onKeyDown={(e) => {
              onKeyDown?.(e);
              e.stopPropagation();
            }}
            onClick={(e) => e.stopPropagation()}
          >
            <Dialog.Title className={showTitle ? 'dialog-title' : 'visually-hidden'}>
              {label}
            </Dialog.Title>
            {children}
          </Dialog.Content>
        </Dialog.Overlay>
      </Dialog.Portal>
    </Dialog.Root>
  );
}

/**
 * A non-modal panel over part or all of the window (Settings, the channel browser, the narrow
 * window's sidebar and people list): the rest of the page stays live and in the accessibility tree.
 * Radix closes it on Esc when it is the innermost open layer (a menu or popover opened inside closes
 * first) and on a press outside; the panel takes the focus as it opens (unless something inside
 * took it already) and gives it back as it closes, when the focus went with it.
 */
export function PanelDialog({
  label,
  className,
  onClose,
  keepsEscape,
  keepsOpenOn,
  children,
}: {
  /** The panel's accessible name; a visible heading inside can carry it instead (PanelTitle). */
  label?: string;
  className?: string;
  onClose: () => void;
  /** An Esc the panel leaves to what has the focus (a filter that clears first). */
  keepsEscape?: (e: globalThis.KeyboardEvent) => boolean;
  /** A press outside that does not close it (its own toggle button); every press when absent. */
  keepsOpenOn?: (target: Element) => boolean;
  children: ReactNode;
}) {
  const frame = useRef<HTMLDivElement>(null);
  const restoreFocus = useFocusReturn({ onlyWhenLost: true });
  // Pressing in another layer (a menu, a card or a dialog opened over it, each in its own portal)
  // is not pressing outside; neither is what the caller keeps.
  const keepsOpen = (e: { target: EventTarget | null; preventDefault(): void }) => {
    const target = e.target as Element | null;
    if (!keepsOpenOn || target?.closest?.(OTHER_LAYERS) || keepsOpenOn(target!)) e.preventDefault();
  };
  return (
    <Dialog.Root open modal={false} onOpenChange={(open) => !open && onClose()}>
      <Dialog.Content
        ref={frame}
        tabIndex={-1}
        className={className}
        aria-label={label}
        aria-describedby={undefined}
        onOpenAutoFocus={(e) => {
          e.preventDefault();
          if (!frame.current?.contains(document.activeElement)) frame.current?.focus();
        }}
        onCloseAutoFocus={restoreFocus}
        onEscapeKeyDown={(e) => {
          if (keepsEscape?.(e)) e.preventDefault();
        }}
        onPointerDownOutside={keepsOpen}
        // The focus going elsewhere (a card opened from a row of it) leaves it open.
        onFocusOutside={(e) => e.preventDefault()}
      >
        {label ? <Dialog.Title className="visually-hidden">{label}</Dialog.Title> : null}
        {children}
      </Dialog.Content>
    </Dialog.Root>
  );
}

/** Other layers than a panel, drawn in their own portals. */
const OTHER_LAYERS =
  '[data-radix-popper-content-wrapper], [role="menu"], [role="dialog"], [role="alertdialog"]';

/** A panel's visible heading, which names it. */
export const PanelTitle = Dialog.Title;

/** A button that closes the dialog it is in. */
export function DialogClose({ children, ...props }: ComponentProps<'button'>) {
  return (
    <Dialog.Close asChild>
      <button type="button" {...props}>
        {children}
      </button>
    </Dialog.Close>
  );
}

/**
 * A question that needs an answer before anything else (delete this?): an alert dialog whose
 * Cancel takes the focus first, so Enter on it never destroys anything. `children` is the
 * question's description (read out with it); `body` what follows it (lists, notes, an error).
 */
export function ConfirmAlert({
  label,
  confirmLabel,
  cancelLabel = 'Cancel',
  confirmDisabled = false,
  className,
  onConfirm,
  onClose,
  onCloseAutoFocus,
  body,
  children,
}: {
  label: string;
  /** The destructive button's face (its words, with an icon if any). */
  confirmLabel: ReactNode;
  /** The safe answer's words ("Keep editing"). */
  cancelLabel?: string;
  /** While the answer cannot be acted on yet (still checking, a request on its way). */
  confirmDisabled?: boolean;
  /** The panel's classes (after "panel confirm-alert"). */
  className?: string;
  onConfirm: () => void;
  onClose: () => void;
  /** Where the focus goes as it closes, when where it was may be gone (a removed account's row). */
  onCloseAutoFocus?: (e: Event) => void;
  body?: ReactNode;
  children: ReactNode;
}) {
  const restoreFocus = useFocusReturn();
  return (
    <AlertDialog.Root open onOpenChange={(open) => !open && onClose()}>
      <AlertDialog.Portal>
        <AlertDialog.Overlay className="overlay">
          <AlertDialog.Content
            className={`panel confirm-alert${className ? ` ${className}` : ''}`}
            aria-modal="true"
            onCloseAutoFocus={(e) => {
              onCloseAutoFocus?.(e);
              if (!e.defaultPrevented) restoreFocus(e);
            }}
            onKeyDown={(e) => e.stopPropagation()}
            onClick={(e) => e.stopPropagation()}
          >
            <AlertDialog.Title className="dialog-title">{label}</AlertDialog.Title>
            <AlertDialog.Description asChild>
              <div>{children}</div>
            </AlertDialog.Description>
            {body}
            <div className="dialog-buttons">
              <AlertDialog.Cancel asChild>
                <button type="button">{cancelLabel}</button>
              </AlertDialog.Cancel>
              <button
                type="button"
                className="danger"
                disabled={confirmDisabled}
                onClick={(e) => {
                  // Closing is the caller's, once the request is answered (a refusal is shown).
                  e.preventDefault();
                  onConfirm();
                }}
              >
                {confirmLabel}
              </button>
            </div>
          </AlertDialog.Content>
        </AlertDialog.Overlay>
      </AlertDialog.Portal>
    </AlertDialog.Root>
  );
}
