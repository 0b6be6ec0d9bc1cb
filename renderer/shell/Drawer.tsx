// A side panel of a narrow window (layout.ts decides when) opened from its top-bar button as a
// drawer over the conversation's edge: a non-modal panel (lib/ui/Dialog.tsx), so Esc, the order of
// layers and the return of focus to the button are Radix's, as for every other overlay.
import type { ReactNode } from 'react';
import { PanelDialog } from '../lib/ui/Dialog';
import type { Layout, OverlayPanel } from './layout';

/** Each drawer's name, side, and the top-bar button that opens it (TopBar.tsx). */
const DRAWERS = {
  sidebar: { label: 'Conversations', side: 'left', toggle: '.sidebar-toggle' },
  people: { label: 'People', side: 'right', toggle: '.people-toggle' },
} as const;

/** Draws `children` as they are, or as the drawer `panel` while the layout has it open. */
export function Drawer({
  panel,
  layout,
  children,
}: {
  panel: Exclude<OverlayPanel, null>;
  layout: Layout;
  children: ReactNode;
}) {
  if (layout.panel !== panel) return children;
  const { label, side, toggle } = DRAWERS[panel];
  return (
    <PanelDialog
      label={label}
      className={`drawer drawer-${side}`}
      onClose={layout.closePanel}
      keepsEscape={(e) => {
        // A filter being typed in the panel clears first (the channel filter, the people search).
        const field = e.target as HTMLInputElement;
        return field.tagName === 'INPUT' && !!field.value && !!field.closest('.drawer');
      }}
      // Its own button toggles it, rather than closing it as a press outside.
      keepsOpenOn={(target) => !!target.closest(toggle)}
    >
      {children}
    </PanelDialog>
  );
}
