// The channel methods the channel screens use (createChannel, addSubscribers, getStreams,
// updateSubscriptionProperties), through main's handlers against the real local realm server; a
// second user's event queue over HTTP sees what they did.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ServerEvent } from '../../shared/api/events';
import { startTestServer, type TestServer } from '../support/server';
import { registerQueue, type TestQueue } from '../support/events';
import { eventually, startMain, type MainHarness } from './support/harness';

let realm: TestServer;
let main: MainHarness;
let accountId: string;
let emmaQueue: TestQueue;

const events = () => main.pushesOf('events').flatMap((batch) => batch.events);
const waitForEvent = (match: (event: ServerEvent) => boolean) =>
  eventually(() => events().find(match));

beforeAll(async () => {
  realm = await startTestServer({ heartbeatMs: 500 });
  main = await startMain({ site: realm.url, user: realm.users.dev });
  accountId = main.accountId;
  await main.live();
  emmaQueue = await registerQueue(realm.client('emma'), { event_types: '["subscription"]' });
});
afterAll(async () => {
  await main?.close();
  await realm?.close();
});

describe('channel methods', () => {
  const h = () => main.services.handlers;

  it('creates a private channel with the creator and an initial subscriber', async () => {
    await h().createChannel({
      accountId,
      name: 'ipc-private',
      description: 'Made **here**',
      privacy: 'private',
      principals: [realm.userIds.emma],
    });
    const own = await waitForEvent(
      (e) =>
        e.type === 'subscription' && e.op === 'add' && e.subscriptions[0]?.name === 'ipc-private',
    );
    expect(own).toMatchObject({
      subscriptions: [{ invite_only: true, description: 'Made **here**' }],
    });
    const theirs = await emmaQueue.waitFor((e) => e.type === 'subscription' && e.op === 'add');
    expect(theirs.subscriptions[0].name).toBe('ipc-private');
    expect([...theirs.subscriptions[0].subscribers].sort()).toEqual(
      [realm.userIds.dev, realm.userIds.emma].sort(),
    );
  });

  it("shows the server's reason for an invalid name", async () => {
    await expect(
      h().createChannel({ accountId, name: 'bad\u0001name', privacy: 'public' }),
    ).rejects.toMatchObject({
      code: 'BAD_REQUEST',
      message: expect.stringContaining('Invalid character'),
    });
  });

  it('refuses web-public channels where the realm has none', async () => {
    await expect(
      h().createChannel({ accountId, name: 'on-the-web', privacy: 'web-public' }),
    ).rejects.toMatchObject({ code: 'BAD_REQUEST' });
  });

  it('adds a person to a channel and lists it with its subscriber count', async () => {
    await h().createChannel({ accountId, name: 'ipc-public', privacy: 'public' });
    await h().addSubscribers({
      accountId,
      channelName: 'ipc-public',
      principals: [realm.userIds.farid],
    });
    const peer = await waitForEvent(
      (e) =>
        e.type === 'subscription' &&
        e.op === 'peer_add' &&
        e.user_ids.includes(realm.userIds.farid),
    );
    expect(peer).toBeDefined();
    const { streams } = await h().getStreams({ accountId });
    expect(streams.find((s) => s.name === 'ipc-public')?.subscriber_count).toBe(2);
  });

  it('sets colour and notification overrides, heard as update events', async () => {
    const { streams } = await h().getStreams({ accountId });
    const id = streams.find((s) => s.name === 'ipc-public')!.stream_id;
    await h().updateSubscriptionProperties({
      accountId,
      changes: [
        { streamId: id, property: 'color', value: '#76ce90' },
        { streamId: id, property: 'email_notifications', value: true },
      ],
    });
    await waitForEvent(
      (e) =>
        e.type === 'subscription' &&
        e.op === 'update' &&
        e.property === 'color' &&
        e.value === '#76ce90',
    );
    await waitForEvent(
      (e) =>
        e.type === 'subscription' &&
        e.op === 'update' &&
        e.property === 'email_notifications' &&
        e.value === true,
    );
  });
});
