// useListVirtualizer (the message list's virtualizer) renders the list only when the rows in view
// near the edge of the rendered ones: a scroll of a row or two, a row measured at a new height, and
// the start and end of a scroll change the list's geometry in the DOM without a render, and tell
// the viewport's listeners. jsdom lays nothing out: fakeLayout gives the list 600 px and each row
// 60 px, and a ResizeObserver stand-in reports the sizes a test gives it.
import { useEffect } from 'react';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { act, cleanup, fireEvent, render, screen } from '@testing-library/react';
import {
  useListVirtualizer,
  useViewportValue,
} from '../../../renderer/features/messages/use-list-virtualizer';
import { fakeLayout } from './harness';

const COUNT = 1000;
const ROW_PX = 60;

/** The ResizeObserver callbacks observing each element, so a test can report a row's new size. */
const observers = new Map<Element, Set<ResizeObserverCallback>>();
function reportResize(target: Element, height: number) {
  const size = [{ blockSize: height, inlineSize: 800 }];
  const entry = {
    target,
    borderBoxSize: size,
    contentBoxSize: size,
    devicePixelContentBoxSize: size,
    contentRect: { height, width: 800 } as DOMRectReadOnly,
  };
  for (const callback of observers.get(target) ?? [])
    callback([entry], {} as unknown as ResizeObserver);
}
class ManualResizeObserver {
  constructor(private readonly callback: ResizeObserverCallback) {}
  observe(target: Element) {
    const set = observers.get(target) ?? new Set();
    set.add(this.callback);
    observers.set(target, set);
  }
  unobserve(target: Element) {
    observers.get(target)?.delete(this.callback);
  }
  disconnect() {}
}

let renders = 0;
let viewportChanges = 0;

function TopRow({ list }: { list: ReturnType<typeof useListVirtualizer>['list'] }) {
  const top = useViewportValue(list, (v) => v.getVirtualItemForOffset(v.scrollOffset ?? 0)?.index);
  return <p data-testid="top">{top}</p>;
}

/** Subscribes as the message list's load-more check does. */
function ViewportCounter({ list }: { list: ReturnType<typeof useListVirtualizer>['list'] }) {
  useEffect(() => list.subscribe(() => viewportChanges++), [list]);
  return null;
}

function TestList() {
  renders++;
  const { list, items, attachScroller, attachSizer, attachBlock } = useListVirtualizer({
    count: COUNT,
    estimateSize: () => ROW_PX,
    overscan: 6,
    initialRect: { width: 800, height: 600 },
  });
  return (
    <>
      <TopRow list={list} />
      <ViewportCounter list={list} />
      <div ref={attachScroller} className="message-list" data-testid="scroller">
        <div
          ref={attachSizer}
          data-testid="sizer"
          style={{ height: list.virtualizer.getTotalSize() }}
        >
          <div ref={attachBlock} style={{ transform: `translateY(${items[0]?.start ?? 0}px)` }}>
            {items.map((item) => (
              <div
                key={item.key}
                data-index={item.index}
                data-testid="row"
                ref={list.virtualizer.measureElement}
              >
                row {item.index}
              </div>
            ))}
          </div>
        </div>
      </div>
    </>
  );
}

let restoreLayout: () => void;
const savedObserver = globalThis.ResizeObserver;
beforeEach(() => {
  renders = 0;
  viewportChanges = 0;
  observers.clear();
  restoreLayout = fakeLayout();
  globalThis.ResizeObserver = ManualResizeObserver as unknown as typeof ResizeObserver;
});
afterEach(() => {
  cleanup();
  restoreLayout();
  globalThis.ResizeObserver = savedObserver;
});

function scrollTo(top: number) {
  const scroller = screen.getByTestId('scroller');
  act(() => {
    scroller.scrollTop = top;
    fireEvent.scroll(scroller);
  });
}

const rowIndices = () => screen.getAllByTestId('row').map((r) => Number(r.dataset.index));

describe('useListVirtualizer', () => {
  it('scrolls a row without rendering the list, and renders the next rows near the edge', () => {
    render(<TestList />);
    const rendered = rowIndices();
    expect(rendered[0]).toBe(0);
    // 600 px of 60 px rows in view, and six more below.
    expect(rendered.at(-1)).toBe(15);
    const before = renders;

    // One row down: rows 1–10 in view, all rendered, more than two rows from the edge.
    scrollTo(ROW_PX);
    expect(renders).toBe(before);
    expect(screen.getByTestId('top').textContent).toBe('1');

    // Five rows down: row 14 comes into view, within two of the last rendered row (15).
    scrollTo(5 * ROW_PX);
    expect(renders).toBeGreaterThan(before);
    expect(rowIndices()).toContain(20);
    expect(screen.getByTestId('top').textContent).toBe('5');
  });

  it('follows a row measured at a new height in the DOM, without rendering the list', () => {
    render(<TestList />);
    const sizer = screen.getByTestId('sizer');
    expect(sizer.style.height).toBe(`${COUNT * ROW_PX}px`);
    const before = renders;

    const row = screen.getAllByTestId('row')[3]!;
    act(() => reportResize(row, ROW_PX + 30));
    expect(renders).toBe(before);
    expect(sizer.style.height).toBe(`${COUNT * ROW_PX + 30}px`);
  });

  it('renders the rows that come into view when rows above them shrink, with no scroll', () => {
    render(<TestList />);
    const row = (i: number) =>
      screen.getAllByTestId('row').find((r) => Number(r.dataset.index) === i)!;
    act(() => reportResize(row(14), 10 * ROW_PX));
    act(() => reportResize(row(15), 10 * ROW_PX));
    scrollTo(14 * ROW_PX);
    // Rows 14 and 15 fill the viewport; then they shrink back: rows 14-23 are in view.
    act(() => reportResize(row(14), ROW_PX));
    act(() => reportResize(row(15), ROW_PX));
    expect(rowIndices()).toContain(23);
  });

  it('tells subscribers of every change of the viewport', () => {
    render(<TestList />);
    const before = viewportChanges;
    scrollTo(2 * ROW_PX);
    expect(viewportChanges).toBeGreaterThan(before);
  });
});
