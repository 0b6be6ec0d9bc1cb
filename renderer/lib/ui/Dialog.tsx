// Modal dialogs on Radix's Dialog: the library traps the focus inside, closes on Esc and on a click
// on the dimmed backdrop, hides the rest of the page from screen readers and gives the focus back
// to where it was when the dialog closes. Every dialog and overlay in the app is one of these.
import { useState, type ComponentProps, type ReactNode } from 'react';
import { AlertDialog, Dialog } from 'radix-ui';

type ContentProps = ComponentProps<typeof Dialog.Content>;

/**
 * Where the focus goes back to when a dialog closes: what had it as the dialog opened or, when that
 * was an item of a menu (which is gone by then), the menu's button. Opened from the app's state
 * rather than from a Radix trigger, the dialog would otherwise give the focus back to nothing.
 */
function useFocusReturn(): (e: Event) => void {
  const [before] = useState(() => {
    const active = document.activeElement as HTMLElement | null;
    const menu = active?.closest('[role="menu"]');
    const trigger = menu?.id ? document.querySelector(`[aria-controls="${menu.id}"]`) : null;
    return (trigger as HTMLElement | null) ?? active;
  });
  return (e) => {
    e.preventDefault();
    if (before?.isConnected) before.focus();
  };
}

export function ModalDialog({
  label,
  className,
  onClose,
  showTitle = false,
  onOpenAutoFocus,
  children,
}: {
  /** The dialog's accessible name (its title). */
  label: string;
  /** The panel's classes (after "panel"). */
  className?: string;
  onClose: () => void;
  /** Whether the title is shown as the panel's heading; else the content has its own. */
  showTitle?: boolean;
  /** Where the focus goes as it opens; by default the first focusable element inside. */
  onOpenAutoFocus?: ContentProps['onOpenAutoFocus'];
  children: ReactNode;
}) {
  const restoreFocus = useFocusReturn();
  return (
    <Dialog.Root open onOpenChange={(open) => !open && onClose()}>
      <Dialog.Portal>
        <Dialog.Overlay className="overlay">
          <Dialog.Content
            className={className ? `panel ${className}` : 'panel'}
            aria-modal="true"
            aria-describedby={undefined}
            onOpenAutoFocus={onOpenAutoFocus}
            onCloseAutoFocus={restoreFocus}
            // A portal's events still bubble through the React tree (the message list's keys and
            // clicks, when a dialog opens from a row): they end here.
            onKeyDown={(e) => e.stopPropagation()}
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
 * Cancel takes the focus first, so Enter on it never destroys anything.
 */
export function ConfirmAlert({
  label,
  confirmLabel,
  onConfirm,
  onClose,
  children,
}: {
  label: string;
  confirmLabel: string;
  onConfirm: () => void;
  onClose: () => void;
  children: ReactNode;
}) {
  const restoreFocus = useFocusReturn();
  return (
    <AlertDialog.Root open onOpenChange={(open) => !open && onClose()}>
      <AlertDialog.Portal>
        <AlertDialog.Overlay className="overlay">
          <AlertDialog.Content
            className="panel confirm-alert"
            aria-modal="true"
            onCloseAutoFocus={restoreFocus}
            onKeyDown={(e) => e.stopPropagation()}
            onClick={(e) => e.stopPropagation()}
          >
            <AlertDialog.Title className="dialog-title">{label}</AlertDialog.Title>
            <AlertDialog.Description asChild>
              <div>{children}</div>
            </AlertDialog.Description>
            <div className="dialog-buttons">
              <AlertDialog.Cancel asChild>
                <button type="button">Cancel</button>
              </AlertDialog.Cancel>
              <button
                type="button"
                className="danger"
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
