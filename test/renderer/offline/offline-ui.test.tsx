// The renderer's offline UI (issue #23) at its boundary, the bridge: Settings › Offline shows main's
// OfflineStatus and follows its push, sends Sync now / Clear (after a confirmation) / the settings
// under the save-at-once rule, and says why when main cannot sync; a list answered from the cache
// says what it may lack (never kept, partly kept, a search from this computer); the top bar says
// the app is offline. Main is a fake here; offstore's tests run the real one.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { act, cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { Offline } from '../../../renderer/features/settings/personal/Offline';
import { SETTINGS_SECTIONS } from '../../../renderer/features/settings/sections';
import { MessageList } from '../../../renderer/features/messages/MessageList';
import { App } from '../../../renderer/shell/App';
import { createChatStore } from '../../../renderer/store';
import { navigate, uiStore } from '../../../renderer/store/ui-store';
import type { OfflineStatus } from '../../../shared/ipc/cache';
import { TributaryError } from '../../../shared/ipc/errors';
import type { OfflineCoverage } from '../../../shared/ipc/chat';
import { channelNarrow, narrowKey, topicNarrow, type Narrow } from '../../../shared/narrow';
import { channelMessage, GENERAL, register, setupStore } from '../store/fixtures';
import {
  fakeLayout,
  installFakeApi,
  liveAppAnswers,
  LIVE_ACCOUNT,
  Providers,
  resetUi,
  type FakeApi,
} from '../chat/harness';

const MB = 1024 * 1024;
type Listener = (payload: unknown) => void;
let listeners: Map<string, Listener[]>;
let restoreLayout: () => void;

function status(over: Partial<OfflineStatus> = {}): OfflineStatus {
  return {
    accountId: 'a',
    settings: { days: 30, budgetBytes: 500 * MB, enabled: true },
    state: 'idle',
    conversationsSynced: 12,
    conversationsKnown: 40,
    messages: 3456,
    bytes: 1.5 * MB,
    lastSyncAt: Date.now() - 5 * 60_000,
    error: null,
    ...over,
  };
}

/** window.tributary with `answers`, whose pushes the test sends with push(). */
function fakeMain(answers: Record<string, (input: unknown) => unknown>): FakeApi {
  const fake = installFakeApi(answers);
  fake.on = vi.fn((channel: string, listener: Listener) => {
    listeners.set(channel, [...(listeners.get(channel) ?? []), listener]);
    return () =>
      listeners.set(
        channel,
        (listeners.get(channel) ?? []).filter((l) => l !== listener),
      );
  });
  return fake;
}

const push = (channel: string, payload: unknown) =>
  act(() => {
    for (const listener of listeners.get(channel) ?? []) listener(payload);
  });

beforeEach(() => {
  resetUi('a');
  listeners = new Map();
  restoreLayout = fakeLayout();
});
afterEach(() => {
  cleanup();
  restoreLayout();
});

function renderOffline() {
  const ctx = setupStore();
  render(
    <Providers store={ctx.store}>
      <Offline accountId="a" />
    </Providers>,
  );
}

const field = (label: RegExp) => screen.getByRole('spinbutton', { name: label });

