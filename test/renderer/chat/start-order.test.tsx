// The page's first calls to main (renderer/shell/bridge-sync.ts): the snapshot of the account that
// was active last time leaves with listAccounts instead of after its answer, is not asked for a
// second time, and the shell's first render comes with that snapshot (not an empty shell first).
// An account since removed costs nothing but the early call. With none remembered (a fresh browser
// profile), main sends the active account's snapshot with the list. On a launch from the cache, the last
// conversation's page that came with the snapshot is its list's first page: main is not asked for
// it again, nor told to keep the conversation it just named.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { cleanup, render, screen, waitFor } from '@testing-library/react';
import { App } from '../../../renderer/shell/App';
import { takeFirstPage } from '../../../renderer/features/messages/first-page';
import { narrowKey } from '../../../shared/narrow';
import { connectBridge } from '../../../renderer/shell/bridge-sync';
import { createChatStore } from '../../../renderer/store';
import { ALL_MESSAGES_ROUTE, navigate, uiStore } from '../../../renderer/store/ui-store';
import type { TributaryApi } from '../../../shared/ipc/contract';
import { channelMessage, GENERAL, register } from '../store/fixtures';
import { installFakeApi, liveAppAnswers, resetUi } from './harness';

const KEY = 'tributary:last-active-account';

/** A gate an answer of main waits at until the test opens it, to see what the page sent first. */
function gate() {
  let open: () => void = () => undefined;
  const opened = new Promise<void>((resolve) => (open = resolve));
  return { opened, open };
}

/** Main's answers to listAccounts held until released. */
function mainWithHeldList() {
  const list = gate();
  const answers = liveAppAnswers(() => register());
  const fake = installFakeApi({
    ...answers,
    listAccounts: async () => {
      await list.opened;
      return answers.listAccounts();
    },
    getSnapshot: (input) => {
      const { accountId } = input as { accountId: string };
      if (accountId !== 'a') throw new Error(`unknown account ${accountId}`);
      return answers.getSnapshot();
    },
  });
  return { fake, releaseList: list.open };
}

let disconnect: () => void = () => undefined;
beforeEach(() => {
  resetUi('a');
  uiStore.setState({ accountsLoaded: false, route: ALL_MESSAGES_ROUTE });
  localStorage.clear();
});
afterEach(() => {
  cleanup();
  disconnect();
  localStorage.clear();
});

