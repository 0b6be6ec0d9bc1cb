// The message list is virtualized: a narrow of 10,000 messages keeps only the rows near the
// viewport in the DOM, and scrolling swaps which rows those are.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { act, cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { MessageList } from '../../../renderer/features/messages/MessageList';
import { narrowKey, channelNarrow } from '../../../shared/narrow';
import { channelMessage, GENERAL, setupStore } from '../store/fixtures';
import { fakeLayout, installFakeApi, Providers, resetUi } from './harness';

let restoreLayout: () => void;
beforeEach(() => {
  resetUi('a');
  installFakeApi();
  restoreLayout = fakeLayout();
});
afterEach(() => {
  cleanup();
  restoreLayout();
});

function fill(count: number, perTopic = 20) {
  const ctx = setupStore();
  const key = narrowKey(channelNarrow(GENERAL));
  const messages = Array.from({ length: count }, (_, i) => ({
    ...channelMessage(i + 1, GENERAL, `topic ${Math.floor(i / perTopic)}`, {
      content: `body ${i + 1}`,
    }),
    flags: ['read' as const],
  }));
  ctx.store
    .getState()
    .mergeFetchedMessages('a', key, messages, { foundOldest: true, foundNewest: true });
  return { ...ctx, key };
}

/** A list of `count` unread messages on screen; main's answers recorded (updateFlags). */
function showUnread(count: number) {
  const ctx = setupStore();
  const key = narrowKey(channelNarrow(GENERAL));
  const messages = Array.from({ length: count }, (_, i) =>
    channelMessage(i + 1, GENERAL, 'fresh', { content: `unread ${i + 1}` }),
  );
  ctx.store
    .getState()
    .mergeFetchedMessages('a', key, messages, { foundOldest: true, foundNewest: true });
  const api = installFakeApi();
  render(
    <Providers store={ctx.store}>
      <MessageList accountId="a" narrowKey={key} offline />
    </Providers>,
  );
  return api;
}

describe('MessageList', () => {
  it('keeps under 150 message nodes in the DOM for 10,000 messages', async () => {
    const { store, key } = fill(10_000);
    render(
      <Providers store={store}>
        <MessageList accountId="a" narrowKey={key} offline />
      </Providers>,
    );
    const rows = await screen.findAllByTestId('message');
    expect(rows.length).toBeGreaterThan(5);
    expect(rows.length).toBeLessThan(150);
    // Opened at the bottom (everything is read): the newest message is on screen, the oldest not.
    expect(await screen.findByText('body 10000')).toBeTruthy();
    expect(screen.queryByText('body 1')).toBeNull();

    const list = screen.getByRole('list', { name: 'Messages' });
    await act(async () => {
      fireEvent.wheel(list);
      list.scrollTop = 0;
      fireEvent.scroll(list);
    });
    expect(await screen.findByText('body 1')).toBeTruthy();
    expect(screen.queryByText('body 10000')).toBeNull();
    expect(screen.getAllByTestId('message').length).toBeLessThan(150);
  });

  it('shows recipient headers only where the conversation changes', async () => {
    const { store, key } = fill(60, 5);
    render(
      <Providers store={store}>
        <MessageList accountId="a" narrowKey={key} offline />
      </Providers>,
    );
    await screen.findByText('body 60');
    const list = screen.getByRole('list', { name: 'Messages' });
    await act(async () => {
      fireEvent.wheel(list);
      list.scrollTop = 0;
      fireEvent.scroll(list);
    });
    const first = await screen.findByText('body 1');
    const row = first.closest('[data-testid=message]')!;
    expect(row.querySelector('.recipient-header')?.textContent).toMatch(/#general.*topic 0/);
    const second = screen.getByText('body 2').closest('[data-testid=message]')!;
    expect(second.querySelector('.recipient-header')).toBeNull();
    const twentyFirst = screen.getByText('body 6').closest('[data-testid=message]')!;
    expect(twentyFirst.querySelector('.recipient-header')?.textContent).toMatch(/topic 1/);
  });

  it('marks the unread messages in view as read (web_mark_read_on_scroll_policy "always")', async () => {
    const api = showUnread(5);
    await screen.findByText('unread 5');
    await waitFor(() => expect(api.updateFlags).toHaveBeenCalled(), { timeout: 3000 });
    const marked = api.updateFlags.mock.calls.flatMap(
      ([input]) => (input as { messages: number[] }).messages,
    );
    expect([...new Set(marked)].sort()).toEqual([1, 2, 3, 4, 5]);
    expect(api.updateFlags.mock.calls[0][0]).toMatchObject({ op: 'add', flag: 'read' });
  });

  it('marks rows read that come into view without a scroll (the viewport grows)', async () => {
    // The list's ResizeObserver, driven by the test: the viewport reported taller.
    const observed = new Map<Element, ResizeObserverCallback>();
    const saved = globalThis.ResizeObserver;
    globalThis.ResizeObserver = class {
      constructor(private readonly callback: ResizeObserverCallback) {}
      observe(target: Element) {
        observed.set(target, this.callback);
      }
      unobserve() {}
      disconnect() {}
    } as unknown as typeof ResizeObserver;
    try {
      const api = showUnread(40);
      await waitFor(() => expect(api.updateFlags).toHaveBeenCalled(), { timeout: 3000 });
      const marked = () =>
        new Set(
          api.updateFlags.mock.calls.flatMap(
            ([input]) => (input as { messages: number[] }).messages,
          ),
        );
      // The reader moves to the middle: rows 11-20 (60 px each in a 600 px viewport).
      const list = document.querySelector<HTMLElement>('.message-list')!;
      act(() => {
        fireEvent.wheel(list);
        list.scrollTop = 600;
        fireEvent.scroll(list);
      });
      await waitFor(() => expect(marked().has(20)).toBe(true), { timeout: 3000 });
      expect(marked().has(21)).toBe(false);
      // The viewport grows to 700 px with no scroll: row 21 comes into view and is marked read.
      Object.defineProperty(list, 'clientHeight', { configurable: true, get: () => 700 });
      act(() =>
        observed.get(list)?.(
          [{ target: list } as unknown as ResizeObserverEntry],
          {} as ResizeObserver,
        ),
      );
      await waitFor(() => expect(marked().has(21)).toBe(true), { timeout: 3000 });
    } finally {
      globalThis.ResizeObserver = saved;
    }
  });
});