describe('Settings › Offline', () => {
  it("shows main's status and follows its push", async () => {
    fakeMain({ offlineStatus: () => status() });
    renderOffline();
    const figures = await screen.findByLabelText('Offline copy');
    expect(within(figures).getByText('Up to date')).toBeTruthy();
    expect(within(figures).getByText('12 of 40 synced')).toBeTruthy();
    expect(within(figures).getByText((3456).toLocaleString())).toBeTruthy();
    expect(within(figures).getByText('1.5 MB')).toBeTruthy();
    expect(within(figures).getByText('5 minutes ago')).toBeTruthy();
    expect((field(/Keep conversations active in the last/) as HTMLInputElement).value).toBe('30');
    expect((field(/Disk budget/) as HTMLInputElement).value).toBe('500');

    // Another account's status is not this one's.
    push('offlineStatus', status({ accountId: 'b', state: 'error', error: 'elsewhere' }));
    expect(screen.getByTestId('offline-state').textContent).toBe('Up to date');
    push('offlineStatus', status({ state: 'syncing', conversationsSynced: 13, lastSyncAt: null }));
    expect(screen.getByTestId('offline-state').textContent).toBe('Syncing…');
    expect(within(figures).getByText('13 of 40 synced')).toBeTruthy();
    expect(within(figures).getByText('Not yet')).toBeTruthy();
    expect((screen.getByRole('button', { name: 'Sync now' }) as HTMLButtonElement).disabled).toBe(
      true,
    );
    // Idle before any pass is not "up to date".
    push('offlineStatus', status({ state: 'idle', lastSyncAt: null }));
    expect(screen.getByTestId('offline-state').textContent).toBe('Waiting for the first sync');
    push('offlineStatus', status({ state: 'disk-full' }));
    expect(screen.getByTestId('offline-state').textContent).toMatch(/disk is full.*nothing/i);
  });

  it('syncs now, and clears only after the confirmation', async () => {
    const fake = fakeMain({
      offlineStatus: () => status(),
      syncOfflineNow: () => status({ state: 'syncing' }),
      clearOfflineData: () => status({ messages: 0, bytes: 0, conversationsSynced: 0 }),
    });
    renderOffline();
    fireEvent.click(await screen.findByRole('button', { name: 'Sync now' }));
    expect(fake.syncOfflineNow).toHaveBeenCalledWith({ accountId: 'a' });
    await waitFor(() => expect(screen.getByTestId('offline-state').textContent).toBe('Syncing…'));

    fireEvent.click(screen.getByRole('button', { name: 'Clear offline data' }));
    const ask = await screen.findByRole('alertdialog', { name: 'Clear offline data?' });
    fireEvent.click(within(ask).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('alertdialog')).toBeNull());
    expect(fake.clearOfflineData).not.toHaveBeenCalled();

    fireEvent.click(screen.getByRole('button', { name: 'Clear offline data' }));
    const again = await screen.findByRole('alertdialog', { name: 'Clear offline data?' });
    fireEvent.click(within(again).getByRole('button', { name: 'Clear offline data' }));
    expect(fake.clearOfflineData).toHaveBeenCalledWith({ accountId: 'a' });
    await waitFor(() => expect(screen.queryByRole('alertdialog')).toBeNull());
    expect(screen.getByText('0 of 40 synced')).toBeTruthy();
    expect(screen.getByText('0 B')).toBeTruthy();
  });

  it('saves days, budget and background sync as they are made; refuses a budget out of range', async () => {
    let current = status();
    const fake = fakeMain({
      offlineStatus: () => current,
      setOfflineSettings: (input) => {
        current = {
          ...current,
          settings: (input as { settings: OfflineStatus['settings'] }).settings,
        };
        return current;
      },
    });
    renderOffline();
    const days = (await screen.findByRole('spinbutton', {
      name: /Keep conversations active in the last/,
    })) as HTMLInputElement;
    fireEvent.change(days, { target: { value: '7' } });
    expect(fake.setOfflineSettings).not.toHaveBeenCalled(); // not per keystroke
    fireEvent.blur(days);
    await waitFor(() =>
      expect(fake.setOfflineSettings).toHaveBeenLastCalledWith({
        accountId: 'a',
        settings: { days: 7, budgetBytes: 500 * MB, enabled: true },
      }),
    );
    expect(await screen.findByText('Saved')).toBeTruthy();

    const budget = field(/Disk budget/);
    fireEvent.change(budget, { target: { value: '3' } });
    fireEvent.blur(budget);
    expect(
      await screen.findByText(/Disk budget must be a whole number from 16 to 65536 MB/),
    ).toBeTruthy();
    expect(fake.setOfflineSettings).toHaveBeenCalledTimes(1);
    fireEvent.change(budget, { target: { value: '2048' } });
    fireEvent.keyDown(budget, { key: 'Enter' });
    await waitFor(() =>
      expect(fake.setOfflineSettings).toHaveBeenLastCalledWith({
        accountId: 'a',
        settings: { days: 7, budgetBytes: 2048 * MB, enabled: true },
      }),
    );

    fireEvent.click(screen.getByRole('checkbox', { name: /in the background/ }));
    await waitFor(() =>
      expect(fake.setOfflineSettings).toHaveBeenLastCalledWith({
        accountId: 'a',
        settings: { days: 7, budgetBytes: 2048 * MB, enabled: false },
      }),
    );
    await waitFor(() =>
      expect(screen.getByTestId('offline-state').textContent).toMatch(/^Off: only the/),
    );
  });

  it('says why and offers no controls when main cannot sync', async () => {
    fakeMain({
      offlineStatus: () => {
        // As the bridge delivers main's interim answer (electron/cache/cache-service.ts).
        throw new TributaryError({
          code: 'INTERNAL_ERROR',
          msg: 'Offline sync is not available in this build',
          status: null,
        });
      },
    });
    renderOffline();
    expect((await screen.findByTestId('offline-unavailable')).textContent).toBe(
      'Offline use cannot be set up here: Offline sync is not available in this build.',
    );
    expect(screen.queryByRole('button', { name: 'Sync now' })).toBeNull();
    expect(screen.queryByRole('button', { name: 'Clear offline data' })).toBeNull();
    expect(screen.queryByRole('spinbutton')).toBeNull();
  });
});

