// The search box: typed text and operators become a narrow the server accepts (channel names and
// people to ids, `me` to the user's id), the open narrow is shown back as the user would type it
// (names, never ids), the typeahead is a keyboard-driven combobox, a search the server refuses
// leaves the view alone, and a search's title reads like the search.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { act, cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { SearchBox } from '../../../renderer/features/search/SearchBox';
import { describeNarrow } from '../../../renderer/features/messages/narrow-info';
import { navigate, uiStore } from '../../../renderer/store/ui-store';
import { dmNarrow, narrowKey, topicNarrow, type Narrow } from '../../../shared/narrow';
import { DESIGN, EMMA, FARID, GENERAL, SELF, setupStore } from '../store/fixtures';
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
  const box = screen.getByRole('combobox', { name: 'Search messages' }) as HTMLInputElement;
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

  it('keeps negations, is:, has:, and takes other people by email or by name', async () => {
    const { box, search } = renderSearch();
    const narrow = search('channel:design -is:starred has:LINK sender:emma@tributary.local budget');
    expect(narrow).toEqual(
      expect.arrayContaining([
        { operator: 'channel', operand: DESIGN },
        { operator: 'is', operand: 'starred', negated: true },
        { operator: 'has', operand: 'link' },
        { operator: 'sender', operand: EMMA },
        { operator: 'search', operand: 'budget' },
      ]),
    );
    expect(narrow).toHaveLength(5);
    await waitFor(() =>
      expect(box.value).toBe('channel:design has:link -is:starred sender:"Emma Member" budget'),
    );
    expect(search('sender:"emma member"')).toEqual([{ operator: 'sender', operand: EMMA }]);
    expect(search('dm:"Emma Member,Farid Member"')).toEqual([
      { operator: 'dm', operand: [EMMA, FARID] },
    ]);
  });

  it('shows people by name, never by id: a sender from a link, a DM opened from the sidebar', () => {
    navigate({ kind: 'narrow', narrow: [{ operator: 'sender', operand: EMMA }] });
    const { box } = renderSearch();
    expect(box.value).toBe('sender:"Emma Member"');
    act(() => navigate({ kind: 'narrow', narrow: dmNarrow([EMMA]) }));
    expect(box.value).toBe('dm:"Emma Member"');
    act(() => navigate({ kind: 'narrow', narrow: dmNarrow([FARID, EMMA]) }));
    expect(box.value).toBe('dm:"Emma Member,Farid Member"');
  });
});

