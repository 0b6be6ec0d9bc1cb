// A live account for renderer tests: the real local realm server (127.0.0.1, SQLite in a temporary
// folder), the real main-process services behind the browser-mode bridge (window.tributary over a
// WebSocket), and a chat store that main's snapshot and event batches keep current, as in the app.
//
// The server and main-process helpers live in the Node TypeScript project, which this web project
// cannot import statically: they are loaded by URL and typed here by the few members used.
import { createChatStore, type ChatStore } from '../../../renderer/store';
import { connectBridge } from '../../../renderer/shell/bridge-sync';
import type { TributaryApi } from '../../../shared/ipc/contract';
import type { MessageWithFlags, RegisterResponse } from '../../../shared/api/types';
import { narrowKey, topicNarrow } from '../../../shared/narrow';
import { afterAll, beforeAll } from 'vitest';

export interface ApiResponse {
  status: number;
  body: Record<string, unknown>;
}

export interface LiveRealm {
  url: string;
  users: Record<string, { email: string; api_key: string; user_id: number }>;
  /** The running server, for setting what the API cannot (a realm setting, hostile HTML). */
  server: { db: { prepare(sql: string): { run(...args: unknown[]): unknown } } };
  /** An API client signed in as a demo user (to act as another person than the account). */
  client(who: string): {
    post(path: string, params: Record<string, unknown>): Promise<ApiResponse>;
    patch(path: string, params: Record<string, unknown>): Promise<ApiResponse>;
    delete(path: string, params?: Record<string, unknown>): Promise<ApiResponse>;
  };
  close(): Promise<void>;
}

export interface LiveAccount {
  realm: LiveRealm;
  api: TributaryApi<Blob>;
  accountId: string;
  register: RegisterResponse;
  store: ChatStore;
  /** A subscribed channel's id by name. */
  channelId(name: string): number;
  /** Fetches one channel message through main into the store (its topic's list), as the message
   * list does; returns it. */
  storeMessage(id: number): Promise<MessageWithFlags>;
  close(): Promise<void>;
}

const load = <T>(path: string) => import(String(new URL(path, import.meta.url))) as Promise<T>;

export interface LiveAccountOptions {
  /**
   * A first sign-in's people never come (main's fetch holds their register): the account starts
   * without them. By default it starts once they have come.
   */
  peopleNeverCome?: boolean;
}

/** Signs `who` (a demo user key) in through main and waits for main's first snapshot. */
export async function startLiveAccount(
  who = 'owner',
  options: LiveAccountOptions = {},
): Promise<LiveAccount> {
  const { startTestServer } = await load<{
    startTestServer(o: { heartbeatMs: number }): Promise<LiveRealm>;
  }>('../../support/server.ts');
  const { websocketTransport } = await load<{
    websocketTransport(o: object): Promise<{ api: TributaryApi<Blob>; close(): Promise<void> }>;
  }>('../../main/support/transports.ts');
  const realm = await startTestServer({ heartbeatMs: 1_000 });
  const mainOptions = options.peopleNeverCome
    ? {
        clientOptions: {
          fetch: (await load<{ peopleNeverCome: typeof fetch }>('../../main/support/harness.ts'))
            .peopleNeverCome,
        },
      }
    : {};
  const transport = await websocketTransport(mainOptions);
  const api = transport.api;
  (window as unknown as { tributary: unknown }).tributary = api;
  const user = realm.users[who];
  const { id: accountId } = await api.addAccount({
    site: realm.url,
    auth: { kind: 'apiKey', email: user.email, apiKey: user.api_key },
  });
  let snapshot = (await api.getSnapshot({ accountId })).snapshot;
  for (let i = 0; !snapshot && i < 500; i++) {
    await new Promise((resolve) => setTimeout(resolve, 20));
    snapshot = (await api.getSnapshot({ accountId })).snapshot;
  }
  if (!snapshot) throw new Error('no snapshot from main');
  // Main's pushes (snapshots, event batches) reach the store as in the app.
  const store = createChatStore();
  const disconnect = connectBridge(api, store);
  for (let i = 0; !store.getState().accounts[accountId] && i < 500; i++)
    await new Promise((resolve) => setTimeout(resolve, 20));
  if (!store.getState().accounts[accountId]) throw new Error('the store has no snapshot');
  // A first sign-in's people come after its first snapshot (docs/cache-and-outbox.md): the tests
  // start once main's snapshot and the store have them.
  for (
    let i = 0;
    !options.peopleNeverCome &&
    (snapshot.peoplePending || store.getState().accounts[accountId]?.users.loading) &&
    i < 750;
    i++
  ) {
    await new Promise((resolve) => setTimeout(resolve, 20));
    snapshot = (await api.getSnapshot({ accountId })).snapshot ?? snapshot;
  }
  if (snapshot.peoplePending && !options.peopleNeverCome) throw new Error('the people never came');
  return {
    realm,
    api,
    accountId,
    register: snapshot.register,
    store,
    async storeMessage(id) {
      const res = await api.getMessages({ accountId, anchor: id, numBefore: 0, numAfter: 0 });
      const message = res.messages[0] as MessageWithFlags;
      if (message?.type !== 'stream') throw new Error(`message ${id} is not a channel message`);
      const key = narrowKey(topicNarrow(message.stream_id, message.subject));
      store.getState().mergeFetchedMessages(accountId, key, res.messages, {
        foundOldest: true,
        foundNewest: true,
      });
      return message;
    },
    channelId(name) {
      const sub = snapshot.register.subscriptions?.find((s) => s.name === name);
      if (!sub) throw new Error(`not subscribed to ${name}`);
      return sub.stream_id;
    },
    async close() {
      disconnect();
      await transport.close();
      await realm.close();
    },
  };
}

/**
 * One live account for a test file's tests, started before them and closed after them; call at the
 * file's top level, read the account through the returned function inside the tests.
 */
export function liveAccountForFile(who = 'owner'): () => LiveAccount {
  let live: LiveAccount | undefined;
  beforeAll(async () => {
    live = await startLiveAccount(who);
  }, 60_000);
  afterAll(async () => {
    await live?.close();
  });
  return () => {
    if (!live) throw new Error('the live account has not started');
    return live;
  };
}
