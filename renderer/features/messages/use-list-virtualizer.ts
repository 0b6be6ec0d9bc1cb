// @tanstack/react-virtual's useVirtualizer, for a list whose rows sit in normal flow inside one block
// moved to the first rendered row's offset (MessageList).
//
// The library's hook re-renders the list on every change the virtualizer reports: each row measured
// at a new height, each scroll across a row boundary, the start and the end of every scroll. Rows in
// normal flow need none of those renders, since the browser's layout moves them. Only two values
// follow the measurements: the list's total height and the block's offset. On a list's first paint
// those renders were two or three more passes over the list before the frame. This hook re-renders
// only when the rows in view come within EDGE_ROWS of the edge of the rendered ones (or the count
// changes). Otherwise it writes those two values straight to the DOM.
//
// Whatever else follows the scroll position (the sticky header, the jump button, loading the next
// page) subscribes to `subscribe` and reads the virtualizer, without a render of the list.
import {
  useInsertionEffect,
  useLayoutEffect,
  useReducer,
  useState,
  useSyncExternalStore,
} from 'react';
import { flushSync } from 'react-dom';
import {
  Virtualizer,
  elementScroll,
  observeElementOffset,
  observeElementRect,
  type PartialKeys,
  type VirtualItem,
  type VirtualizerOptions,
} from '@tanstack/react-virtual';

/** Re-render once the rows in view come this close to the edge of the rendered ones. */
const EDGE_ROWS = 2;

export type ListVirtualizerOptions = Omit<
  PartialKeys<
    VirtualizerOptions<HTMLDivElement, Element>,
    'observeElementRect' | 'observeElementOffset' | 'scrollToFn'
  >,
  'getScrollElement'
>;

export type ListVirtualizerInstance = Virtualizer<HTMLDivElement, Element>;

interface Rendered {
  start: number;
  end: number;
  count: number;
}

/**
 * One list's virtualizer and what it needs outside React's render: the rows the last commit put in
 * the DOM, the two elements whose geometry it writes, and the viewport's listeners.
 */
export class ListVirtualizer {
  readonly virtualizer: ListVirtualizerInstance;
  private rendered: Rendered | null = null;
  private scroller: HTMLDivElement | null = null;
  private sizer: HTMLElement | null = null;
  private block: HTMLElement | null = null;
  /** Inside a ref callback's measurement, in React's commit: no flushSync there. */
  private measuring = false;
  /** A change reported while rows were being measured, not yet acted on (see update). */
  private changedWhileMeasuring = false;
  /** Until the first frame of the positioned list is painted (see measureRow). */
  private measureOnMount = true;
  private readonly listeners = new Set<() => void>();

  constructor(
    options: ListVirtualizerOptions,
    private readonly rerender: () => void,
  ) {
    this.virtualizer = new Virtualizer(this.resolve(options));
    const measure = this.virtualizer.measureElement;
    this.virtualizer.measureElement = (node) => {
      this.measuring = true;
      try {
        measure(node);
      } finally {
        this.measuring = false;
      }
    };
  }

  setOptions(options: ListVirtualizerOptions): void {
    this.virtualizer.setOptions(this.resolve(options));
  }

  /** The list's first positioned frame is painted: rows are measured from now on as they resize. */
  readonly positioned = (): void => {
    this.measureOnMount = false;
  };

  /**
   * How rows are measured. By the virtualizer's ResizeObserver, which reports every new row of a
   * frame in one batch after layout: measuring in the ref callback instead (the library's default)
   * forces a layout per row and re-walks the offsets of every following row (O(rows x n)) per
   * measurement, so there the known size (or the estimate) is returned, which changes nothing.
   *
   * Until the first positioned frame is painted, though, rows are measured as they mount: the first
   * read lays out the list once (the layout the virtualizer's own viewport read would force anyway;
   * nothing changes the DOM between the rows' ref callbacks), so the virtualizer knows the real
   * heights before the list is positioned, and the first frame needs no second layout.
   */
  private readonly measureRow = (
    element: Element,
    entry: ResizeObserverEntry | undefined,
    instance: ListVirtualizerInstance,
  ): number => {
    const box = entry?.borderBoxSize?.[0];
    if (box) return box.blockSize;
    if (entry || this.measureOnMount) return element.getBoundingClientRect().height;
    const index = instance.indexFromElement(element);
    return instance.measurementsCache[index]?.size ?? instance.options.estimateSize(index);
  };

  /** The rows a render is about to commit (set in the commit, before any row is measured). */
  setRendered(items: VirtualItem[], count: number): void {
    this.rendered = { start: items[0]?.index ?? 0, end: items.at(-1)?.index ?? -1, count };
  }

  /** Ref of the scrolling element. */
  readonly attachScroller = (element: HTMLDivElement | null): void => {
    this.scroller = element;
  };

  /** The scrolling element, once mounted. */
  get scrollElement(): HTMLDivElement | null {
    return this.scroller;
  }

  /** Ref of the element whose height is the list's total size. */
  readonly attachSizer = (element: HTMLElement | null): void => {
    this.sizer = element;
  };

  /** Ref of the block moved to the first rendered row's offset. */
  readonly attachBlock = (element: HTMLElement | null): void => {
    this.block = element;
  };

  /** Called on every change the virtualizer reports (scroll, resize, measurement). */
  readonly subscribe = (listener: () => void): (() => void) => {
    this.listeners.add(listener);
    return () => void this.listeners.delete(listener);
  };

