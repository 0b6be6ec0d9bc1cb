// Recent conversations: a table with one row per topic or direct-message conversation, newest
// first, with its channel, topic or people, participants, time and unread count; filters for
// unread, participated and direct-message conversations and a menu for muted or followed topics;
// the unread count marks a conversation read; arrows/j/k move between rows and Enter opens one.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { act, cleanup, fireEvent, render, screen, within } from '@testing-library/react';
import { Recent } from '../../../renderer/features/views/Recent';
import { lastActiveLabel } from '../../../renderer/features/views/recent-model';
import { uiStore } from '../../../renderer/store/ui-store';
import { dmNarrow, topicNarrow } from '../../../shared/narrow';
import {
  channelMessage,
  directMessage,
  eventId,
  messageEvent,
  setupStore,
  DESIGN,
  EMMA,
  FARID,
  GENERAL,
  SELF,
} from '../store/fixtures';
import { EMPTY_HISTORY, fakeLayout, installFakeApi, Providers, resetUi } from './harness';

let restoreLayout: () => void;
beforeEach(() => {
  resetUi('a');
  installFakeApi({ getMessages: EMPTY_HISTORY });
  restoreLayout = fakeLayout();
});
afterEach(() => {
  cleanup();
  restoreLayout();
});

const grid = () => screen.getByRole('grid', { name: 'Recent conversations' });
/** The body rows (the first row is the column headers). */
const rows = () => within(grid()).getAllByRole('row').slice(1);
const titles = () => rows().map((r) => r.querySelector('.recent-topic .name')?.textContent);
const cell = (row: HTMLElement, column: string) =>
  row.querySelector(`.recent-${column}`)?.textContent ?? '';

function setup() {
  const t = setupStore();
  t.apply(
    messageEvent(channelMessage(101, GENERAL, 'planning')),
    messageEvent(channelMessage(102, GENERAL, 'planning', { sender: FARID }), ['read']),
    messageEvent(channelMessage(103, DESIGN, 'logo', { sender: SELF }), ['read']),
    messageEvent(directMessage(104, [SELF, EMMA])),
    messageEvent(channelMessage(105, GENERAL, 'lunch'), ['read']),
  );
  render(
    <Providers store={t.store}>
      <Recent accountId="a" />
    </Providers>,
  );
  const account = t.account();
  return {
    t,
    general: account.channels.channels.get(GENERAL)!.name,
    emma: account.users.users.get(EMMA)!.full_name,
    farid: account.users.users.get(FARID)!.full_name,
  };
}

const toggle = (name: string) => fireEvent.click(screen.getByRole('button', { name }));
/** Picks an entry of the topics menu (its button names the current one). */
function chooseTopics(current: string, choice: string) {
  fireEvent.click(screen.getByRole('button', { name: `Topics shown: ${current}` }));
  fireEvent.click(screen.getByRole('menuitem', { name: new RegExp(`^${choice}`) }));
}

