// At start the open conversation's first page is asked of main as soon as the account's snapshot
// is in (renderer/shell/bridge-sync.ts, features/messages/first-page.ts), before anything renders,
// and the message list's first query shows that answer instead of asking main again. The real
// local realm server, main-process services behind the browser-mode bridge, store and message list;
// the page's calls to main are only counted on their way.
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { cleanup, render, waitFor } from '@testing-library/react';
import { MessageList } from '../../../renderer/features/messages/MessageList';
import { takeFirstPage } from '../../../renderer/features/messages/first-page';
import { connectBridge } from '../../../renderer/shell/bridge-sync';
import { createChatStore } from '../../../renderer/store';
import { ALL_MESSAGES_ROUTE, replaceRoute, uiStore } from '../../../renderer/store/ui-store';
import { narrowKey } from '../../../shared/narrow';
import type { TributaryApi } from '../../../shared/ipc/contract';
import { fakeLayout, Providers, resetUi } from './harness';
import { startLiveAccount, type LiveAccount } from './live-realm';

let live: LiveAccount;
let restoreLayout: () => void;
beforeAll(async () => {
  live = await startLiveAccount();
}, 60_000);
afterAll(async () => {
  await live?.close();
});
afterEach(() => {
  cleanup();
  restoreLayout?.();
});

/** The live bridge, with every getMessages call the page makes written down before it goes. */
function countingApi(api: TributaryApi<Blob>) {
  const asked: Array<{ anchor: unknown; narrow: unknown }> = [];
  /** Whether main's answer to listAccounts or getSnapshot carried the open view's first page. */
  const withList = { firstPage: false };
  const counted = new Proxy(api, {
    get(target, name, receiver) {
      const value = Reflect.get(target, name, receiver) as unknown;
      // The page may come from main's cache with the list (the view the launch chose) or with the
      // snapshot (the last conversation open, here All messages too).
      if (name === 'listAccounts' || name === 'getSnapshot') {
        return async (input: never) => {
          const answer = (await (target[name] as (input: never) => Promise<unknown>)(input)) as {
            firstPage?: unknown;
            lastPage?: unknown;
            lastNarrow?: unknown[];
          };
          if (answer.firstPage || (answer.lastPage && answer.lastNarrow?.length === 0))
            withList.firstPage = true;
          return answer;
        };
      }
      if (name === 'getMessages') {
        return (input: { anchor: unknown; narrow: unknown }) => {
          asked.push({ anchor: input.anchor, narrow: input.narrow });
          return target.getMessages(input as never);
        };
      }
      return typeof value === 'function' ? (value as () => unknown).bind(target) : value;
    },
  });
  return { counted, asked, withList };
}

describe('the open conversation at start', () => {
  it('comes with the account list or is asked for with the snapshot, and the list shows that answer without asking again', async () => {
    // A page starting: All messages open, the bridge connected to a fresh store.
    resetUi(live.accountId);
    uiStore.setState({ accountsLoaded: false, route: ALL_MESSAGES_ROUTE });
    // The live account's own bridge (live-realm.ts) asked for its first page when it connected, and
    // nothing took it: dropped, so that this store's first generation finds only its own.
    void takeFirstPage(live.accountId, narrowKey([]), 1)?.catch(() => undefined);
    const { counted, asked, withList } = countingApi(live.api);
    (window as unknown as { tributary: unknown }).tributary = counted;
    const store = createChatStore();
    const disconnect = connectBridge(counted, store);
    try {
      await waitFor(() => expect(store.getState().accounts[live.accountId]).toBeDefined());
      // Nothing has rendered yet, and the first page is already here or on its way: with the
      // account list or the snapshot when main's cache settles it, else asked for with the snapshot.
      await waitFor(() =>
        expect(withList.firstPage ? [] : asked).toEqual(
          withList.firstPage ? asked : [{ anchor: 'first_unread', narrow: [] }],
        ),
      );
      const askedBeforeRender = asked.length;

      restoreLayout = fakeLayout();
      const { container } = render(
        <Providers store={store}>
          <MessageList accountId={live.accountId} narrowKey={narrowKey([])} />
        </Providers>,
      );
      await waitFor(() =>
        expect(container.querySelectorAll('[data-testid=message]').length).toBeGreaterThan(0),
      );
      expect(asked).toHaveLength(askedBeforeRender);
    } finally {
      disconnect();
      (window as unknown as { tributary: unknown }).tributary = live.api;
    }
  });
});

