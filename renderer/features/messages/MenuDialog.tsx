// A small dialog the message menu opens in its place (read receipts, a reminder): a modal dialog
// (lib/ui/Dialog) with its title shown. The library closes it on Esc before the window's Esc (which
// would go back a view) hears the key, and gives the focus back to the menu's button.
import type { ReactNode } from 'react';
import { ModalDialog } from '../../lib/ui/Dialog';

export function MenuDialog({
  label,
  className,
  onClose,
  children,
}: {
  label: string;
  className: string;
  onClose: () => void;
  children: ReactNode;
}) {
  return (
    <ModalDialog label={label} className={`menu-dialog ${className}`} onClose={onClose} showTitle>
      {children}
    </ModalDialog>
  );
}
