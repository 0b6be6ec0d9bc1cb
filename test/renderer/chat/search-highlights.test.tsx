// Keyword search results show the server's match_content and match_subject (the matched words in
// `<span class="highlight">`, as the public server marks them), sanitized; the marks belong to the
// search's list, so the same message shows unmarked in its conversation, and an edit drops them.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { act, cleanup, render } from '@testing-library/react';
import { MessageList } from '../../../renderer/features/messages/MessageList';
import { narrowKey, topicNarrow } from '../../../shared/narrow';
import type { ServerEvent } from '../../../shared/api/events';
import { channelMessage, eventId, GENERAL, SELF, setupStore } from '../store/fixtures';
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

const SEARCH = narrowKey([{ operator: 'search', operand: 'lighthouse' }]);
const TOPIC = narrowKey(topicNarrow(GENERAL, 'harbour lighthouse'));

function setup() {
  const ctx = setupStore();
  const plain = { ...channelMessage(11, GENERAL, 'harbour lighthouse'), flags: ['read' as const] };
  plain.content = '<p>the lighthouse keeper waves</p>';
  const searched = {
    ...plain,
    match_content:
      '<p>the <span class="highlight">lighthouse</span> keeper waves' +
      '<img src="x" onerror="alert(1)"></p>',
    match_subject: 'harbour <span class="highlight">lighthouse</span>',
  };
  ctx.store
    .getState()
    .mergeFetchedMessages('a', SEARCH, [searched], { foundOldest: true, foundNewest: true });
  ctx.store
    .getState()
    .mergeFetchedMessages('a', TOPIC, [plain], { foundOldest: true, foundNewest: true });
  return ctx;
}

function show(store: ReturnType<typeof setupStore>['store'], key: string) {
  return render(
    <Providers store={store}>
      <MessageList accountId="a" narrowKey={key} offline />
    </Providers>,
  );
}

describe('search highlights', () => {
  it('marks the matched words in the content and the topic of a search result, sanitized', () => {
    const { store } = setup();
    const { container } = show(store, SEARCH);
    const content = container.querySelector('.message-row .content')!;
    expect([...content.querySelectorAll('.highlight')].map((e) => e.textContent)).toEqual([
      'lighthouse',
    ]);
    expect(content.querySelector('[onerror]')).toBeNull();
    const header = container.querySelector('.recipient-header')!;
    expect([...header.querySelectorAll('.highlight')].map((e) => e.textContent)).toEqual([
      'lighthouse',
    ]);
    expect(header.textContent).toContain('harbour lighthouse');
  });

  it('keeps the marks with the search: the stored message and its conversation stay plain', () => {
    const { store, account } = setup();
    const stored = account().messages.byId.get(11)!;
    expect(stored).not.toHaveProperty('match_content');
    expect(stored).not.toHaveProperty('match_subject');
    const { container } = show(store, TOPIC);
    expect(container.querySelector('.message-row')).not.toBeNull();
    expect(container.querySelector('.highlight')).toBeNull();
  });

  it('shows an edited message unmarked, with its new content', () => {
    const { store, apply } = setup();
    const { container } = show(store, SEARCH);
    const edit: ServerEvent = {
      id: eventId(),
      type: 'update_message',
      user_id: SELF,
      rendering_only: false,
      message_id: 11,
      message_ids: [11],
      flags: ['read'],
      edit_timestamp: 1_795_400_000,
      orig_content: 'the lighthouse keeper waves',
      orig_rendered_content: '<p>the lighthouse keeper waves</p>',
      content: 'the lighthouse keeper sleeps',
      rendered_content: '<p>the lighthouse keeper sleeps</p>',
      is_me_message: false,
    } as ServerEvent;
    act(() => apply(edit));
    const content = container.querySelector('.message-row .content')!;
    expect(content.textContent).toBe('the lighthouse keeper sleeps');
    expect(content.querySelector('.highlight')).toBeNull();
  });
});