  /**
   * After the caller scrolled the list itself: takes the new scroll position now instead of from
   * the scroll event a frame later, and renders the rows now in view if they are not all rendered
   * (within the current commit when called from a layout effect).
   */
  readonly takeScrollPosition = (): void => {
    if (this.scroller) this.virtualizer.scrollOffset = this.scroller.scrollTop;
    this.virtualizer.calculateRange();
    this.update(false);
  };

  /** Writes the geometry that follows the measurements: total height, the block's offset (only
   * what changed: an unchanged write would still cost a string and a style lookup per change). */
  applyGeometry(): void {
    const v = this.virtualizer;
    const height = `${v.getTotalSize()}px`;
    if (this.sizer && this.sizer.style.height !== height) this.sizer.style.height = height;
    const rendered = this.rendered;
    if (!this.block || !rendered || rendered.end < rendered.start) return;
    const first = v.measurementsCache[rendered.start];
    if (!first) return;
    // getVirtualItems shifts items by a hold offset while the scroll position can't be written
    // (an iOS momentum scroll): read that shift off an item it returns.
    const sample = v.getVirtualItems()[0];
    const hold = sample
      ? (v.measurementsCache[sample.index]?.start ?? sample.start) - sample.start
      : 0;
    const transform = `translateY(${first.start - hold}px)`;
    if (this.block.style.transform !== transform) this.block.style.transform = transform;
  }

  private resolve(options: ListVirtualizerOptions): VirtualizerOptions<HTMLDivElement, Element> {
    return {
      observeElementRect,
      observeElementOffset,
      scrollToFn: elementScroll,
      measureElement: this.measureRow,
      ...options,
      getScrollElement: () => this.scroller,
      onChange: (instance, sync) => {
        this.update(sync);
        options.onChange?.(instance, sync);
      },
    };
  }

  private update(sync: boolean): void {
    // Rows measured one by one as a commit mounts them: deciding after each (the rows in view
    // recomputed, the height written, which makes the next measurement lay the list out again,
    // the listeners told of a viewport still moving) is left to the hook's layout effect, once,
    // after the last row's measurement (afterCommit).
    if (this.measuring) {
      this.changedWhileMeasuring = true;
      return;
    }
    if (this.needsRender()) {
      // The rows already shown move now, not in the render to come (a frame may come first).
      this.applyGeometry();
      if (sync) flushSync(this.rerender);
      else this.rerender();
    } else this.applyGeometry();
    for (const listener of this.listeners) listener();
  }

  /** After a commit's rows are measured: what their measurements changed, decided once. */
  afterCommit(): void {
    if (this.changedWhileMeasuring && !this.measureOnMount) {
      this.changedWhileMeasuring = false;
      // In a layout effect: a render needed now is made before the frame.
      this.update(false);
      return;
    }
    // Before the list is positioned the scroll offset is still the estimate's: which rows are in
    // view is decided by the positioning (takeScrollPosition), in this same commit.
    this.changedWhileMeasuring = false;
    this.applyGeometry();
    for (const listener of this.listeners) listener();
  }

  private needsRender(): boolean {
    const v = this.virtualizer;
    const rendered = this.rendered;
    const count = v.options.count;
    if (!rendered || rendered.count !== count) return true;
    // Recomputed here: a resize reports its change before the virtualizer updates its range, and
    // getVirtualItems (in applyGeometry) would then record the new range as already reported.
    const range = v.calculateRange();
    if (!range) return false;
    const edge = Math.min(EDGE_ROWS, v.options.overscan);
    const low = rendered.start > 0 ? rendered.start + edge : 0;
    const high = rendered.end < count - 1 ? rendered.end - edge : count - 1;
    return range.startIndex < low || range.endIndex > high;
  }
}

export function useListVirtualizer(options: ListVirtualizerOptions): {
  list: ListVirtualizer;
  /** The rows to render (the range in view and the overscan). */
  items: VirtualItem[];
  /** Ref callbacks of the scrolling element, the element sized to the list's total height, and
   * the block moved to the first rendered row's offset. */
  attachScroller: (element: HTMLDivElement | null) => void;
  attachSizer: (element: HTMLElement | null) => void;
  attachBlock: (element: HTMLElement | null) => void;
} {
  const [, rerender] = useReducer((n: number) => n + 1, 0);
  const [list] = useState(() => new ListVirtualizer(options, rerender));
  list.setOptions(options);
  const items = list.virtualizer.getVirtualItems();
  const count = options.count;
  // Recorded in the commit before any ref callback measures a row (insertion effects run in the
  // mutation phase, refs are attached after it), so measurements compare with this render's rows.
  useInsertionEffect(() => list.setRendered(items, count));
  useLayoutEffect(() => list.virtualizer._didMount(), [list]);
  useLayoutEffect(() => {
    // React wrote the geometry of this render; measurements since may have moved on.
    list.afterCommit();
    return list.virtualizer._willUpdate();
  });
  const { attachScroller, attachSizer, attachBlock } = list;
  return { list, items, attachScroller, attachSizer, attachBlock };
}

/** A value read off the virtualizer, kept current by its changes (re-renders when it differs). */
export function useViewportValue<T>(
  list: ListVirtualizer,
  read: (v: ListVirtualizerInstance) => T,
): T {
  return useSyncExternalStore(list.subscribe, () => read(list.virtualizer));
}
