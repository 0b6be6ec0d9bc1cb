// After a fresh snapshot (the event queue was lost and main registered again), the open message
// list is fetched again around the message the reader was at, and shown there, instead of jumping
// back to the first unread. The real store and message list; main's getMessages is a fake that
// pages through one channel's 101 messages as the server does.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { act, cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { MessageList } from '../../../renderer/features/messages/MessageList';
import { channelNarrow, narrowKey } from '../../../shared/narrow';
import type { MessageWithFlags } from '../../../shared/api/types';
import { channelMessage, GENERAL, register, setupStore, unreadMsgs } from '../store/fixtures';
import { readingPosition } from '../../../renderer/features/messages/reading-position';
import { fakeLayout, installFakeApi, Providers, resetUi, type FakeApi } from './harness';

const FIRST_UNREAD = 250;
const IDS = Array.from({ length: 101 }, (_, i) => 200 + i);
const MESSAGES: MessageWithFlags[] = IDS.map((id) => ({
  ...channelMessage(id, GENERAL, 'long', { content: `body ${id}` }),
  flags: id === FIRST_UNREAD ? [] : ['read'],
}));

interface PageRequest {
  anchor: number | string;
  numBefore: number;
  numAfter: number;
  includeAnchor?: boolean;
}

/** GET /messages over MESSAGES: both directions from the anchor (first_unread: FIRST_UNREAD). */
function serve({ anchor, numBefore, numAfter, includeAnchor }: PageRequest) {
  const at = anchor === 'first_unread' ? FIRST_UNREAD : Number(anchor);
  const index = IDS.indexOf(at);
  const before = MESSAGES.slice(Math.max(0, index - numBefore), index);
  const after = MESSAGES.slice(index + 1, index + 1 + numAfter);
  const self = includeAnchor !== false ? [MESSAGES[index]!] : [];
  const messages = [...before, ...self, ...after];
  return {
    result: 'success',
    msg: '',
    anchor: at,
    messages,
    found_oldest: messages[0]?.id === IDS[0],
    found_newest: messages.at(-1)?.id === IDS.at(-1),
  };
}

const unread = () =>
  unreadMsgs({
    streams: [{ stream_id: GENERAL, topic: 'long', unread_message_ids: [FIRST_UNREAD] }],
  });

let restoreLayout: () => void;
let api: FakeApi;
beforeEach(() => {
  resetUi('a');
  api = installFakeApi({ getMessages: (input) => serve(input as PageRequest) });
  restoreLayout = fakeLayout();
});
afterEach(() => {
  cleanup();
  restoreLayout();
});

const anchors = () => api.getMessages.mock.calls.map(([input]) => (input as PageRequest).anchor);

describe('a fresh snapshot while a conversation is open', () => {
  it("refetches around the reader's place and stays there, not at the first unread", async () => {
    const ctx = setupStore({ unread_msgs: unread() });
    const key = narrowKey(channelNarrow(GENERAL));
    render(
      <Providers store={ctx.store}>
        <MessageList accountId="a" narrowKey={key} />
      </Providers>,
    );
    // Opened at the first unread.
    await screen.findByText(`body ${FIRST_UNREAD}`);
    expect(anchors()).toEqual(['first_unread']);

    // The reader scrolls up, five rows from the top of the page (message 205).
    const list = screen.getByRole('list', { name: 'Messages' });
    await act(async () => {
      fireEvent.wheel(list);
      list.scrollTop = 5 * 60 + 30;
      fireEvent.scroll(list);
    });
    await screen.findByText('body 205');
    expect(screen.queryByText(`body ${FIRST_UNREAD}`)).toBeNull();
    const place = readingPosition('a', key)!;
    expect(place).toBeGreaterThanOrEqual(204);
    expect(place).toBeLessThanOrEqual(206);
    const offset = list.scrollTop;

    // The queue was lost: main pushes a fresh snapshot, which replaces the account's state.
    act(() => {
      ctx.store.getState().replaceSnapshot('a', register({ unread_msgs: unread() }));
      // The emptied list collapses and a browser clamps its scroll position to 0 (jsdom does not).
      list.scrollTop = 0;
      fireEvent.scroll(list);
    });
    await waitFor(() => expect(anchors()).toHaveLength(2));
    expect(api.getMessages.mock.calls[1]![0]).toMatchObject({ anchor: place, includeAnchor: true });

    // Shown at the same place once the page has arrived: that message at the top again.
    await screen.findByText(`body ${place}`);
    await waitFor(() => expect(Math.abs(list.scrollTop - offset)).toBeLessThan(60));
    expect(screen.queryByText(`body ${FIRST_UNREAD}`)).toBeNull();
  });
});
