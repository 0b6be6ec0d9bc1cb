// A small panel the message menu opens in its place (read receipts, a reminder): a labelled dialog
// that Esc closes. Esc stops here, as in the menu itself: the window's Esc would go back a view.
import type { ReactNode } from 'react';

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
    <div
      className={`menu ${className}`}
      role="dialog"
      aria-label={label}
      onKeyDown={(e) => {
        if (e.key !== 'Escape') return;
        e.preventDefault();
        e.stopPropagation();
        onClose();
      }}
    >
      <h3>{label}</h3>
      {children}
    </div>
  );
}
