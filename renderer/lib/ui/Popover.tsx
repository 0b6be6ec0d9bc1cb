// Popovers on Radix's Popover: a non-modal panel beside what opened it (the emoji picker, a
// person's card, the schedule choices). The library places it (flipping and shifting to stay in the
// window, or inside a given boundary), moves the focus into it and back to its button, closes it on
// Esc and on a click outside, and gives it the dialog role, so no popover writes its own. It is
// portalled to the body: the message list clips what it contains. Inside a modal dialog it stays
// part of the dialog's focus trap (Radix registers it as a branch of it).
import {
  useMemo,
  useRef,
  useState,
  type ComponentProps,
  type ReactElement,
  type ReactNode,
  type RefObject,
} from 'react';
import { Popover as RadixPopover } from 'radix-ui';
import './popover.css';

type ContentProps = ComponentProps<typeof RadixPopover.Content>;

/** What a popover opened from the app's state is placed beside: an element, or where one was. */
export type PopoverAnchor = HTMLElement | { top: number; bottom: number; left: number };

export interface PopoverProps {
  /** The popover's accessible name. */
  label: string;
  open: boolean;
  onOpenChange: (open: boolean) => void;
  /**
   * The button that opens it (given the ARIA popup attributes, toggling it, taking the focus back
   * when it closes). Without one, `anchor` says where it goes.
   */
  trigger?: ReactElement;
  /**
   * Where a popover with no trigger (opened by a key, or from the app's state) is placed; with a
   * trigger, what it is placed beside instead of the trigger (a message's row, whose text the
   * picker of its reactions must leave in view).
   */
  anchor?: PopoverAnchor;
  /** The panel's classes (after "popover"). */
  className?: string;
  side?: ContentProps['side'];
  align?: ContentProps['align'];
  /** What the popover must stay inside besides the window (the message list, the conversation). */
  collisionBoundary?: Element | null;
  /** Where the focus goes as it opens; by default the first focusable element inside. */
  onOpenAutoFocus?: ContentProps['onOpenAutoFocus'];
  children: ReactNode;
}

/** A virtual element for Radix's anchor: the element's live box while it is on the page, else the
 * box it had. */
function anchorRef(anchor: PopoverAnchor): RefObject<{ getBoundingClientRect(): DOMRect }> {
  const box = () => {
    if (anchor instanceof HTMLElement) return anchor.getBoundingClientRect();
    return new DOMRect(anchor.left, anchor.top, 0, anchor.bottom - anchor.top);
  };
  return { current: { getBoundingClientRect: box } };
}

export function Popover({
  label,
  open,
  onOpenChange,
  trigger,
  anchor,
  className,
  side = 'bottom',
  align = 'start',
  collisionBoundary,
  onOpenAutoFocus,
  children,
}: PopoverProps) {
  // Read while rendering the first time: with no trigger, the focus goes back to what had it.
  const [opener] = useState(() => document.activeElement as HTMLElement | null);
  /** Whether the popover closed by a click elsewhere: the focus then stays where that click put it. */
  const clickedOutside = useRef(false);
  // One object per anchor: Radix takes a new anchor (and renders again) whenever this changes.
  const virtualRef = useMemo(() => (anchor ? anchorRef(anchor) : null), [anchor]);
  return (
    <RadixPopover.Root open={open} onOpenChange={onOpenChange}>
      {trigger ? <RadixPopover.Trigger asChild>{trigger}</RadixPopover.Trigger> : null}
      {virtualRef ? <RadixPopover.Anchor virtualRef={virtualRef} /> : null}
      <RadixPopover.Portal>
        <RadixPopover.Content
          className={className ? `popover ${className}` : 'popover'}
          aria-label={label}
          side={side}
          align={align}
          sideOffset={4}
          collisionPadding={8}
          collisionBoundary={collisionBoundary ?? []}
          onOpenAutoFocus={onOpenAutoFocus}
          onPointerDownOutside={() => {
            clickedOutside.current = true;
          }}
          onCloseAutoFocus={(e) => {
            // With a trigger Radix gives the focus back to it; without one, to what had it as the
            // popover opened (else the element it stood beside), unless a click elsewhere moved it.
            if (trigger) return;
            e.preventDefault();
            if (clickedOutside.current) return;
            const from = opener && opener !== document.body && opener.isConnected ? opener : null;
            const back = from ?? (anchor instanceof HTMLElement ? anchor : null);
            if (back?.isConnected) back.focus();
          }}
          // A portal's events still bubble through the React tree (the message row's keys and
          // clicks, the compose box's): they end here.
          onKeyDown={(e) => e.stopPropagation()}
          onClick={(e) => e.stopPropagation()}
        >
          {children}
        </RadixPopover.Content>
      </RadixPopover.Portal>
    </RadixPopover.Root>
  );
}
