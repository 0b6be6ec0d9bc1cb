// A side panel of a narrow window (layout.ts decides when) opened from its top-bar button as a
// drawer over the conversation's edge: a non-modal panel (lib/ui/Dialog.tsx), so Esc, the order of
// layers and the return of focus to the button are Radix's, as for every other overlay.
import type { ReactNode } from 'react';
import { PanelDialog } from '../lib/ui/Dialog';

export function Drawer({
  open,
  label,
  side,
  toggleSelector,
  onClose,
  children,
}: {
  /** Shown as a drawer; when false the panel is drawn as it is (inline, or folded away by CSS). */
  open: boolean;
  label: string;
  side: 'left' | 'right';
  /** The top-bar button that opens it: pressing it toggles, rather than closing as "outside". */
  toggleSelector: string;
  onClose: () => void;
  children: ReactNode;
}) {
  if (!open) return children;
  return (
    <PanelDialog
      label={label}
      className={`drawer drawer-${side}`}
      onClose={onClose}
      keepsEscape={(e) => {
        // A filter being typed in the panel clears first (the channel filter, the people search).
        const field = e.target as HTMLInputElement;
        return field.tagName === 'INPUT' && !!field.value && !!field.closest('.drawer');
      }}
      keepsOpenOn={(target) => !!target.closest(toggleSelector)}
    >
      {children}
    </PanelDialog>
  );
}
