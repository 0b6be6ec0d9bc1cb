// Menus on Radix's DropdownMenu: the library owns the ARIA menu button pattern (roles, arrow keys,
// Home/End, typeahead), Esc, a click outside, focus return to the button and collision-aware
// placement, so no menu in the app writes its own. The menu is portalled to the body: the message
// list clips what it contains, and a menu near a window edge flips or shifts to stay in view.
import {
  useState,
  type ComponentProps,
  type MouseEvent as ReactMouseEvent,
  type ReactNode,
} from 'react';
import { DropdownMenu } from 'radix-ui';
import type { LucideIcon } from 'lucide-react';

type ContentProps = ComponentProps<typeof DropdownMenu.Content>;

export interface MenuProps {
  /** The accessible name of both the button and its menu. */
  label: string;
  /** The button's face (an icon); the button itself is made here. */
  button: ReactNode;
  buttonClassName?: string;
  /** Extra attributes for the button (title, aria-keyshortcuts). */
  buttonProps?: ComponentProps<'button'>;
  /** Controlled state, for menus that open from elsewhere too (a key); uncontrolled without it. */
  open?: boolean;
  onOpenChange?: (open: boolean) => void;
  align?: ContentProps['align'];
  /** What the menu must stay inside besides the window (the message list, above the compose box). */
  collisionBoundary?: Element | null;
  /** What the focus does when the menu closes; by default it returns to the button. */
  onCloseAutoFocus?: ContentProps['onCloseAutoFocus'];
  children: ReactNode;
}

export function Menu({
  label,
  button,
  buttonClassName = 'icon',
  buttonProps,
  open: controlled,
  onOpenChange,
  align = 'end',
  collisionBoundary,
  onCloseAutoFocus,
  children,
}: MenuProps) {
  const [own, setOwn] = useState(false);
  const open = controlled ?? own;
  const setOpen = (next: boolean) => {
    setOwn(next);
    onOpenChange?.(next);
  };
  return (
    <DropdownMenu.Root open={open} onOpenChange={setOpen} modal={false}>
      <DropdownMenu.Trigger asChild>
        <button
          type="button"
          {...buttonProps}
          className={buttonClassName}
          aria-label={label}
          onClick={(e: ReactMouseEvent<HTMLButtonElement>) => {
            buttonProps?.onClick?.(e);
            // Radix opens on pointerdown and on Enter/Space/ArrowDown. A click with no pointer
            // behind it (detail 0: a screen reader's activation, element.click()) toggles too.
            if (e.detail === 0) setOpen(!open);
          }}
        >
          {button}
        </button>
      </DropdownMenu.Trigger>
      <DropdownMenu.Portal>
        <DropdownMenu.Content
          className="popup-menu"
          aria-label={label}
          align={align}
          sideOffset={4}
          collisionPadding={8}
          collisionBoundary={collisionBoundary ?? []}
          onCloseAutoFocus={onCloseAutoFocus}
          // Keys inside the menu are the menu's, not the message list's or the app's behind it.
          onKeyDown={(e) => e.stopPropagation()}
        >
          {children}
        </DropdownMenu.Content>
      </DropdownMenu.Portal>
    </DropdownMenu.Root>
  );
}

/** One item: an icon like the public web app's, its words, and what choosing it does. */
export function MenuItem({
  icon: Icon,
  onSelect,
  children,
}: {
  icon?: LucideIcon;
  onSelect: () => void;
  children: ReactNode;
}) {
  return (
    <DropdownMenu.Item className="popup-menu-item" onSelect={onSelect}>
      {Icon ? <Icon aria-hidden="true" size={16} /> : <span className="menu-icon-space" />}
      <span>{children}</span>
    </DropdownMenu.Item>
  );
}

export const MenuSeparator = () => <DropdownMenu.Separator className="popup-menu-separator" />;