describe('the open conversation of an account whose first snapshot comes as a push', () => {
  it('is asked for when that snapshot arrives, before anything renders (a first launch, a sign-in)', async () => {
    const load = <T,>(path: string) => import(String(new URL(path, import.meta.url))) as Promise<T>;
    const { startTestServer } = await load<{
      startTestServer(o: { heartbeatMs: number }): Promise<LiveAccount['realm']>;
    }>('../../support/server.ts');
    const { websocketTransport } = await load<{
      websocketTransport(o: object): Promise<{ api: TributaryApi<Blob>; close(): Promise<void> }>;
    }>('../../main/support/transports.ts');
    const realm = await startTestServer({ heartbeatMs: 1_000 });
    // The fault: a slow server, whose register answers only once the page has asked main for the
    // snapshot and heard there is none yet, so the snapshot reaches the page as a push.
    let answerRegister: () => void = () => undefined;
    const registerHeld = new Promise<void>((resolve) => (answerRegister = resolve));
    const slowRegister: typeof fetch = async (input, init) => {
      if (String(input).endsWith('/register')) await registerHeld;
      return fetch(input, init);
    };
    const transport = await websocketTransport({ clientOptions: { fetch: slowRegister } });
    const { counted, asked } = countingApi(transport.api);
    const emptySnapshots: string[] = [];
    const api = new Proxy(counted, {
      get(target, name, receiver) {
        if (name !== 'getSnapshot') return Reflect.get(target, name, receiver) as unknown;
        return async (input: { accountId: string }) => {
          const answer = await target.getSnapshot(input);
          if (!answer.snapshot) emptySnapshots.push(input.accountId);
          return answer;
        };
      },
    });
    (window as unknown as { tributary: unknown }).tributary = api;
    localStorage.clear();
    resetUi();
    uiStore.setState({ accountsLoaded: false, route: ALL_MESSAGES_ROUTE });
    const store = createChatStore();
    const disconnect = connectBridge(api, store);
    try {
      const owner = realm.users.owner;
      const { id: accountId } = await transport.api.addAccount({
        site: realm.url,
        auth: { kind: 'apiKey', email: owner.email, apiKey: owner.api_key },
      });
      await waitFor(() => expect(emptySnapshots).toContain(accountId));
      expect(asked).toEqual([]);
      // The page opened with no account (the sign-in route); the sign-in screen gives the launch's
      // view back once the account is listed (SignIn's restoreStartRoute), here All messages as a
      // launch URL's #view=all names it.
      expect(uiStore.getState().route).toEqual({ kind: 'signin' });
      replaceRoute(ALL_MESSAGES_ROUTE);
      answerRegister();
      await waitFor(() => expect(store.getState().accounts[accountId]).toBeDefined());
      // Nothing has rendered, and All messages' first page is already on its way.
      expect(asked).toEqual([{ anchor: 'first_unread', narrow: [] }]);

      restoreLayout = fakeLayout();
      const { container } = render(
        <Providers store={store}>
          <MessageList accountId={accountId} narrowKey={narrowKey([])} />
        </Providers>,
      );
      await waitFor(() =>
        expect(container.querySelectorAll('[data-testid=message]').length).toBeGreaterThan(0),
      );
      expect(asked).toHaveLength(1);
    } finally {
      answerRegister();
      disconnect();
      (window as unknown as { tributary: unknown }).tributary = live.api;
      await transport.close();
      await realm.close();
    }
  }, 60_000);
});
