// "Mark as unread from here" must stick: the messages are on screen, and the list marks what is on
// screen as read, so it holds off (as the web app does) until the reader scrolls again.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { act, cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { MessageList } from '../../../renderer/features/messages/MessageList';
import { narrowKey, topicNarrow } from '../../../shared/narrow';
import { channelMessage, GENERAL, readEvent, setupStore } from '../store/fixtures';
import { fakeLayout, installFakeApi, Providers, resetUi, type FakeApi } from './harness';

let restoreLayout: () => void;
beforeEach(() => {
  resetUi('a');
  restoreLayout = fakeLayout();
});
afterEach(() => {
  cleanup();
  restoreLayout();
});

/** The message ids the list asked main to mark read. */
function markedRead(api: FakeApi): number[] {
  return api.updateFlags.mock.calls
    .map(([input]) => input as { messages: number[]; op: string; flag: string })
    .filter((input) => input.op === 'add' && input.flag === 'read')
    .flatMap((input) => input.messages);
}

describe('mark as unread from here', () => {
  it('keeps the messages unread while they stay in view, until the reader scrolls', async () => {
    const ctx = setupStore();
    const key = narrowKey(topicNarrow(GENERAL, 'plans'));
    const messages = Array.from({ length: 5 }, (_, i) => ({
      ...channelMessage(i + 1, GENERAL, 'plans', { content: `line ${i + 1}` }),
      flags: ['read' as const],
    }));
    ctx.store
      .getState()
      .mergeFetchedMessages('a', key, messages, { foundOldest: true, foundNewest: true });
    // Main answers as the server does: the messages from the anchor on come back unread (an
    // update_message_flags event), which re-renders their rows.
    const api = installFakeApi({
      updateFlagsForNarrow: () => {
        ctx.apply(readEvent([3, 4, 5], 'remove'));
        return { result: 'success', msg: '', processed_count: 3, updated_count: 3 };
      },
    });
    render(
      <Providers store={ctx.store}>
        <MessageList accountId="a" narrowKey={key} offline />
      </Providers>,
    );
    const row = (await screen.findByText('line 3')).closest<HTMLElement>('[data-testid=message]')!;
    fireEvent.pointerEnter(row);
    fireEvent.click(await screen.findByRole('button', { name: 'Message actions' }));
    await act(async () => {
      fireEvent.click(screen.getByRole('menuitem', { name: 'Mark as unread from here' }));
    });
    expect(api.updateFlagsForNarrow).toHaveBeenCalledWith(
      expect.objectContaining({ anchor: 3, includeAnchor: true, op: 'remove', flag: 'read' }),
    );
    await waitFor(() => expect(row.className).toContain('unread'));

    // Idle, with the unread messages in view: well past the list's mark-read delay, nothing is
    // marked read again.
    await act(() => new Promise((resolve) => setTimeout(resolve, 1_500)));
    expect(markedRead(api)).toEqual([]);
    const unread = [3, 4, 5].filter(
      (id) => !ctx.account().messages.byId.get(id)!.flags.includes('read'),
    );
    expect(unread).toEqual([3, 4, 5]);

    // The reader scrolls: what is in view is read again.
    const list = screen.getByRole('list', { name: 'Messages' });
    await act(async () => {
      fireEvent.wheel(list);
      fireEvent.scroll(list);
    });
    await waitFor(() => expect([...new Set(markedRead(api))].sort()).toEqual([3, 4, 5]), {
      timeout: 3_000,
    });
  });
});