describe('the first calls to main', () => {
  it('ask for the last active account’s snapshot before the account list answers, once', async () => {
    localStorage.setItem(KEY, 'a');
    const { fake, releaseList } = mainWithHeldList();
    const store = createChatStore();
    // Whenever the shell may render (accountsLoaded), the active account's state is already in.
    const shellWithoutAccount: boolean[] = [];
    const stopWatching = uiStore.subscribe((state) => {
      if (state.accountsLoaded) shellWithoutAccount.push(!store.getState().accounts.a);
    });
    disconnect = connectBridge(fake as unknown as TributaryApi<Blob>, store);
    expect(fake.getSnapshot).toHaveBeenCalledWith({ accountId: 'a' });
    // Asked already: the list need not carry it.
    expect(fake.listAccounts).toHaveBeenCalledWith({});
    expect(uiStore.getState().accountsLoaded).toBe(false);

    releaseList();
    await waitFor(() => expect(uiStore.getState().accountsLoaded).toBe(true));
    stopWatching();
    expect(store.getState().accounts.a).toBeDefined();
    expect(shellWithoutAccount).not.toContain(true);
    expect(fake.getSnapshot).toHaveBeenCalledTimes(1);
    expect(localStorage.getItem(KEY)).toBe('a');
  });

  it('ask after the list when no account was active, and remember the one main names', async () => {
    const { fake, releaseList } = mainWithHeldList();
    const store = createChatStore();
    disconnect = connectBridge(fake as unknown as TributaryApi<Blob>, store);
    expect(fake.getSnapshot).not.toHaveBeenCalled();
    releaseList();
    await waitFor(() => expect(store.getState().accounts.a).toBeDefined());
    expect(uiStore.getState().accountsLoaded).toBe(true);
    expect(fake.getSnapshot).toHaveBeenCalledTimes(1);
    expect(localStorage.getItem(KEY)).toBe('a');
  });

  it('take the active account’s snapshot from the list when none was remembered: no second call', async () => {
    // A launch without a view in its URL: the snapshot decides what opens.
    uiStore.setState({ routeChosen: false });
    const answers = liveAppAnswers(() => register());
    const fake = installFakeApi({
      ...answers,
      // Main as it answers a fresh page: the active account's getSnapshot answer beside the list.
      listAccounts: (input) =>
        (input as { withActiveSnapshot?: boolean }).withActiveSnapshot
          ? { ...answers.listAccounts(), ...answers.getSnapshot() }
          : answers.listAccounts(),
    });
    const store = createChatStore();
    disconnect = connectBridge(fake as unknown as TributaryApi<Blob>, store);
    expect(fake.listAccounts).toHaveBeenCalledWith({ withActiveSnapshot: true });
    await waitFor(() => expect(uiStore.getState().accountsLoaded).toBe(true));
    expect(store.getState().accounts.a).toBeDefined();
    expect(uiStore.getState().accounts.map((a) => a.id)).toEqual(['a']);
    expect(fake.getSnapshot).not.toHaveBeenCalled();
  });

  it('take the first page of a view the launch URL chose from the list too, shown with the snapshot', async () => {
    const answers = liveAppAnswers(() => register());
    const page = {
      result: 'success',
      msg: '',
      messages: [channelMessage(7001, GENERAL, 'launch', { content: 'from the cache' })],
      found_oldest: true,
      found_newest: true,
      anchor: 7001,
      from_cache: true,
    };
    const fake = installFakeApi({
      ...answers,
      listAccounts: (input) => {
        const { withActiveSnapshot, firstPageOf } = input as {
          withActiveSnapshot?: boolean;
          firstPageOf?: unknown[];
        };
        if (!withActiveSnapshot) return answers.listAccounts();
        const list = { ...answers.listAccounts(), ...answers.getSnapshot() };
        return firstPageOf ? { ...list, firstPage: page } : list;
      },
    });
    // As a launch with #view=all.
    uiStore.setState({ routeChosen: true, route: ALL_MESSAGES_ROUTE });
    const store = createChatStore();
    const shownWithoutMessages: boolean[] = [];
    const stopWatching = uiStore.subscribe((state) => {
      if (state.accountsLoaded)
        shownWithoutMessages.push(!store.getState().accounts.a?.narrows.lists.get(narrowKey([])));
    });
    disconnect = connectBridge(fake as unknown as TributaryApi<Blob>, store);
    expect(fake.listAccounts).toHaveBeenCalledWith({ withActiveSnapshot: true, firstPageOf: [] });
    await waitFor(() => expect(uiStore.getState().accountsLoaded).toBe(true));
    stopWatching();
    // The shell's first render has the messages: they went into the store with the snapshot.
    expect(shownWithoutMessages).not.toContain(true);
    expect(store.getState().accounts.a!.narrows.lists.get(narrowKey([]))!.ids.last).toBe(7001);
    const generation = store.getState().accounts.a!.generation;
    await expect(takeFirstPage('a', narrowKey([]), generation)).resolves.toBe(page);
    expect(fake.getSnapshot).not.toHaveBeenCalled();
    expect(fake.getMessages).not.toHaveBeenCalled();
  });

  it('load the listed account when the remembered one is gone', async () => {
    localStorage.setItem(KEY, 'removed');
    const { fake, releaseList } = mainWithHeldList();
    const store = createChatStore();
    disconnect = connectBridge(fake as unknown as TributaryApi<Blob>, store);
    expect(fake.getSnapshot).toHaveBeenCalledWith({ accountId: 'removed' });
    releaseList();
    await waitFor(() => expect(store.getState().accounts.a).toBeDefined());
    expect(store.getState().accounts.removed).toBeUndefined();
    expect(uiStore.getState().accountsLoaded).toBe(true);
    expect(localStorage.getItem(KEY)).toBe('a');
  });

  it('are not sent again by an App whose entry connected the bridge before rendering it', async () => {
    localStorage.setItem(KEY, 'a');
    const { fake, releaseList } = mainWithHeldList();
    const store = createChatStore();
    // As renderer/shell/main.tsx does: the calls leave before React's first render.
    disconnect = connectBridge(fake as unknown as TributaryApi<Blob>, store);
    expect(fake.listAccounts).toHaveBeenCalledTimes(1);
    render(<App store={store} bridgeConnected />);
    expect(screen.getByText('Starting…')).toBeTruthy();
    releaseList();
    await waitFor(() => expect(uiStore.getState().accountsLoaded).toBe(true));
    expect(fake.listAccounts).toHaveBeenCalledTimes(1);
    expect(fake.getSnapshot).toHaveBeenCalledTimes(1);
    expect(fake.on.mock.calls.filter(([channel]) => channel === 'accounts')).toHaveLength(1);
  });

  it('ask for the open conversation’s first page before the snapshot goes into the store, for its generation', async () => {
    localStorage.setItem(KEY, 'a');
    const { fake, releaseList } = mainWithHeldList();
    const store = createChatStore();
    const accountWhenAsked: boolean[] = [];
    fake.getMessages.mockImplementation(async () => {
      accountWhenAsked.push(store.getState().accounts.a !== undefined);
      return { result: 'success', msg: '', messages: [], found_oldest: true, found_newest: true };
    });
    disconnect = connectBridge(fake as unknown as TributaryApi<Blob>, store);
    releaseList();
    await waitFor(() => expect(uiStore.getState().accountsLoaded).toBe(true));
    expect(accountWhenAsked).toEqual([false]);
    // The message list's first query (all messages: no terms) finds that page for the generation
    // the snapshot gave.
    const generation = store.getState().accounts.a!.generation;
    expect(takeFirstPage('a', narrowKey([]), generation)).toBeDefined();
  });
});

