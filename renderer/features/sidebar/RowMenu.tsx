// A row's "⋮" menu (the sidebar's channel and topic rows, the message list's recipient headers): a
// menu button whose menu closes when an item is chosen or the focus leaves it. It follows the ARIA
// menu button pattern that Esc's handling relies on (src/open-menus.ts).
import { useState, type ReactNode } from 'react';

export function RowMenu({ label, children }: { label: string; children: ReactNode }) {
  const [open, setOpen] = useState(false);
  return (
    <div
      className="row-menu"
      onBlur={(e) => !e.currentTarget.contains(e.relatedTarget) && setOpen(false)}
    >
      <button
        type="button"
        className="icon"
        aria-label={label}
        aria-expanded={open}
        onClick={() => setOpen(!open)}
      >
        ⋮
      </button>
      {open ? (
        <div className="menu" role="menu" aria-label={label} onClick={() => setOpen(false)}>
          {children}
        </div>
      ) : null}
    </div>
  );
}
