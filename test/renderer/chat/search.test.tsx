// The search box: typed text and operators become a narrow the server accepts (channel names to
// ids, `me` to the user's id), the open narrow is shown back as the user would type it, and a
// search's title reads like the search.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import { SearchBox } from '../../../renderer/features/search/SearchBox';
import { describeNarrow } from '../../../renderer/features/messages/narrow-info';
import { navigate, uiStore } from '../../../renderer/src/ui-store';
import { narrowKey, topicNarrow, type Narrow } from '../../../shared/narrow';
import { DESIGN, EMMA, GENERAL, SELF, setupStore } from '../store/fixtures';
import { installFakeApi, Providers, resetUi } from './harness';

beforeEach(() => {
  resetUi('a');
  installFakeApi();
});
afterEach(cleanup);

function renderSearch() {
  const ctx = setupStore();
  render(
    <Providers store={ctx.store}>
      <SearchBox />
    </Providers>,
  );
  const box = screen.getByRole('searchbox', { name: 'Search messages' }) as HTMLInputElement;
  const search = (text: string): Narrow => {
    fireEvent.change(box, { target: { value: text } });
    fireEvent.submit(box.form!);
    const route = uiStore.getState().route;
    if (route.kind !== 'narrow') throw new Error('search did not open a narrow');
    return route.narrow;
  };
  return { ctx, box, search };
}

describe('search box', () => {
  it('sends sender:me as the own user id and shows it back as me', () => {
    const { box, search } = renderSearch();
    const narrow = search('sender:me waves');
    expect(narrow).toContainEqual({ operator: 'sender', operand: SELF });
    expect(narrow).toContainEqual({ operator: 'search', operand: 'waves' });
    expect(box.value).toBe('sender:me waves');
  });

  it('opens the same conversation as the sidebar for channel and topic operators', () => {
    const { box, search } = renderSearch();
    expect(narrowKey(search('channel:General topic:lunch'))).toBe(
      narrowKey(topicNarrow(GENERAL, 'lunch')),
    );
    expect(box.value).toBe('channel:general topic:lunch');
  });

  it('keeps negations, is:, has: and other people by email', () => {
    const { box, search } = renderSearch();
    const narrow = search('channel:design -is:starred has:LINK sender:emma@tributary.local budget');
    expect(narrow).toEqual(
      expect.arrayContaining([
        { operator: 'channel', operand: DESIGN },
        { operator: 'is', operand: 'starred', negated: true },
        { operator: 'has', operand: 'link' },
        { operator: 'sender', operand: 'emma@tributary.local' },
        { operator: 'search', operand: 'budget' },
      ]),
    );
    expect(narrow).toHaveLength(5);
    expect(box.value).toBe(
      'channel:design has:link -is:starred sender:emma@tributary.local budget',
    );
  });

  it('shows a narrow naming a person by id (from a link) with their email', () => {
    navigate({ kind: 'narrow', narrow: [{ operator: 'sender', operand: EMMA }] });
    const { box } = renderSearch();
    expect(box.value).toBe('sender:emma@tributary.local');
  });
});

describe('search titles', () => {
  it('reads like the search: plain words as typed, channels by name, me for the user', () => {
    const account = setupStore().account();
    const title = (narrow: Narrow) => describeNarrow(narrow, account).title;
    expect(title([{ operator: 'search', operand: 'waves' }])).toBe('Search: waves');
    expect(
      title([
        { operator: 'channel', operand: GENERAL },
        { operator: 'sender', operand: SELF },
        { operator: 'search', operand: 'waves' },
      ]),
    ).toBe('Search: channel:general sender:me waves');
    expect(title([{ operator: 'has', operand: 'link' }])).toBe('Search: has:link');
  });
});
