// One section's channel rows. A long list (a large organization's hundreds of subscriptions) is
// virtualized within the sidebar's own scroll: only the rows near the viewport are in the DOM, so
// the first paint, each new message's layout and each filter keystroke cost the same with 500
// channels as with 30. Short lists render whole (nothing to gain, and no measuring).
import { useLayoutEffect, useRef, useState, type CSSProperties, type ReactNode } from 'react';
import { useVirtualizer, type Virtualizer } from '@tanstack/react-virtual';
import type { Subscription } from '../../../shared/api/types';

/** Lists up to this long are rendered whole. */
export const VIRTUALIZE_FROM = 100;
const ROW_HEIGHT = 28;

/**
 * Where a virtualized row goes: its `<li>` takes `index` as data-index, `observe` as its ref and
 * `virtualRowStyle(top)` as its style, and is keyed by `index` (its place), not by its channel.
 * Plain values (not a style object made per render), so a memoized row whose place did not change
 * is not rendered again when the list is.
 */
export interface RowSlot {
  index: number;
  /** The row's offset from the top of the list, in px. */
  top: number;
  /** Watches the row's height for as long as the element lives (the same function every render). */
  observe: (element: Element | null) => (() => void) | undefined;
  /**
   * Takes the row's height at once (a forced layout): for a row that is not the usual height from
   * its first frame (the open channel, with its topics), so the rows after it never overlap it.
   */
  measureNow: (index: number, element: HTMLElement) => void;
}

interface ChannelListProps {
  subs: readonly Subscription[];
  /**
   * How long the section is unfiltered: the choice between a whole and a virtualized list follows
   * it, so typing in the filter never swaps one for the other (remounting every row).
   */
  sectionSize: number;
  row: (sub: Subscription, slot?: RowSlot) => ReactNode;
  /** The sidebar's scrolling element: state, not a ref, so the list renders again once it is set
   * (a parent's ref is attached after its children's layout effects have run). */
  scrollElement: HTMLElement | null;
}

export function ChannelList(props: ChannelListProps) {
  if (props.sectionSize <= VIRTUALIZE_FROM)
    return <ul>{props.subs.map((sub) => props.row(sub))}</ul>;
  return <VirtualChannelList {...props} />;
}

export const virtualRowStyle = (top: number): CSSProperties => ({
  position: 'absolute',
  top: 0,
  left: 0,
  right: 0,
  transform: `translateY(${top}px)`,
});

/**
 * The virtualized list. Its rows are keyed by their place in the rendered window, not by their
 * channel: a filter keystroke then gives the ~30 rows in view new text in place instead of
 * unmounting them and mounting as many new ones (elements, store subscriptions, icons), which was
 * most of the browser's work per key. For that, rows are measured here rather than by the
 * virtualizer's measureElement, which ties an element to one item for its whole life: a
 * ResizeObserver (after the browser's own layout, no forced layout in a keystroke) reports whatever
 * index the element shows when its height changes, and a row whose height is known only after it
 * renders (the open channel) says so through `measureNow`.
 */
function VirtualChannelList({ subs, row, scrollElement }: ChannelListProps) {
  const listRef = useRef<HTMLUListElement>(null);
  // Where the list starts within the sidebar's scroll (below the views and the other sections).
  const [scrollMargin, setScrollMargin] = useState(0);
  useLayoutEffect(() => {
    // The sidebar is positioned, so offsetTop is the list's place in its scrolled content.
    const top = listRef.current?.offsetTop ?? 0;
    if (top !== scrollMargin) setScrollMargin(top);
  });
  const virtualizer = useVirtualizer({
    count: subs.length,
    getScrollElement: () => scrollElement,
    estimateSize: () => ROW_HEIGHT,
    getItemKey: (index) => subs[index].stream_id,
    scrollMargin,
    overscan: 4,
    initialRect: { width: 260, height: 900 },
  });
  const measuring = useRowMeasuring(virtualizer);
  return (
    <ul ref={listRef} className="virtual-rows" style={{ height: virtualizer.getTotalSize() }}>
      {virtualizer.getVirtualItems().map((item) =>
        row(subs[item.index], {
          index: item.index,
          top: item.start - scrollMargin,
          ...measuring,
        }),
      )}
    </ul>
  );
}

/** The list's row measuring (RowSlot's observe and measureNow): one ResizeObserver for its rows. */
function useRowMeasuring(
  virtualizer: Virtualizer<HTMLElement, Element>,
): Pick<RowSlot, 'observe' | 'measureNow'> {
  // useVirtualizer gives the same instance for the list's life, so these functions are made once.
  const [measuring] = useState(() => {
    const resize = (index: number, height: number) => {
      if (index >= 0 && index < virtualizer.options.count) virtualizer.resizeItem(index, height);
    };
    const indexOf = (element: Element) => Number((element as HTMLElement).dataset.index ?? -1);
    const observer =
      typeof ResizeObserver === 'undefined'
        ? undefined
        : new ResizeObserver((entries) => {
            for (const entry of entries) {
              const box = entry.borderBoxSize?.[0];
              if (box) resize(indexOf(entry.target), Math.round(box.blockSize));
            }
          });
    return {
      observe: (element: Element | null) => {
        if (!element || !observer) return undefined;
        observer.observe(element, { box: 'border-box' });
        return () => observer.unobserve(element);
      },
      measureNow: (index: number, element: HTMLElement) => resize(index, element.offsetHeight),
    };
  });
  return measuring;
}
