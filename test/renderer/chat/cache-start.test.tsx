// Starting from main's local cache: the shell shows the cached account at once with the last open
// conversation and its cached messages (they come with the snapshot), says the messages are
// saved ones while connecting (without asking main for that page again), drops that note when the server's snapshot arrives (fetching the list
// again around the reader's place, not at the first unread), and tells main
// which conversation is open for the next launch. Main is a fake here; test/main/cache.test.ts and
// test/e2e/cache-start.test.ts run the real one.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { act, cleanup, render, screen, waitFor } from '@testing-library/react';
import { App } from '../../../renderer/shell/App';
import { createChatStore } from '../../../renderer/store';
import { navigate, uiStore, ALL_MESSAGES_ROUTE } from '../../../renderer/store/ui-store';
import { channelNarrow, narrowKey, topicNarrow } from '../../../shared/narrow';
import { readingPosition } from '../../../renderer/features/messages/reading-position';
import { channelMessage, GENERAL, register } from '../store/fixtures';
import { fakeLayout, installFakeApi, LIVE_ACCOUNT, QUIET_MAIN_ANSWERS, resetUi } from './harness';

type Listener = (payload: unknown) => void;
let listeners: Map<string, Listener[]>;
let restoreLayout: () => void;

beforeEach(() => {
  resetUi('a');
  // A launch: nothing has chosen the view yet, so the remembered conversation may.
  uiStore.setState({
    accountsLoaded: false,
    route: ALL_MESSAGES_ROUTE,
    routeChosen: false,
    fromCache: {},
  });
  listeners = new Map();
  restoreLayout = fakeLayout();
});
afterEach(() => {
  cleanup();
  restoreLayout();
});

const lastNarrow = topicNarrow(GENERAL, 'lunch');
const cachedMessages = [101, 102].map((id) => ({
  ...channelMessage(id, GENERAL, 'lunch', { content: `cached ${id}` }),
  flags: ['read'],
}));

const cachedPage = {
  result: 'success',
  msg: '',
  messages: cachedMessages,
  anchor: 102,
  found_oldest: true,
  found_newest: true,
  from_cache: true,
};

function cachedMain(snapshotAnswer: Record<string, unknown> = {}) {
  const fake = installFakeApi({
    ...QUIET_MAIN_ANSWERS,
    // Main answers from the cache too until the account is live.
    getMessages: () => cachedPage,
    listAccounts: () => ({
      accounts: [{ ...LIVE_ACCOUNT, connection: { status: 'connecting' } }],
      activeAccountId: 'a',
    }),
    getSnapshot: () => ({
      snapshot: { accountId: 'a', queueId: 'old', register: register() },
      events: [],
      connection: { status: 'connecting' },
      fromCache: true,
      lastNarrow,
      lastPage: cachedPage,
      ...snapshotAnswer,
    }),
  });
  fake.on = vi.fn((channel: string, listener: Listener) => {
    listeners.set(channel, [...(listeners.get(channel) ?? []), listener]);
    return () => undefined;
  });
  return fake;
}

const push = (channel: string, payload: unknown) =>
  act(() => {
    for (const listener of listeners.get(channel) ?? []) listener(payload);
  });

describe('start from the cache', () => {
  it('opens the last conversation with its cached messages, marked as saved ones', async () => {
    const fake = cachedMain();
    render(<App store={createChatStore()} />);
    expect(await screen.findByText('cached 102')).toBeTruthy();
    expect(screen.getByText('cached 101')).toBeTruthy();
    expect(uiStore.getState().route).toEqual({ kind: 'narrow', narrow: lastNarrow });
    // That page is the list's first: main, which would answer it from the same cache, is not
    // asked again, nor told to keep the conversation it named.
    expect(fake.getMessages).not.toHaveBeenCalled();
    expect(fake.rememberOpenNarrow).not.toHaveBeenCalled();
    expect(screen.getByTestId('connection-banner').textContent).toMatch(
      /Showing messages saved on this computer — connecting/,
    );
    // Shown: main may register now (it holds a cached account's register until then).
    await waitFor(() => expect(fake.snapshotShown).toHaveBeenCalledWith({ accountId: 'a' }));

    // The server answers: its snapshot replaces the cached one and the note goes. The list is
    // fetched again around where the reader is, not at the first unread.
    const place = readingPosition('a', narrowKey(lastNarrow));
    expect(place).toBeDefined();
    push('snapshot', { accountId: 'a', queueId: 'new', register: register() });
    push('connection', { accountId: 'a', state: { status: 'live', queueId: 'new' } });
    await waitFor(() => expect(screen.queryByTestId('connection-banner')).toBeNull());
    expect(uiStore.getState().fromCache).toEqual({ a: false });
    // A pushed snapshot is said to be shown too (after a host restart the bridge replays the new
    // launch's cached one that way); for a live account main ignores it.
    await waitFor(() => expect(fake.snapshotShown).toHaveBeenCalledTimes(2));
    await waitFor(() =>
      expect(fake.getMessages.mock.calls.at(-1)![0]).toMatchObject({ anchor: place }),
    );
    expect(await screen.findByText('cached 102')).toBeTruthy();

    // Opening another conversation tells main, for the next launch.
    act(() => navigate({ kind: 'narrow', narrow: channelNarrow(GENERAL) }));
    await waitFor(() =>
      expect(fake.rememberOpenNarrow).toHaveBeenCalledWith({
        accountId: 'a',
        narrow: channelNarrow(GENERAL),
      }),
    );
  });

  it("says a first launch's seeded demo is connecting, not that it was saved on this computer", async () => {
    // The cache holds the seed the app was built with (shared/demo-seed.ts): a first launch.
    const fake = cachedMain({ seeded: true, lastNarrow: null, lastPage: null });
    render(<App store={createChatStore()} />);
    const banner = (await screen.findByTestId('connection-banner')).textContent;
    expect(banner).toBe('Connecting to the demo organization…');
    expect(uiStore.getState().fromCache).toEqual({ a: 'seed' });
    await waitFor(() => expect(fake.snapshotShown).toHaveBeenCalledWith({ accountId: 'a' }));
    push('snapshot', { accountId: 'a', queueId: 'new', register: register() });
    push('connection', { accountId: 'a', state: { status: 'live', queueId: 'new' } });
    await waitFor(() => expect(screen.queryByTestId('connection-banner')).toBeNull());
    expect(uiStore.getState().fromCache).toEqual({ a: false });
  });

  it('leaves the route alone when the person has already gone somewhere', async () => {
    cachedMain();
    act(() => navigate({ kind: 'inbox' }));
    render(<App store={createChatStore()} />);
    await waitFor(() => expect(uiStore.getState().fromCache).toEqual({ a: true }));
    expect(uiStore.getState().route).toEqual({ kind: 'inbox' });
  });
});
