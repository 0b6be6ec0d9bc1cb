// A message list opened after another starts from what the first one measured (its viewport and
// typical row height) instead of fixed guesses, so its first frame renders the rows that fill the
// viewport. jsdom lays nothing out: fakeLayout gives the list 600 px, and a ResizeObserver standing
// in for the browser's reports every row at 30 px.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { cleanup, render, screen } from '@testing-library/react';
import { MessageList } from '../../../renderer/features/messages/MessageList';
import { expectedListRect, expectedRowPx } from '../../../renderer/features/messages/list-layout';
import { narrowKey, channelNarrow } from '../../../shared/narrow';
import { channelMessage, GENERAL, RANDOM, setupStore } from '../store/fixtures';
import { fakeLayout, installFakeApi, Providers, resetUi } from './harness';

const ROW_PX = 30;

/** Reports each observed row (not the list itself) at ROW_PX, on the next task as a browser would. */
class RowResizeObserver {
  constructor(private readonly callback: ResizeObserverCallback) {}
  observe(target: Element) {
    if (target.classList.contains('message-list')) return;
    setTimeout(() => {
      if (!target.isConnected) return;
      const size = [{ blockSize: ROW_PX, inlineSize: 800 }];
      this.callback(
        [
          {
            target,
            borderBoxSize: size,
            contentBoxSize: size,
            devicePixelContentBoxSize: size,
            contentRect: { height: ROW_PX, width: 800 } as DOMRectReadOnly,
          },
        ],
        this as unknown as ResizeObserver,
      );
    }, 0);
  }
  unobserve() {}
  disconnect() {}
}

let restoreLayout: () => void;
const savedObserver = globalThis.ResizeObserver;
beforeEach(() => {
  resetUi('a');
  installFakeApi();
  restoreLayout = fakeLayout();
  // A row's box is the same size whoever reads it: the list measures the rows of its first frame
  // directly, the ResizeObserver reports later rows.
  const fakeRect = HTMLElement.prototype.getBoundingClientRect;
  HTMLElement.prototype.getBoundingClientRect = function (this: HTMLElement) {
    const rect = fakeRect.call(this);
    if (!this.classList.contains('message-row')) return rect;
    return { ...rect, height: ROW_PX, bottom: ROW_PX } as DOMRect;
  };
  globalThis.ResizeObserver = RowResizeObserver as unknown as typeof ResizeObserver;
});
afterEach(() => {
  cleanup();
  restoreLayout();
  globalThis.ResizeObserver = savedObserver;
});

function fill(channel: number, count: number, first: number) {
  return Array.from({ length: count }, (_, i) => ({
    ...channelMessage(first + i, channel, 'topic', { content: `body ${first + i}` }),
    flags: ['read' as const],
  }));
}

describe('MessageList layout memory', () => {
  it('opens the next list with the viewport and row height the last one measured', async () => {
    const { store } = setupStore();
    const general = narrowKey(channelNarrow(GENERAL));
    const random = narrowKey(channelNarrow(RANDOM));
    store.getState().mergeFetchedMessages('a', general, fill(GENERAL, 2000, 1), {
      foundOldest: true,
      foundNewest: true,
    });
    store.getState().mergeFetchedMessages('a', random, fill(RANDOM, 2000, 5001), {
      foundOldest: true,
      foundNewest: true,
    });

    const first = render(
      <Providers store={store}>
        <MessageList accountId="a" narrowKey={general} offline />
      </Providers>,
    );
    expect(await screen.findByText('body 2000')).toBeTruthy();
    // Measured once the rows have been reported and positioning has settled.
    await expect.poll(() => expectedRowPx(), { timeout: 3000 }).toBe(ROW_PX);
    expect(expectedListRect().height).toBe(600);
    first.unmount();

    render(
      <Providers store={store}>
        <MessageList accountId="a" narrowKey={random} offline />
      </Providers>,
    );
    // The first render (before any row of this list is measured) already spans the viewport by
    // the remembered height: 600 / 30 = 20 rows in view, plus the rows kept above them.
    const rows = screen.getAllByTestId('message');
    expect(rows.length).toBeGreaterThanOrEqual(20);
    expect(rows.length).toBeLessThan(30);
    expect(screen.getByText('body 7000')).toBeTruthy();
  });
});
