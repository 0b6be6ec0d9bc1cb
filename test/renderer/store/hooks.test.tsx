// React hooks over the store: a change re-renders only the components whose selected value changed.
import { act, render } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import {
  ChatStoreProvider,
  useMessage,
  useNarrowIds,
  useUnreadCounts,
  useUser,
} from '../../../renderer/store/hooks';
import { ALL_MESSAGES, narrowKey } from '../../../shared/narrow';
import { channelMessage, eventId, messageEvent, setupStore, EMMA, GENERAL } from './fixtures';

const ALL = narrowKey(ALL_MESSAGES);

describe('hooks', () => {
  it('re-render locally: one message, one list, counts, users', () => {
    const t = setupStore();
    t.store.getState().mergeFetchedMessages('a', ALL, [], { foundOldest: true, foundNewest: true });
    t.apply(
      messageEvent(channelMessage(101, GENERAL, 'planning')),
      messageEvent(channelMessage(102, GENERAL, 'planning')),
    );
    const renders: Record<string, number> = {};
    const count = (name: string) => (renders[name] = (renders[name] ?? 0) + 1);

    function Message({ id }: { id: number }) {
      count(`m${id}`);
      const m = useMessage(id);
      return <span data-testid={`m${id}`}>{m?.reactions.length ?? -1}</span>;
    }
    function List() {
      count('list');
      const list = useNarrowIds(ALL);
      return <span data-testid="list">{list?.ids.length ?? -1}</span>;
    }
    function Unreads() {
      count('unreads');
      return <span data-testid="unreads">{useUnreadCounts().total}</span>;
    }
    function Emma() {
      count('emma');
      return <span data-testid="emma">{useUser(EMMA)?.full_name}</span>;
    }
    const view = render(
      <ChatStoreProvider store={t.store}>
        <Message id={101} />
        <Message id={102} />
        <List />
        <Unreads />
        <Emma />
      </ChatStoreProvider>,
    );
    expect(view.getByTestId('list').textContent).toBe('2');
    expect(view.getByTestId('unreads').textContent).toBe('2');
    const baseline = { ...renders };

    act(() => {
      t.apply({
        id: eventId(),
        type: 'reaction',
        op: 'add',
        message_id: 101,
        emoji_name: 'tada',
        emoji_code: '1f389',
        reaction_type: 'unicode_emoji',
        user_id: EMMA,
      });
    });
    expect(view.getByTestId('m101').textContent).toBe('1');
    expect(renders.m101).toBe(baseline.m101 + 1);
    expect(renders.m102).toBe(baseline.m102);
    expect(renders.list).toBe(baseline.list);
    expect(renders.unreads).toBe(baseline.unreads);
    expect(renders.emma).toBe(baseline.emma);

    act(() => {
      t.apply(messageEvent(channelMessage(103, GENERAL, 'planning')));
    });
    expect(view.getByTestId('list').textContent).toBe('3');
    expect(view.getByTestId('unreads').textContent).toBe('3');
    expect(renders.m101).toBe(baseline.m101 + 1);
    expect(renders.emma).toBe(baseline.emma);
  });
});
