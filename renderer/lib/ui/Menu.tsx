// Menus on Radix's DropdownMenu and ContextMenu: the library owns the ARIA menu button pattern
// (roles, arrow keys, Home/End, typeahead), Esc, a click outside, focus return to the button and
// collision-aware placement, so no menu in the app writes its own. The menu is portalled to the
// body: the message list clips what it contains, and a menu near a window edge flips or shifts to
// stay in view. Keys typed in an open menu are the menu's (its typeahead), never the app's
// shortcuts: both variants stop them at the menu.
import {
  createContext,
  useCallback,
  useContext,
  useEffect,
  useImperativeHandle,
  useLayoutEffect,
  useRef,
  useState,
  type KeyboardEvent as ReactKeyboardEvent,
  type ComponentProps,
  type MouseEvent as ReactMouseEvent,
  type PointerEvent as ReactPointerEvent,
  type ReactNode,
  type Ref,
  type RefObject,
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
  // A mounted Radix menu costs on every key anywhere in the app, open or not (its root listens to
  // the document's keydown in the capture phase; it mounts a root, a trigger and a popper anchor),
  // and the sidebar and the message list have one per row: about 28 listeners on a large Inbox,
  // and about 3 ms of JavaScript per filter key for the rows that scroll into view (measured in
  // docs/benchmarks.md). So the button is drawn alone until it is hovered, focused or pressed;
  // then Radix's trigger is mounted beside it and adopts that very element (tests and assistive
  // technology keep hold of it), and the first press opens the menu as Radix would.
  const [mounted, setMounted] = useState(false);
  // A menu opened from elsewhere (a shortcut key) mounts at once.
  if (open && !mounted) setMounted(true);
  const [radixAttributes, setRadixAttributes] = useState<Record<string, unknown>>({});
  const radix = useRef<RadixTriggerProps | null>(null);
  const buttonRef = useRef<HTMLButtonElement | null>(null);
  useEffect(watchInputModality, []);
  const mount = () => setMounted(true);
  const adopt = useCallback((props: RadixTriggerProps | null) => {
    radix.current = props;
    const attributes = Object.fromEntries(
      Object.entries(props ?? {}).filter(([, v]) => typeof v !== 'function'),
    );
    setRadixAttributes((was) => (sameAttributes(was, attributes) ? was : attributes));
  }, []);
  // The caller's ref (if it gave one) is the same button.
  useImperativeHandle(buttonProps?.ref, () => buttonRef.current as HTMLButtonElement, []);
  const face = buttonProps ?? {};
  const trigger = (
    <button
      type="button"
      {...buttonProps}
      ref={buttonRef}
      className={buttonClassName}
      aria-label={label}
      aria-haspopup="menu"
      aria-expanded={open}
      data-state={open ? 'open' : 'closed'}
      {...radixAttributes}
      onPointerEnter={(e) => {
        face.onPointerEnter?.(e);
        mount();
      }}
      onFocus={(e) => {
        face.onFocus?.(e);
        mount();
      }}
      onPointerDown={(e) => {
        face.onPointerDown?.(e);
        // Radix's own handler once it is there; before that, a press opens as Radix's would.
        if (radix.current) return radix.current.onPointerDown?.(e);
        if (e.button !== 0 || e.ctrlKey || e.defaultPrevented) return;
        mount();
        setOpen(true);
        e.preventDefault(); // the menu takes the focus, not the button
      }}
      onKeyDown={(e) => {
        face.onKeyDown?.(e);
        if (radix.current) return radix.current.onKeyDown?.(e);
        if (e.defaultPrevented || !OPENING_KEYS.has(e.key)) return;
        mount();
        setOpen(true);
        e.preventDefault(); // Enter and Space would click the button too
      }}
      onClick={(e: ReactMouseEvent<HTMLButtonElement>) => {
        face.onClick?.(e);
        // Radix opens on pointerdown and on Enter/Space/ArrowDown. A click with no pointer
        // behind it (detail 0: a screen reader's activation, element.click()) toggles too.
        if (e.detail === 0) {
          mount();
          setOpen(!open);
        }
      }}
    >
      {button}
    </button>
  );
  return (
    <>
      {tooltip ? <NameTooltip label={label}>{trigger}</NameTooltip> : trigger}
      {mounted ? (
        <DropdownMenu.Root open={open} onOpenChange={setOpen} modal={false}>
          <DropdownMenu.Trigger asChild>
            <AdoptedTrigger target={buttonRef} adopt={adopt} />
          </DropdownMenu.Trigger>
          <DropdownMenu.Portal>
            <DropdownMenu.Content
              onFocus={(e) => {
                // A root mounted for this very open did not see the key that opened it (a key on
                // the button, or a shortcut like the message list's i), so it would focus the menu
                // rather than its first item, as Radix does for a keyboard.
                if (e.target !== e.currentTarget || !keyboardInUse) return;
                e.currentTarget
                  .querySelector<HTMLElement>('[role="menuitem"]:not([data-disabled])')
                  ?.focus();
              }}
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
      ) : null}
    </>
  );
}

/**
 * Whether the last input was a key (then an opened menu focuses its first item, as Radix's root
 * has it), watched by one document listener for every menu rather than by each mounted root.
 */
let keyboardInUse = false;
let watchingInput = false;

function watchInputModality() {
  if (watchingInput) return;
  watchingInput = true;
  const pointerUsed = () => {
    keyboardInUse = false;
  };
  document.addEventListener(
    'keydown',
    () => {
      keyboardInUse = true;
      document.addEventListener('pointerdown', pointerUsed, { capture: true, once: true });
      document.addEventListener('pointermove', pointerUsed, { capture: true, once: true });
    },
    { capture: true },
  );
}

/** The keys that open a menu from its focused button, as Radix's trigger has them. */
const OPENING_KEYS = new Set(['Enter', ' ', 'ArrowDown']);

/** What Radix's trigger gives its button: attributes to draw, and its pointer and key handlers. */
type RadixTriggerProps = Record<string, unknown> & {
  onPointerDown?: (e: ReactPointerEvent<HTMLButtonElement>) => void;
  onKeyDown?: (e: ReactKeyboardEvent<HTMLButtonElement>) => void;
};

function sameAttributes(a: Record<string, unknown>, b: Record<string, unknown>): boolean {
  const keys = Object.keys(a);
  return keys.length === Object.keys(b).length && keys.every((k) => a[k] === b[k]);
}

/**
 * Sits in Radix's trigger slot and draws nothing: it hands Radix the real button (for the menu's
 * placement and the focus's return) and hands the button what Radix gave the trigger.
 */
function AdoptedTrigger({
  ref,
  target,
  adopt,
  ...radix
}: RadixTriggerProps & {
  ref?: Ref<HTMLButtonElement>;
  target: RefObject<HTMLButtonElement | null>;
  adopt: (props: RadixTriggerProps | null) => void;
}) {
  // The button is drawn before this (a sibling before it), so its ref is already set.
  useImperativeHandle(ref, () => target.current as HTMLButtonElement, [target]);
  useLayoutEffect(() => adopt(radix));
  useLayoutEffect(() => () => adopt(null), [adopt]);
  return null;
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
