// A row's "⋮" menu (the sidebar's channel and topic rows, the message list's recipient headers): a
// menu button shown on hover or focus, whose menu (lib/ui/Menu, on Radix) closes when an item is
// chosen, on Esc or on a click elsewhere, and gives the focus back to the button.
import type { ReactNode } from 'react';
import { EllipsisVertical } from 'lucide-react';
import { Menu } from '../../lib/ui/Menu';

// One element for every row: a row given another channel by a filter keystroke renders its menu
// again, and React leaves an identical element (the icon's SVG) alone.
const BUTTON_FACE = <EllipsisVertical aria-hidden="true" size={16} />;

export function RowMenu({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div className="row-menu">
      <Menu label={label} button={BUTTON_FACE}>
        {children}
      </Menu>
    </div>
  );
}