it('ask for the first page of a view the launch URL chose with the snapshot, not after its answer', async () => {
  const snapshot = gate();
  const answers = liveAppAnswers(() => register());
  const fake = installFakeApi({
    ...answers,
    getSnapshot: async () => {
      await snapshot.opened;
      return answers.getSnapshot();
    },
  });
  // As a launch with #view=all: the view is chosen before main has said anything.
  uiStore.setState({ routeChosen: true, route: ALL_MESSAGES_ROUTE });
  const store = createChatStore();
  disconnect = connectBridge(fake as unknown as TributaryApi<Blob>, store);
  await waitFor(() => expect(fake.getSnapshot).toHaveBeenCalledTimes(1));
  await waitFor(() => expect(fake.getMessages).toHaveBeenCalledTimes(1));
  expect(store.getState().accounts.a).toBeUndefined();
  snapshot.open();
  await waitFor(() => expect(uiStore.getState().accountsLoaded).toBe(true));
  // Taken by the list's first query for the generation the snapshot gave; not asked twice.
  const generation = store.getState().accounts.a!.generation;
  expect(takeFirstPage('a', narrowKey([]), generation)).toBeDefined();
  expect(fake.getMessages).toHaveBeenCalledTimes(1);
});

describe('a launch from the cache', () => {
  const TOPIC = [
    { operator: 'channel', operand: 'general' },
    { operator: 'topic', operand: 'launch' },
  ];
  const cachedPage = (messages: unknown[], coverage: 'partial' | 'never' = 'partial') => ({
    result: 'success',
    msg: '',
    messages,
    found_oldest: true,
    found_newest: true,
    anchor: 0,
    from_cache: true,
    offline_coverage: coverage,
  });

  /** Main started from its cache: the snapshot comes with the last conversation and its page. */
  function mainFromCache(lastPage: ReturnType<typeof cachedPage>) {
    const answers = liveAppAnswers(() => register());
    return installFakeApi({
      ...answers,
      getSnapshot: () => ({
        ...answers.getSnapshot(),
        connection: { status: 'connecting' },
        fromCache: true,
        lastNarrow: TOPIC,
        lastPage,
      }),
    });
  }

  beforeEach(() => uiStore.setState({ routeChosen: false }));

  it('takes the last conversation’s cached page as its list’s first page, and tells main nothing it knows', async () => {
    const page = cachedPage([]);
    const fake = mainFromCache(page);
    const store = createChatStore();
    disconnect = connectBridge(fake as unknown as TributaryApi<Blob>, store);
    await waitFor(() => expect(uiStore.getState().accountsLoaded).toBe(true));
    expect(uiStore.getState().route).toEqual({ kind: 'narrow', narrow: TOPIC });
    const generation = store.getState().accounts.a!.generation;
    await expect(takeFirstPage('a', narrowKey(TOPIC as never), generation)).resolves.toBe(page);
    expect(fake.getMessages).not.toHaveBeenCalled();
    expect(fake.rememberOpenNarrow).not.toHaveBeenCalled();

    // Going elsewhere is news to main, and so is coming back.
    navigate(ALL_MESSAGES_ROUTE);
    navigate({ kind: 'narrow', narrow: TOPIC as never });
    expect(fake.rememberOpenNarrow.mock.calls).toEqual([
      [{ accountId: 'a', narrow: [] }],
      [{ accountId: 'a', narrow: TOPIC }],
    ]);
  });

  it('asks main for the first page when the cached one cannot settle it', async () => {
    const fake = mainFromCache(cachedPage([], 'never'));
    fake.getMessages.mockImplementation(async () => cachedPage([]));
    const store = createChatStore();
    disconnect = connectBridge(fake as unknown as TributaryApi<Blob>, store);
    await waitFor(() => expect(uiStore.getState().accountsLoaded).toBe(true));
    expect(fake.getMessages).toHaveBeenCalledTimes(1);
    expect(fake.getMessages.mock.calls[0]![0]).toMatchObject({ accountId: 'a', narrow: TOPIC });
  });
});
