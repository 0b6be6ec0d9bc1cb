// A first sign-in registers without the people (a large organization's people are most of its
// register) and asks for them right after (electron/accounts/session.ts). Against the real local
// realm server: the first snapshot has no people and says they are coming; they come with the
// `people` push; a change to someone that the queue hears between the people's list and its
// arrival is held and applied over the list, never lost; and the account's cache keeps a snapshot
// with the people, so a returning launch has them.
import { afterEach, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../support/server';
import { eventually, peopleNeverCome, startMain, type MainHarness } from '../main/support/harness';
import type { PeopleMessage, SnapshotMessage, EventBatch } from '../../shared/ipc/accounts';
import type { RegisterResponse, User } from '../../shared/api/types';
import type { ServerEvent } from '../../shared/api/events';

// The store lives in the web TypeScript project, which this Node project cannot import
// statically: loaded by URL and typed here by the members the test uses.
interface StoreModule {
  createChatStore(): {
    getState(): {
      accounts: Record<string, { users: { users: Map<number, User>; loading: boolean } }>;
      replaceSnapshot(accountId: string, reg: RegisterResponse, peoplePending?: boolean): void;
      applyEventBatch(accountId: string, events: readonly ServerEvent[]): void;
      applyPeople(message: PeopleMessage): void;
    };
  };
}
const storeModule = () =>
  import(String(new URL('../../renderer/store/index.ts', import.meta.url))) as Promise<StoreModule>;

describe('a first sign-in without the people in its register', () => {
  let realm: TestServer | undefined;
  let main: MainHarness | undefined;

  afterEach(async () => {
    await main?.close();
    await realm?.close();
    main = realm = undefined;
  });

  it('shows them once they come, with a change made meanwhile, and caches them', async () => {
    realm = await startTestServer();
    const server = realm;
    const dev = server.users.dev;
    let renamedAt = -1;
    // The people's answer is held until, after the server built it, dev renamed themselves and
    // the account's queue delivered a message sent after that: the list has the old name, and
    // only the held event says the new one.
    const faultyFetch: typeof fetch = async (input, init) => {
      const response = await fetch(input, init);
      const body = typeof init?.body === 'string' ? init.body : String(init?.body ?? '');
      if (
        !String(input).endsWith('/register') ||
        !body.includes('fetch_event_types=%5B%22realm_user%22%5D')
      )
        return response;
      const text = await response.text();
      await server.client('dev').patch('/settings', { full_name: 'Renamed Meanwhile' });
      const sent = await server.client('dev').post('/messages', {
        type: 'direct',
        to: JSON.stringify([server.users.owner.user_id]),
        content: 'after the rename',
      });
      renamedAt = sent.body.id as number;
      await waitFor(
        () =>
          main !== undefined &&
          main
            .pushesOf('events')
            .some((batch) =>
              batch.events.some(
                (e) =>
                  e.type === 'message' &&
                  (e as { message: { id: number } }).message.id === renamedAt,
              ),
            ),
      );
      return new Response(text, { status: response.status, headers: response.headers });
    };
    main = await startMain({
      site: server.url,
      user: server.users.owner,
      clientOptions: { fetch: faultyFetch },
    });
    const snapshot = await main.waitForPush('snapshot');
    expect(snapshot.peoplePending).toBe(true);
    expect(snapshot.register.realm_users).toBeUndefined();
    expect(snapshot.register.user_id).toBe(server.users.owner.user_id);
    const people = await main.waitForPush('people');
    expect(people.people.realm_users?.find((u) => u.user_id === dev.user_id)?.full_name).not.toBe(
      'Renamed Meanwhile',
    );
    // The rename never reached the page before its people.
    const events = main.pushesOf('events').flatMap((batch) => batch.events);
    expect(events.some((e) => e.type === 'realm_user')).toBe(false);
    expect(people.events.some((e) => e.type === 'realm_user')).toBe(true);

    // The page's store, fed the pushes in order.
    const { createChatStore } = await storeModule();
    const store = createChatStore();
    for (const push of main.pushes) {
      if (push.channel === 'snapshot') {
        const m = push.payload as SnapshotMessage;
        store.getState().replaceSnapshot(m.accountId, m.register, m.peoplePending);
        expect(store.getState().accounts[m.accountId].users.loading).toBe(true);
      } else if (push.channel === 'events') {
        const m = push.payload as EventBatch;
        store.getState().applyEventBatch(m.accountId, m.events);
      } else if (push.channel === 'people') {
        store.getState().applyPeople(push.payload as PeopleMessage);
      }
    }
    const account = store.getState().accounts[main.accountId];
    expect(account.users.loading).toBe(false);
    expect(account.users.users.get(dev.user_id)?.full_name).toBe('Renamed Meanwhile');
    expect(account.users.users.size).toBeGreaterThan(3);

    // Main's own snapshot now has them, and so does the cache after a restart.
    const kept = main.services.session(main.accountId).getSnapshot();
    expect(kept.snapshot?.peoplePending).toBeUndefined();
    expect(kept.snapshot?.register.realm_users.length).toBe(people.people.realm_users?.length);
    expect(kept.snapshot?.register.email).toBe(server.users.owner.email);
    await main.restart({ cachedRegisterWaitMs: 60_000 });
    const cached = await cachedStart(main);
    expect(cached.fromCache).toBe(true);
    const relaunched = createChatStore();
    relaunched.getState().replaceSnapshot(main.accountId, cached.snapshot!.register);
    relaunched.getState().applyEventBatch(main.accountId, cached.events);
    const again = relaunched.getState().accounts[main.accountId];
    expect(again.users.users.get(dev.user_id)?.full_name).toBe('Renamed Meanwhile');
    expect(again.users.users.size).toBe(account.users.users.size);
  }, 60_000);

  it('starts from its cached snapshot next time though the app closed before they came', async () => {
    realm = await startTestServer();
    // The people's register never answers: the app is closed while they are on their way.
    main = await startMain({
      site: realm.url,
      user: realm.users.owner,
      clientOptions: { fetch: peopleNeverCome },
      peopleWaitMs: 0,
    });
    const snapshot = await main.waitForPush('snapshot');
    expect(snapshot.peoplePending).toBe(true);
    await main.restart({ cachedRegisterWaitMs: 60_000 });
    const cached = await cachedStart(main);
    expect(cached.fromCache).toBe(true);
    expect(cached.snapshot?.peoplePending).toBe(true);
    expect(cached.snapshot?.register.user_id).toBe(realm.users.owner.user_id);
  }, 60_000);
});

/** The relaunched main's snapshot, once its session (started a turn later) answers. */
function cachedStart(harness: MainHarness) {
  return eventually(() => {
    try {
      return harness.services.session(harness.accountId).getSnapshot();
    } catch {
      return undefined;
    }
  });
}

async function waitFor(check: () => boolean, timeoutMs = 15_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error('timed out');
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}