describe('Recent conversations', () => {
  it('shows each conversation newest first with its channel, participants and unread count', () => {
    const { general, emma, farid } = setup();
    expect(titles()).toEqual(['lunch', emma, 'logo', 'planning']);
    const planning = rows()[3]!;
    expect(cell(planning, 'channel')).toBe(`#${general}`);
    expect(within(planning).getByRole('button', { name: 'Mark as read (1 unread)' })).toBeTruthy();
    // The most recent sender first.
    expect(
      [...planning.querySelectorAll('.recent-avatar')].map((a) => a.getAttribute('aria-label')),
    ).toEqual([farid, emma]);
    expect(cell(rows()[1]!, 'channel')).toBe('Direct messages');
    expect(rows()[1]!.querySelector('time')?.getAttribute('datetime')).toBe(
      new Date((1_795_300_000 + 104) * 1000).toISOString(),
    );
    fireEvent.click(planning);
    expect(uiStore.getState().route).toEqual({
      kind: 'narrow',
      narrow: topicNarrow(GENERAL, 'planning'),
    });
  });

  it('filters to unread, participated, and hides muted topics unless asked', () => {
    const { t, emma } = setup();
    toggle('Unread');
    expect(titles()).toEqual([emma, 'planning']);
    toggle('✓ Unread');
    toggle('Participated');
    expect(titles()).toEqual(['logo']);
    toggle('✓ Participated');
    act(() =>
      t.apply({
        id: eventId(),
        type: 'user_topic',
        stream_id: GENERAL,
        topic_name: 'lunch',
        last_updated: 1_795_300_500,
        visibility_policy: 1,
      }),
    );
    expect(titles()).toEqual([emma, 'logo', 'planning']);
    chooseTopics('Standard view', 'All topics');
    expect(titles()).toEqual(['lunch', emma, 'logo', 'planning']);
    expect(rows()[0]!.classList.contains('muted')).toBe(true);
    fireEvent.change(screen.getByRole('searchbox', { name: /Filter conversations/ }), {
      target: { value: 'LOG' },
    });
    expect(titles()).toEqual(['logo']);
    // The filters are remembered for the next visit: leave them as the other cases expect.
    fireEvent.change(screen.getByRole('searchbox', { name: /Filter conversations/ }), {
      target: { value: '' },
    });
    chooseTopics('All topics', 'Standard view');
  });

  it('lists direct messages until Include DMs is turned off, as the public web app does', () => {
    const { emma } = setup();
    expect(screen.getByRole('button', { name: '✓ Include DMs' }).getAttribute('aria-pressed')).toBe(
      'true',
    );
    toggle('✓ Include DMs');
    expect(titles()).toEqual(['lunch', 'logo', 'planning']);
    expect(titles()).not.toContain(emma);
    toggle('Include DMs');
    expect(titles()).toEqual(['lunch', emma, 'logo', 'planning']);
  });

  it('marks a conversation read from its unread count, as the public web app does', async () => {
    const api = installFakeApi({
      getMessages: EMPTY_HISTORY,
      updateFlagsForNarrow: () => ({
        result: 'success',
        msg: '',
        processed_count: 1,
        updated_count: 1,
        first_processed_id: 101,
        last_processed_id: 101,
        found_oldest: true,
        found_newest: true,
      }),
    });
    setup();
    const route = uiStore.getState().route;
    fireEvent.click(within(rows()[3]!).getByRole('button', { name: 'Mark as read (1 unread)' }));
    expect(api.updateFlagsForNarrow).toHaveBeenLastCalledWith(
      expect.objectContaining({
        op: 'add',
        flag: 'read',
        narrow: [...topicNarrow(GENERAL, 'planning'), { operator: 'is', operand: 'unread' }],
      }),
    );
    // The click marks it read without opening it.
    expect(uiStore.getState().route).toBe(route);
    fireEvent.click(within(rows()[1]!).getByRole('button', { name: 'Mark as read (1 unread)' }));
    expect(api.updateFlagsForNarrow).toHaveBeenLastCalledWith(
      expect.objectContaining({
        narrow: [...dmNarrow([EMMA]), { operator: 'is', operand: 'unread' }],
      }),
    );
    await act(async () => undefined);
  });

  it('shows the server’s error when marking read fails', async () => {
    installFakeApi({
      getMessages: EMPTY_HISTORY,
      updateFlagsForNarrow: () => {
        throw new Error('Not logged in: API authentication or user session required');
      },
    });
    setup();
    fireEvent.click(within(rows()[3]!).getByRole('button', { name: 'Mark as read (1 unread)' }));
    await act(async () => undefined);
    expect(screen.getByRole('alert').textContent).toBe(
      'Not logged in: API authentication or user session required',
    );
  });

  it('moves between rows with arrows and j/k, and Enter opens the focused one', () => {
    const { emma } = setup();
    // The keys work as soon as the view is open: the first puts the keyboard on the first row.
    fireEvent.keyDown(document.body, { key: 'ArrowDown' });
    expect(document.activeElement).toBe(rows()[0]);
    const body = grid().querySelector('.recent-rows')!;
    fireEvent.keyDown(body, { key: 'ArrowDown' });
    fireEvent.keyDown(body, { key: 'j' });
    expect(document.activeElement).toBe(rows()[2]);
    fireEvent.keyDown(body, { key: 'k' });
    expect(document.activeElement).toBe(rows()[1]);
    expect(rows()[1]!.tabIndex).toBe(0);
    expect(rows()[0]!.tabIndex).toBe(-1);
    fireEvent.keyDown(body, { key: 'End' });
    fireEvent.keyDown(body, { key: 'ArrowDown' });
    expect(document.activeElement).toBe(rows()[3]);
    fireEvent.keyDown(body, { key: 'Home' });
    fireEvent.keyDown(body, { key: 'ArrowDown' });
    fireEvent.keyDown(body, { key: 'Enter' });
    expect(uiStore.getState().route).toEqual({
      kind: 'narrow',
      narrow: dmNarrow([EMMA]),
    });
    expect(titles()[1]).toBe(emma);
  });
});

describe('older conversations', () => {
  it('come with older pages of all messages, until the oldest is reached', async () => {
    const calls: unknown[] = [];
    installFakeApi({
      getMessages: (input) => {
        calls.push(input);
        const { anchor } = input as { anchor: unknown };
        return anchor === 'newest'
          ? {
              messages: [
                channelMessage(300, GENERAL, 'today'),
                channelMessage(301, GENERAL, 'today'),
              ],
              found_oldest: false,
              found_newest: true,
            }
          : {
              messages: [channelMessage(120, DESIGN, 'last year')],
              found_oldest: true,
              found_newest: false,
            };
      },
    });
    const t = setupStore();
    render(
      <Providers store={t.store}>
        <Recent accountId="a" />
      </Providers>,
    );
    const more = await screen.findByRole('button', { name: 'Load older conversations' });
    expect(titles()).toEqual(['today']);
    await act(async () => fireEvent.click(more));
    await screen.findByText('last year');
    expect(titles()).toEqual(['today', 'last year']);
    expect(calls.at(-1)).toMatchObject({
      anchor: 300,
      numBefore: 1000,
      includeAnchor: false,
      narrow: [],
    });
    expect(screen.queryByRole('button', { name: 'Load older conversations' })).toBeNull();
  });
});

describe('lastActiveLabel', () => {
  const date = () => 'the date';
  const now = 1_795_300_000_000;
  it('words the time as the public web app does', () => {
    expect(lastActiveLabel(now / 1000 - 20, now, date)).toBe('Just now');
    expect(lastActiveLabel(now / 1000 - 60, now, date)).toBe('1 minute ago');
    expect(lastActiveLabel(now / 1000 - 5 * 60, now, date)).toBe('5 minutes ago');
    expect(lastActiveLabel(now / 1000 - 3 * 3600, now, date)).toBe('3 hours ago');
    expect(lastActiveLabel(now / 1000 - 30 * 3600, now, date)).toBe('Yesterday');
    expect(lastActiveLabel(now / 1000 - 72 * 3600, now, date)).toBe('the date');
  });
});