describe('search typeahead', () => {
  const options = () => screen.queryAllByRole('option').map((o) => o.textContent ?? '');
  const type = (box: HTMLInputElement, text: string) => {
    fireEvent.focus(box);
    fireEvent.change(box, { target: { value: text } });
  };
  const key = (box: HTMLInputElement, k: string) => fireEvent.keyDown(box, { key: k });

  it('is a combobox whose options follow the arrow keys', () => {
    const { box } = renderSearch();
    type(box, 'chan');
    expect(box.getAttribute('aria-expanded')).toBe('true');
    const list = screen.getByRole('listbox', { name: 'Search suggestions' });
    expect(box.getAttribute('aria-controls')).toBe(list.id);
    // The words themselves first, as the web app's "search for" row; then what they start.
    expect(options()[0]).toBe('chan Search for this text');
    expect(options()[1]).toMatch(/^channel:/);
    // Nothing highlighted yet (downshift writes an empty attribute for none).
    expect(box.getAttribute('aria-activedescendant') || null).toBeNull();
    key(box, 'ArrowDown');
    const first = screen.getAllByRole('option')[0];
    expect(box.getAttribute('aria-activedescendant')).toBe(first.id);
    expect(first.getAttribute('aria-selected')).toBe('true');
    key(box, 'ArrowUp');
    expect(box.getAttribute('aria-activedescendant')).toBe(
      screen.getAllByRole('option').at(-1)!.id,
    );
    key(box, 'Escape');
    expect(screen.queryByRole('listbox')).toBeNull();
    expect(box.value).toBe('chan');
  });

  it('updates the suggestion rows in place as a key changes them, rather than making new ones', () => {
    // Every suggestion's text changes with each key; rows made again on every key were most of a
    // keystroke's rendering with the typeahead open.
    const { box } = renderSearch();
    type(box, 'channel:g');
    const before = screen.getAllByRole('option');
    expect(options()[0]).toMatch(/^channel:general /);
    fireEvent.change(box, { target: { value: 'channel:' } });
    const after = screen.getAllByRole('option');
    expect(after.length).toBeGreaterThan(before.length);
    expect(after.slice(0, before.length)).toEqual(before);
    expect(options()).toEqual(
      expect.arrayContaining([expect.stringMatching(/^channel:design Channel #design/)]),
    );
  });

  it('goes from an operator to its values and searches with Enter', () => {
    const { box } = renderSearch();
    type(box, 'chan');
    key(box, 'ArrowDown');
    key(box, 'ArrowDown');
    key(box, 'Enter');
    expect(box.value).toBe('channel:');
    expect(options()).toEqual(
      expect.arrayContaining([expect.stringMatching(/^channel:general Channel #general/)]),
    );
    fireEvent.change(box, { target: { value: 'channel:des' } });
    expect(options()[0]).toMatch(/^channel:design/);
    key(box, 'ArrowDown');
    key(box, 'Enter');
    const route = uiStore.getState().route;
    expect(route.kind === 'narrow' && route.narrow).toEqual([
      { operator: 'channel', operand: DESIGN },
    ]);
  });

  it('searches the typed words from their own row', () => {
    const { box } = renderSearch();
    type(box, 'channel:design budget');
    expect(options()[0]).toBe('budget Search for this text');
    key(box, 'ArrowDown');
    key(box, 'Enter');
    const route = uiStore.getState().route;
    expect(route.kind === 'narrow' && route.narrow).toEqual([
      { operator: 'channel', operand: DESIGN },
      { operator: 'search', operand: 'budget' },
    ]);
  });

  it('completes people by name with Tab, a name with spaces included, and -sender: excludes', () => {
    const { box } = renderSearch();
    type(box, 'sender:emma me');
    expect(options()[0]).toBe('sender:"Emma Member" Sent by Emma Member');
    key(box, 'Tab');
    expect(box.value).toBe('sender:"Emma Member" ');
    fireEvent.change(box, { target: { value: 'budget -sender:far' } });
    expect(options()[0]).toBe('-sender:"Farid Member" Exclude sent by Farid Member');
    fireEvent.change(box, { target: { value: 'dm:"Emma Member",far' } });
    expect(options()[0]).toMatch(/^dm:"Emma Member,Farid Member"/);
  });

  it("offers is: and has: values, and the chosen channel's topics", async () => {
    installFakeApi({
      getStreamTopics: () => ({
        topics: [
          { name: 'lunch', max_id: 9 },
          { name: 'launch plan', max_id: 8 },
        ],
      }),
    });
    const { box } = renderSearch();
    type(box, 'is:st');
    expect(options()).toEqual(['is:starred Starred messages']);
    fireEvent.change(box, { target: { value: 'has:' } });
    expect(options().map((o) => o.split(' ')[0])).toEqual([
      'has:link',
      'has:image',
      'has:attachment',
      'has:reaction',
    ]);
    fireEvent.change(box, { target: { value: 'channel:general topic:la' } });
    await waitFor(() => expect(options()).toEqual(['topic:"launch plan" Topic launch plan']));
    // A second topic, or a topic beside a direct message, is never offered.
    fireEvent.change(box, { target: { value: 'dm:"Emma Member" top' } });
    expect(options().some((o) => o.startsWith('topic:'))).toBe(false);
  });
});

describe('search the server refuses', () => {
  it("shows the server's reason for an unknown operator and leaves the view as it was", async () => {
    const getMessages = vi.fn(async () => {
      throw Object.assign(new Error('Invalid narrow operator: unknown operator foo'), {
        status: 400,
      });
    });
    installFakeApi({});
    (window as unknown as { tributary: Record<string, unknown> }).tributary.getMessages =
      getMessages;
    navigate({ kind: 'narrow', narrow: topicNarrow(GENERAL, 'lunch') });
    const { box } = renderSearch();
    fireEvent.change(box, { target: { value: 'foo:bar budget' } });
    fireEvent.submit(box.form!);
    expect((await screen.findByRole('alert')).textContent).toBe(
      'Invalid narrow operator: unknown operator foo',
    );
    const route = uiStore.getState().route;
    expect(route.kind === 'narrow' && narrowKey(route.narrow)).toBe(
      narrowKey(topicNarrow(GENERAL, 'lunch')),
    );
    expect(getMessages).toHaveBeenCalledWith(
      expect.objectContaining({
        narrow: expect.arrayContaining([{ operator: 'foo', operand: 'bar' }]),
      }),
    );
    expect(box.value).toBe('foo:bar budget');
    expect(box.getAttribute('aria-invalid')).toBe('true');
  });

  it('does not open a checked search once the reader has gone elsewhere, nor search twice', async () => {
    let answer: () => void = () => undefined;
    const getMessages = vi.fn(
      () =>
        new Promise((resolve) => {
          answer = () => resolve({ result: 'success', msg: '', messages: [] });
        }),
    );
    installFakeApi({});
    (window as unknown as { tributary: Record<string, unknown> }).tributary.getMessages =
      getMessages;
    navigate({ kind: 'narrow', narrow: topicNarrow(GENERAL, 'lunch') });
    const { box } = renderSearch();
    fireEvent.change(box, { target: { value: 'foo:bar budget' } });
    fireEvent.submit(box.form!);
    fireEvent.submit(box.form!);
    expect(getMessages).toHaveBeenCalledTimes(1);
    // While the server is asked, the reader opens another topic from the sidebar.
    act(() => navigate({ kind: 'narrow', narrow: topicNarrow(DESIGN, 'colours') }));
    await act(async () => answer());
    const route = uiStore.getState().route;
    expect(route.kind === 'narrow' && narrowKey(route.narrow)).toBe(
      narrowKey(topicNarrow(DESIGN, 'colours')),
    );
    expect(getMessages).toHaveBeenCalledTimes(1);
  });

  it('searches for times and addresses as words, without asking the server first', () => {
    const { search } = renderSearch();
    expect(search('at 10:30 see https://example.com')).toEqual([
      { operator: 'search', operand: 'at 10:30 see https://example.com' },
    ]);
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
