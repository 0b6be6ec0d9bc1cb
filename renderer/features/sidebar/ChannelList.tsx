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
 * Where a virtualized row goes: its `<li>` takes `index` as data-index, `measure` as its ref and
 * `virtualRowStyle(top)` as its style. Plain values (not a style object made per render), so a
 * memoized row whose place did not change is not rendered again when the list is.
 */
export interface RowSlot {
  index: number;
  /** The row's offset from the top of the list, in px. */
  top: number;
  /** The virtualizer's measureElement (the same function on every render). */
  measure: (element: Element | null) => void;
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

/**
 * A row's height without forcing a layout: the ResizeObserver's size once it reports (after the
 * browser's own layout), its last known height or the usual one until then. Reading offsetHeight
 * as each new row mounts (the virtualizer's default) laid out the whole page in the middle of a
 * filter keystroke, for the 30 rows each key brings into view. A row that is not the usual height
 * from its first frame (the open channel, with its topics) says so with `data-measure-now`.
 */
function rowHeight(
  element: Element,
  entry: ResizeObserverEntry | undefined,
  virtualizer: Virtualizer<HTMLElement, Element>,
): number {
  const box = entry?.borderBoxSize?.[0];
  if (box) return Math.round(box.blockSize);
  if (element instanceof HTMLElement && element.dataset.measureNow !== undefined)
    return element.offsetHeight;
  const key = virtualizer.options.getItemKey(virtualizer.indexFromElement(element));
  return virtualizer.itemSizeCache.get(key) ?? ROW_HEIGHT;
}

export const virtualRowStyle = (top: number): CSSProperties => ({
  position: 'absolute',
  top: 0,
  left: 0,
  right: 0,
  transform: `translateY(${top}px)`,
});

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
    measureElement: rowHeight,
  });
  return (
    <ul ref={listRef} className="virtual-rows" style={{ height: virtualizer.getTotalSize() }}>
      {virtualizer.getVirtualItems().map((item) =>
        row(subs[item.index], {
          index: item.index,
          top: item.start - scrollMargin,
          measure: virtualizer.measureElement,
        }),
      )}
    </ul>
  );
}
