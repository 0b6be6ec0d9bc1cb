// Which messages "Move or rename topic" from a message's menu offers to move at first, as the
// public web app picks it by the message's place in its topic: the first (or only) message moves
// the whole topic, the last only itself, one in between itself and the later ones. Against the real
// local realm server through the real bridge and main: from the topic's list when the store holds
// it, else from the server. (The real server showed the old rule moving a one-message topic's only
// message alone, so the mover's view stayed on the emptied topic.)
import { afterEach, describe, expect, it } from 'vitest';
import { act } from 'react';
import { cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { MessageRow } from '../../../renderer/features/messages/MessageRow';
import { navigate } from '../../../renderer/store/ui-store';
import { narrowKey, topicNarrow } from '../../../shared/narrow';
import { Providers, resetUi } from './harness';
import { liveAccountForFile } from './live-realm';

const liveAccount = liveAccountForFile();
afterEach(cleanup);

async function post(topic: string, count: number): Promise<number[]> {
  const live = liveAccount();
  const ids: number[] = [];
  for (let i = 0; i < count; i++) {
    const sent = await live.api.sendMessage({
      accountId: live.accountId,
      message: { type: 'channel', to: live.channelId('general'), topic, content: `${topic} ${i}` },
    });
    ids.push(sent.messageId!);
  }
  return ids;
}

/** Opens the move form from the message's menu; returns the "Which messages" choice it settles on. */
async function offeredScope(id: number): Promise<string> {
  const live = liveAccount();
  const { container } = render(
    <Providers store={live.store}>
      <MessageRow accountId={live.accountId} id={id} prevId={undefined} selected />
    </Providers>,
  );
  const row = container.querySelector<HTMLElement>('[data-testid=message]')!;
  fireEvent.click(within(row).getByRole('button', { name: 'Message actions' }));
  fireEvent.click(screen.getByRole('menuitem', { name: 'Move or rename topic' }));
  const which = within(row).getByLabelText<HTMLSelectElement>('Which messages should be moved?');
  // Settled: what the server said (or the store) no longer changes it.
  let last = '';
  await waitFor(
    () => {
      const now = which.value;
      const settled = now === last;
      last = now;
      expect(settled).toBe(true);
    },
    { interval: 150 },
  );
  cleanup();
  return last;
}

describe("the move form's first choice, from the server", () => {
  it('moves a one-message topic whole, and by place in a longer one', async () => {
    const live = liveAccount();
    const [only] = await post('placement single', 1);
    const [first, middle, last] = await post('placement three', 3);
    resetUi(live.accountId);
    for (const id of [only!, first!, middle!, last!]) await live.storeMessage(id);

    expect(await offeredScope(only!)).toBe('change_all');
    expect(await offeredScope(first!)).toBe('change_all');
    expect(await offeredScope(middle!)).toBe('change_later');
    expect(await offeredScope(last!)).toBe('change_one');
  });
});

describe("the move form's first choice, from the store", () => {
  it("reads the topic's own list with its ends fetched, and starts a search's move at one message", async () => {
    const live = liveAccount();
    const ids = await post('placement stored', 3);
    const fetched = await live.api.getMessages({
      accountId: live.accountId,
      anchor: 'newest',
      numBefore: 10,
      numAfter: 0,
      narrow: topicNarrow(live.channelId('general'), 'placement stored'),
    });
    // Only the store can answer here: the server is not asked for a topic it holds whole.
    live.store
      .getState()
      .mergeFetchedMessages(
        live.accountId,
        narrowKey(topicNarrow(live.channelId('general'), 'placement stored')),
        fetched.messages,
        { foundOldest: true, foundNewest: true },
      );
    resetUi(live.accountId);
    expect(await offeredScope(ids[0]!)).toBe('change_all');
    expect(await offeredScope(ids[1]!)).toBe('change_later');
    expect(await offeredScope(ids[2]!)).toBe('change_one');

    // In a search view the web app starts from "only this message", wherever it is.
    act(() => navigate({ kind: 'narrow', narrow: [{ operator: 'search', operand: 'placement' }] }));
    expect(await offeredScope(ids[0]!)).toBe('change_one');
  });
});