function page(
  messages: unknown[],
  over: { from_cache?: boolean; offline_coverage?: OfflineCoverage },
) {
  return {
    result: 'success',
    msg: '',
    messages,
    anchor: 0,
    found_oldest: true,
    found_newest: true,
    ...over,
  };
}

const lunch = [101, 102].map((id) => ({
  ...channelMessage(id, GENERAL, 'lunch', { content: `kept ${id}` }),
  flags: ['read'],
}));

function renderList(narrow: Narrow, answer: ReturnType<typeof page>) {
  fakeMain({ getMessages: () => answer });
  const ctx = setupStore();
  render(
    <Providers store={ctx.store}>
      <MessageList accountId="a" narrowKey={narrowKey(narrow)} />
    </Providers>,
  );
}

describe('a list answered from the cache', () => {
  it('says a conversation never kept will load when the server is back, instead of looking empty', async () => {
    renderList(
      topicNarrow(GENERAL, 'never opened'),
      page([], { from_cache: true, offline_coverage: 'never' }),
    );
    expect(
      await screen.findByText(
        'This conversation is not kept on this computer; it will load when the server is back.',
      ),
    ).toBeTruthy();
    expect(screen.queryByText('No messages here yet.')).toBeNull();
  });

  it('says older messages may be missing when the conversation is kept in part', async () => {
    renderList(
      topicNarrow(GENERAL, 'lunch'),
      page(lunch, { from_cache: true, offline_coverage: 'partial' }),
    );
    await screen.findByText('kept 102');
    expect(screen.getByTestId('offline-coverage').textContent).toBe(
      'Older messages may be missing offline.',
    );
    expect(screen.queryByTestId('offline-search-note')).toBeNull();
  });

  it('says nothing for a synced conversation or a page from the server', async () => {
    renderList(
      topicNarrow(GENERAL, 'lunch'),
      page(lunch, { from_cache: true, offline_coverage: 'synced' }),
    );
    await screen.findByText('kept 102');
    expect(screen.queryByTestId('offline-coverage')).toBeNull();
    cleanup();
    renderList(topicNarrow(GENERAL, 'lunch'), page([], { offline_coverage: 'never' }));
    expect(await screen.findByText('No messages here yet.')).toBeTruthy();
  });

  it('says search results from this computer may be incomplete', async () => {
    const search: Narrow = [...channelNarrow(GENERAL), { operator: 'search', operand: 'kept' }];
    renderList(search, page(lunch, { from_cache: true, offline_coverage: 'partial' }));
    await screen.findByText('kept 102');
    expect(screen.getByTestId('offline-search-note').textContent).toBe(
      'From this computer; may be incomplete.',
    );
    expect(screen.queryByTestId('offline-coverage')).toBeNull(); // one note, not two
    cleanup();
    renderList(search, page(lunch, {}));
    await screen.findByText('kept 102');
    expect(screen.queryByTestId('offline-search-note')).toBeNull();
  });
});

describe('the offline indicator', () => {
  it('shows while the server is out of reach and opens Settings › Offline', async () => {
    const backoff = {
      status: 'backoff',
      retryAt: Date.now() + 60_000,
      attempt: 2,
      reason: 'ECONNREFUSED',
    };
    fakeMain({
      ...liveAppAnswers(register),
      offlineStatus: () => status(),
      getSnapshot: () => ({
        snapshot: { accountId: 'a', queueId: 'q1', register: register() },
        events: [],
        connection: backoff,
        fromCache: true,
      }),
      listAccounts: () => ({
        accounts: [{ ...LIVE_ACCOUNT, connection: backoff }],
        activeAccountId: 'a',
      }),
    });
    act(() => navigate({ kind: 'inbox' }));
    render(<App store={createChatStore()} />);
    const indicator = await screen.findByTestId('offline-indicator');
    expect(indicator.textContent).toMatch(/Offline: showing what this computer keeps/);
    await waitFor(() => expect(indicator.title).toMatch(/12 of 40 conversations kept/));

    push('connection', { accountId: 'a', state: { status: 'live', queueId: 'q2' } });
    await waitFor(() => expect(screen.queryByTestId('offline-indicator')).toBeNull());
    push('connection', {
      accountId: 'a',
      state: { status: 'backoff', retryAt: Date.now() + 60_000, attempt: 1, reason: 'timeout' },
    });
    fireEvent.click(await screen.findByTestId('offline-indicator'));
    expect(uiStore.getState().route).toEqual({ kind: 'settings', section: 'offline' });
    // The section the route names (Settings itself loads lazily).
    expect(SETTINGS_SECTIONS.find((section) => section.id === 'offline')).toMatchObject({
      label: 'Offline',
      group: 'personal',
      Component: Offline,
    });
  });
});
