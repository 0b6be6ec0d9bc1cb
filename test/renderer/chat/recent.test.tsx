// Recent conversations: one row per topic or direct-message conversation, newest first, with its
// unread count, and a click opens that conversation.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { cleanup, fireEvent, render, screen, within } from '@testing-library/react';
import { Recent } from '../../../renderer/features/views/Recent';
import { uiStore } from '../../../renderer/src/ui-store';
import { topicNarrow } from '../../../shared/narrow';
import {
  channelMessage,
  directMessage,
  messageEvent,
  setupStore,
  EMMA,
  GENERAL,
  SELF,
} from '../store/fixtures';
import { EMPTY_HISTORY, installFakeApi, Providers, resetUi } from './harness';

beforeEach(() => {
  resetUi('a');
  installFakeApi({ getMessages: EMPTY_HISTORY });
});
afterEach(cleanup);

describe('Recent', () => {
  it('lists conversations newest first with unread counts, and opens one on click', () => {
    const t = setupStore();
    t.apply(
      messageEvent(channelMessage(101, GENERAL, 'planning')),
      messageEvent(channelMessage(102, GENERAL, 'planning'), ['read']),
      messageEvent(directMessage(103, [SELF, EMMA])),
      messageEvent(directMessage(104, [SELF, EMMA], { sender: SELF }), ['read']),
    );
    const general = t.account().channels.channels.get(GENERAL)!.name;
    const emma = t.account().users.users.get(EMMA)!.full_name;
    render(
      <Providers store={t.store}>
        <Recent accountId="a" />
      </Providers>,
    );
    const rows = within(screen.getByRole('region', { name: 'Recent conversations' })).getAllByRole(
      'listitem',
    );
    expect(rows.map((r) => within(r).getByRole('button').textContent)).toEqual([
      emma,
      `#${general} > planning`,
    ]);
    expect(rows[0].querySelector('.count')?.textContent).toBe('1');
    expect(rows[1].querySelector('.count')?.textContent).toBe('1');
    fireEvent.click(within(rows[1]).getByRole('button'));
    expect(uiStore.getState().route).toEqual({
      kind: 'narrow',
      narrow: topicNarrow(GENERAL, 'planning'),
    });
  });
});
