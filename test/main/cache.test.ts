// The local cache against the real local realm server: a restart starts from the cache before the
// server answers and the fresh snapshot then replaces it; with the server down the cached account,
// conversations and search still answer; the server's changes made while the app was closed win;
// removing an account or being signed out deletes its cache.
import { existsSync, readFileSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import type { NarrowTerm } from '../../shared/narrow';
import { cachePath } from '../../electron/cache/cache-service';
import type { TestServer } from '../support/server';
import type { FaultProxy } from './support/fault-proxy';
import { eventually, startMain, type MainHarness } from './support/harness';
import { liftFaults, realmThroughProxy } from './support/through-proxy';

let realm: TestServer;
let proxy: FaultProxy;
let main: MainHarness | undefined;

realmThroughProxy((env) => ({ realm, proxy } = env));
afterEach(async () => {
  await liftFaults(proxy);
  await main?.close();
  main = undefined;
});

const page = { anchor: 'newest' as const, numBefore: 50, numAfter: 0 };

/** Restarts main (the app relaunched) and returns the next snapshot push, once it comes. */
async function relaunch(main: MainHarness) {
  const before = main.pushesOf('snapshot').length;
  await main.restart();
  return () => eventually(() => main.pushesOf('snapshot')[before]);
}

/** Signs `who` in through the proxy, sends `contents` to a fresh topic, opens it (so it is cached). */
async function signedInWithTopic(who: 'owner' | 'emma', contents: string[]) {
  main = await startMain({ site: proxy.url, user: realm.users[who] });
  const snapshot = await main.live();
  const streamId = snapshot.register.subscriptions[0].stream_id;
  const topic = `cache ${Math.random().toString(36).slice(2)}`;
  const ids: number[] = [];
  for (const content of contents) {
    const sent = await main.services.handlers.sendMessage({
      accountId: main.accountId,
      message: { type: 'channel', to: streamId, topic, content },
    });
    ids.push(sent.messageId!);
  }
  const narrow: NarrowTerm[] = [
    { operator: 'channel', operand: streamId },
    { operator: 'topic', operand: topic },
  ];
  const fetched = await main.services.handlers.getMessages({
    accountId: main.accountId,
    narrow,
    ...page,
  });
  expect(fetched.from_cache).toBeUndefined();
  await main.services.handlers.rememberOpenNarrow({ accountId: main.accountId, narrow });
  // The message events reach main (and its cache) before the app closes.
  await eventually(() =>
    main!.services
      .session(main!.accountId)
      .getSnapshot()
      .events.some((e) => e.type === 'message' && e.message.id === ids[ids.length - 1])
      ? true
      : undefined,
  );
  return { main, streamId, narrow, ids, snapshot };
}

describe('local cache', () => {
  it('starts from the cache, then the fresh snapshot replaces it', async () => {
    const { main, narrow, ids } = await signedInWithTopic('owner', ['first', 'second']);
    const nextSnapshot = await relaunch(main);
    const session = main.services.session(main.accountId);
    // Before the server has answered the registration: the cached snapshot and its events.
    const start = session.getSnapshot();
    expect(start.fromCache).toBe(true);
    expect(start.connection.status).toBe('connecting');
    expect(start.lastNarrow).toEqual(narrow);
    expect(start.events.filter((e) => e.type === 'message').map((e) => e.message.id)).toEqual(
      expect.arrayContaining(ids),
    );
    const cached = await main.services.handlers.getMessages({
      accountId: main.accountId,
      narrow,
      ...page,
    });
    expect(cached.from_cache).toBe(true);
    expect(cached.messages.map((m) => m.id)).toEqual(ids);

    const fresh = await nextSnapshot();
    await eventually(() => (session.isOnline() ? true : undefined));
    const after = session.getSnapshot();
    expect(after.fromCache).toBe(false);
    expect(after.snapshot?.queueId).toBe(fresh.queueId);
    expect(after.snapshot?.register.last_event_id).toBe(fresh.register.last_event_id);
    const live = await main.services.handlers.getMessages({
      accountId: main.accountId,
      narrow,
      ...page,
    });
    expect(live.from_cache).toBeUndefined();
    expect(live.messages.map((m) => m.id)).toEqual(ids);
  });

  it('holds a cached start’s register until the page has shown the snapshot', async () => {
    const { main } = await signedInWithTopic('owner', ['held']);
    // A second account, not the active one: its snapshot is never painted at start.
    const emma = realm.users.emma;
    const second = await main.services.handlers.addAccount({
      site: proxy.url,
      auth: { kind: 'apiKey', email: emma.email, apiKey: emma.api_key },
    });
    await eventually(() => (main!.services.session(second.id).isOnline() ? true : undefined));
    // Its first sign-in's people follow its snapshot: the cache keeps it once they are in.
    await main.waitForPush('people', (p) => p.accountId === second.id);
    await main.services.handlers.switchAccount({ accountId: main.accountId });
    const before = {
      snapshots: main.pushesOf('snapshot').length,
      connections: main.pushesOf('connection').length,
    };
    // As the app starts with a page: the wait ends when the page says so (no timer within the test).
    await main.restart({ cachedRegisterWaitMs: 10 * 60_000 });
    const nextSnapshot = () =>
      eventually(() =>
        main
          .pushesOf('snapshot')
          .slice(before.snapshots)
          .find((pushed) => pushed.accountId === main.accountId),
      );
    const session = main.services.session(main.accountId);
    expect(session.getSnapshot().fromCache).toBe(true);
    // Waiting for the page: shown as connecting, and nothing asked of the server yet.
    expect(session.connection.status).toBe('connecting');
    expect(session.loop.connection.status).toBe('stopped');
    const states = main
      .pushesOf('connection')
      .slice(before.connections)
      .map((c) => c.state.status);
    expect(states).not.toContain('connecting'); // (the last run's stop says 'stopped')

    const other = main.services.session(second.id);
    expect(other.getSnapshot().fromCache).toBe(true);
    expect(other.loop.connection.status).toBe('stopped');

    await main.services.handlers.snapshotShown({ accountId: main.accountId });
    const fresh = await nextSnapshot();
    await eventually(() => (session.isOnline() ? true : undefined));
    // The active account's paint releases the other account's register too.
    await eventually(() => (other.isOnline() ? true : undefined));
    expect(session.getSnapshot().snapshot?.queueId).toBe(fresh.queueId);
    // Said again (a reload of the page): nothing more happens.
    await main.services.handlers.snapshotShown({ accountId: main.accountId });
    expect(session.isOnline()).toBe(true);
  });

  it('with the server down, shows the cached account, conversations and search results', async () => {
    const word = `kumquat${Date.now()}`;
    const { main, narrow, ids, snapshot } = await signedInWithTopic('owner', [
      `a ${word} here`,
      'nothing to find',
    ]);
    await proxy.refuseConnections();
    await main.restart();
    const session = main.services.session(main.accountId);
    await eventually(() => (session.connection.status === 'backoff' ? true : undefined));
    const state = session.getSnapshot();
    expect(state.fromCache).toBe(true);
    expect(state.snapshot?.register.user_id).toBe(snapshot.register.user_id);

    const conversation = await main.services.handlers.getMessages({
      accountId: main.accountId,
      narrow,
      ...page,
    });
    expect(conversation).toMatchObject({ from_cache: true, found_newest: true });
    expect(conversation.messages.map((m) => m.id)).toEqual(ids);

    const search = await main.services.handlers.getMessages({
      accountId: main.accountId,
      narrow: [{ operator: 'search', operand: word }],
      ...page,
    });
    expect(search.from_cache).toBe(true);
    expect(search.messages.map((m) => m.id)).toEqual([ids[0]]);

    // Sending works as before: the message waits in the outbox.
    const queued = await main.services.handlers.sendMessage({
      accountId: main.accountId,
      message: { type: 'channel', to: narrow[0].operand as number, topic: 'x', content: 'later' },
    });
    expect(queued.state).toBe('queued');
    await main.services.handlers.discardOutboxEntry({
      accountId: main.accountId,
      localId: queued.localId,
    });
  });

  it('takes the server’s changes made while the app was closed', async () => {
    const { main, narrow, ids, streamId } = await signedInWithTopic('owner', ['keep', 'delete me']);
    const owner = realm.client('owner');
    await main.services.stop(); // the app is closed
    expect((await owner.delete(`/messages/${ids[1]}`)).status).toBe(200);
    const channelName = (await owner.get(`/streams/${streamId}`)).body.stream.name as string;
    expect(
      (await owner.delete('/users/me/subscriptions', { subscriptions: [channelName] })).status,
    ).toBe(200);
    expect((await owner.delete(`/users/${realm.userIds.farid}`)).status).toBe(200);

    const nextSnapshot = await relaunch(main);
    const session = main.services.session(main.accountId);
    const cached = session.getSnapshot();
    expect(cached.fromCache).toBe(true);
    expect(cached.snapshot!.register.subscriptions.map((s) => s.stream_id)).toContain(streamId);
    const fresh = (await nextSnapshot()).register;
    expect(fresh.subscriptions.map((s) => s.stream_id)).not.toContain(streamId);
    const farid = fresh.realm_users.find((u) => u.user_id === realm.userIds.farid);
    expect(farid?.is_active ?? false).toBe(false);
    await eventually(() => (session.isOnline() ? true : undefined));
    const live = await main.services.handlers.getMessages({
      accountId: main.accountId,
      narrow,
      ...page,
    });
    expect(live.messages.map((m) => m.id)).toEqual([ids[0]]);

    // The cache now holds the server's version: offline, the deleted message stays gone.
    await proxy.refuseConnections();
    await main.restart();
    const offline = main.services.session(main.accountId);
    const state = offline.getSnapshot();
    expect(state.fromCache).toBe(true);
    expect(state.snapshot!.register.subscriptions.map((s) => s.stream_id)).not.toContain(streamId);
    const page2 = await main.services.handlers.getMessages({
      accountId: main.accountId,
      narrow,
      ...page,
    });
    expect(page2.messages.map((m) => m.id)).toEqual([ids[0]]);

    await proxy.acceptConnections();
    await owner.post('/users/me/subscriptions', { subscriptions: [{ name: channelName }] });
    await owner.post(`/users/${realm.userIds.farid}/reactivate`);
  });

  it('deletes the cache when the account is removed', async () => {
    const { main } = await signedInWithTopic('owner', ['bye']);
    const path = cachePath(main.dataDir, main.accountId);
    expect(existsSync(path)).toBe(true);
    await main.services.removeAccount(main.accountId);
    expect(existsSync(path)).toBe(false);
    expect(existsSync(`${path}-wal`)).toBe(false);
    const secrets = JSON.parse(readFileSync(`${main.dataDir}/secrets.json`, 'utf8')) as object;
    expect(Object.keys(secrets)).toEqual([]);
  });

  it('deletes the cache when the account is signed out', async () => {
    const { main } = await signedInWithTopic('emma', ['signing out']);
    const path = cachePath(main.dataDir, main.accountId);
    expect(existsSync(path)).toBe(true);
    // Deactivated by the owner: emma's key stops working and the app signs her out.
    expect((await realm.client('owner').delete(`/users/${realm.userIds.emma}`)).status).toBe(200);
    const session = main.services.session(main.accountId);
    await eventually(() => (session.connection.status === 'signed_out' ? true : undefined));
    expect(existsSync(path)).toBe(false);
    await realm.client('owner').post(`/users/${realm.userIds.emma}/reactivate`);
  });
});
