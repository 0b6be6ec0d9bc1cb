// Menus on Radix's DropdownMenu and ContextMenu: the library owns the ARIA menu button pattern
// (roles, arrow keys, Home/End, typeahead), Esc, a click outside, focus return to the button and
// collision-aware placement, so no menu in the app writes its own. The menu is portalled to the
// body: the message list clips what it contains, and a menu near a window edge flips or shifts to
// stay in view. Keys typed in an open menu are the menu's (its typeahead), never the app's
// shortcuts: both variants stop them at the menu.
import {
  createContext,
  useContext,
  useState,
  type KeyboardEvent as ReactKeyboardEvent,
  type ComponentProps,
  type MouseEvent as ReactMouseEvent,
  type ReactNode,
} from 'react';
import { ContextMenu, DropdownMenu } from 'radix-ui';
import type { LucideIcon } from 'lucide-react';
import { NameTooltip } from './NameTooltip';

type ContentProps = ComponentProps<typeof DropdownMenu.Content>;

/** Which Radix kit the items below are in: each kit's items need their own kit's menu around them. */
const KitContext = createContext<typeof DropdownMenu | typeof ContextMenu>(DropdownMenu);

/** Keys inside the menu are the menu's, not the message list's or the app's shortcuts behind it. */
const keepKeys = (e: ReactKeyboardEvent) => e.stopPropagation();

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
  side?: ContentProps['side'];
  sideOffset?: number;
  /** A tooltip naming the button (needs a Tooltip.Provider around it, as the top bar has). */
  tooltip?: boolean;
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
  side,
  sideOffset = 4,
  tooltip = false,
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
  const trigger = (
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
  );
  return (
    <DropdownMenu.Root open={open} onOpenChange={setOpen} modal={false}>
      {tooltip ? <NameTooltip label={label}>{trigger}</NameTooltip> : trigger}
      <DropdownMenu.Portal>
        <DropdownMenu.Content
          className="popup-menu"
          aria-label={label}
          align={align}
          side={side}
          sideOffset={sideOffset}
          collisionPadding={8}
          collisionBoundary={collisionBoundary ?? []}
          onCloseAutoFocus={onCloseAutoFocus}
          onKeyDown={keepKeys}
        >
          <KitContext.Provider value={DropdownMenu}>{children}</KitContext.Provider>
        </DropdownMenu.Content>
      </DropdownMenu.Portal>
    </DropdownMenu.Root>
  );
}

/**
 * The same menu from a right-click (or the context-menu key) on `children`, which must be one
 * element that takes a ref (a button). Keyboard and screen-reader users need another way to the
 * same items (a Menu button beside it): a context menu has no click of its own.
 */
export function ContextMenuArea({
  label,
  menu,
  children,
}: {
  /** The accessible name of the menu. */
  label: string;
  /** The items. */
  menu: ReactNode;
  children: ReactNode;
}) {
  return (
    <ContextMenu.Root modal={false}>
      <ContextMenu.Trigger asChild>{children}</ContextMenu.Trigger>
      <ContextMenu.Portal>
        <ContextMenu.Content
          className="popup-menu"
          aria-label={label}
          collisionPadding={8}
          onKeyDown={keepKeys}
        >
          <KitContext.Provider value={ContextMenu}>{menu}</KitContext.Provider>
        </ContextMenu.Content>
      </ContextMenu.Portal>
    </ContextMenu.Root>
  );
}

/** One item: an icon like the public web app's, its words, and what choosing it does. */
export function MenuItem({
  icon: Icon,
  onSelect,
  danger = false,
  children,
}: {
  icon?: LucideIcon;
  onSelect: () => void;
  /** What loses something (sign out, delete): painted as a warning. */
  danger?: boolean;
  children: ReactNode;
}) {
  const { Item } = useContext(KitContext);
  return (
    <Item className={`popup-menu-item${danger ? ' danger' : ''}`} onSelect={onSelect}>
      {Icon ? <Icon aria-hidden="true" size={16} /> : <span className="menu-icon-space" />}
      <span>{children}</span>
    </Item>
  );
}

/** Words at the top of a menu that are not an item (whose menu it is). */
export function MenuLabel({ children }: { children: ReactNode }) {
  const { Label } = useContext(KitContext);
  return <Label className="popup-menu-label">{children}</Label>;
}

export function MenuSeparator() {
  const { Separator } = useContext(KitContext);
  return <Separator className="popup-menu-separator" />;
}
