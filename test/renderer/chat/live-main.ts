// Renderer tests against the real thing below the browser: the real local realm server (127.0.0.1,
// SQLite in a temporary folder), the real main-process services behind the real browser-mode
// bridge (window.tributary over a WebSocket), one account signed in, and a chat store filled from
// its register snapshot as the app fills it.
//
//   const live = await startLiveMain();            // in beforeAll (allow ~60 s)
//   live.api.sendMessage(...); live.store; live.channelId('general'); live.realm.client('admin')
//   await live.close();                            // in afterAll
//
// The server and main-process helpers live in the Node TypeScript project, which this web project
// cannot import statically: they are loaded by URL and typed here by the few members tests use.
import { createChatStore, type ChatStore } from '../../../renderer/store';
import type { TributaryApi } from '../../../shared/ipc/contract';
import type { RegisterResponse } from '../../../shared/api/types';

interface ApiResponse {
  status: number;
  body: Record<string, unknown>;
}

export interface LiveRealm {
  url: string;
  users: Record<string, { email: string; api_key: string }>;
  server: { db: { prepare(sql: string): { run(...args: unknown[]): unknown } } };
  /** An HTTP client signed in as a seeded user ('owner', 'admin', 'emma', ...). */
  client(who: string): {
    patch(path: string, params: Record<string, unknown>): Promise<ApiResponse>;
  };
  close(): Promise<void>;
}

interface Transport {
  api: TributaryApi<Blob>;
  close(): Promise<void>;
}

export interface LiveMain {
  realm: LiveRealm;
  /** The bridge, also installed as window.tributary. */
  api: TributaryApi<Blob>;
  accountId: string;
  /** Filled from the account's snapshot; the account is active. */
  store: ChatStore;
  register: RegisterResponse;
  /** A subscribed channel's id by name. */
  channelId(name: string): number;
  close(): Promise<void>;
}

const load = <T>(path: string) => import(String(new URL(path, import.meta.url))) as Promise<T>;

/** Signs the seeded owner in through the bridge and waits for main's first snapshot. */
export async function startLiveMain(): Promise<LiveMain> {
  const { startTestServer } = await load<{
    startTestServer(o: { heartbeatMs: number }): Promise<LiveRealm>;
  }>('../../support/server.ts');
  const { websocketTransport } = await load<{
    websocketTransport(o: object): Promise<Transport>;
  }>('../../main/support/transports.ts');
  const realm = await startTestServer({ heartbeatMs: 1_000 });
  const transport = await websocketTransport({});
  const api = transport.api;
  (window as unknown as { tributary: unknown }).tributary = api;
  const owner = realm.users.owner;
  const { id: accountId } = await api.addAccount({
    site: realm.url,
    auth: { kind: 'apiKey', email: owner.email, apiKey: owner.api_key },
  });
  // Main registers the account's event queue; its snapshot fills the store as the app does.
  let snapshot = (await api.getSnapshot({ accountId })).snapshot;
  for (let i = 0; !snapshot && i < 500; i++) {
    await new Promise((resolve) => setTimeout(resolve, 20));
    snapshot = (await api.getSnapshot({ accountId })).snapshot;
  }
  if (!snapshot) throw new Error('no snapshot from main');
  const register = snapshot.register;
  const store = createChatStore();
  store.getState().replaceSnapshot(accountId, register);
  store.getState().setActiveAccount(accountId);
  return {
    realm,
    api,
    accountId,
    store,
    register,
    channelId(name) {
      const sub = register.subscriptions?.find((s) => s.name === name);
      if (!sub) throw new Error(`not subscribed to ${name}`);
      return sub.stream_id;
    },
    async close() {
      await transport.close();
      await realm.close();
    },
  };
}
