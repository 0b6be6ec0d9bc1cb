// The largest subscribe the caps allow is written in several transactions, with other requests
// free to run between them and between its users' events (server/realm/loop-slices.ts). Its
// outcome must be the same as one transaction's: every row, colours that continue each user's
// palette, and each queue told once about every channel.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LIMITS } from '../../server/config';
import { startTestServer, type TestServer } from '../support/server';

let server: TestServer;

beforeAll(async () => {
  server = await startTestServer({ seed: 'demo' });
});
afterAll(async () => {
  await server.close();
});

interface SubscriptionEvent {
  type: string;
  op: string;
  subscriptions?: Array<{ name: string; subscribers: number[]; desktop_notifications: unknown }>;
  streams?: Array<{ name: string }>;
  stream_ids?: number[];
  user_ids?: number[];
}

/** Creates the channels, as many per request as the cap on new channels allows; `who` alone joins. */
async function createChannels(who: string, names: string[]): Promise<void> {
  for (let first = 0; first < names.length; first += LIMITS.maxNewChannelsPerRequest) {
    const batch = names.slice(first, first + LIMITS.maxNewChannelsPerRequest);
    const res = await server
      .client(who)
      .post('/users/me/subscriptions', { subscriptions: batch.map((name) => ({ name })) });
    expect(res.status).toBe(200);
  }
}

async function eventsOf(who: string, queueId: string): Promise<SubscriptionEvent[]> {
  const res = await server
    .client(who)
    .get('/events', { queue_id: queueId, last_event_id: -1, dont_block: true });
  expect(res.status).toBe(200);
  // Events built from bytes (a subscription add's list) answer as the compact JSON of their values.
  expect(res.text).toBe(JSON.stringify(res.body));
  return res.body.events as SubscriptionEvent[];
}

describe('a subscribe of 1,000 channels for several users', () => {
  it('writes every subscription and tells each queue once about every channel', async () => {
    // The largest allowed: 1,000 channels (made beforehand, 100 new ones per request at most)
    // for five more users, 5,000 rows: more than one transaction's worth.
    const principalKeys = ['admin', 'moderator', 'emma', 'farid', 'guest'];
    const principals = principalKeys.map((key) => server.userIds[key]);
    const subscribers = [...principals, server.userIds.owner].sort();
    const names = Array.from({ length: 1000 }, (_, i) => `large ${i} ✓ é`);
    await createChannels('owner', names);
    const emma = server.client('emma');
    const plain = await emma.post('/register', { event_types: ['subscription'] });
    const nullable = await emma.post('/register', {
      event_types: ['subscription'],
      client_capabilities: { notification_settings_null: true },
    });
    // dev is not subscribed: a peer who already sees the channels and is told of their new subscribers.
    const peer = await server.client('dev').post('/register', {
      event_types: ['stream', 'subscription'],
    });

    const res = await server.client('owner').post('/users/me/subscriptions', {
      subscriptions: names.map((name) => ({ name })),
      principals,
    });

    expect(res.status).toBe(200);
    for (const id of principals) expect(res.body.subscribed[String(id)]).toHaveLength(1000);
    const own = (
      (await emma.get('/users/me/subscriptions', { include_subscribers: true })).body
        .subscriptions as Array<{
        stream_id: number;
        name: string;
        color: string;
        subscribers: number[];
      }>
    )
      .filter((sub) => sub.name.startsWith('large '))
      .sort((a, b) => a.stream_id - b.stream_id);
    expect(own).toHaveLength(1000);
    for (const sub of own) expect([...sub.subscribers].sort()).toEqual(subscribers);
    // Each new subscription takes the next colour of the palette (16 colours, then again).
    const colours = own.map((sub) => sub.color);
    expect(new Set(colours.slice(0, 16)).size).toBe(16);
    colours.forEach((colour, i) => expect(colour).toBe(colours[i % 16]));

    for (const [queue, nullSettings] of [
      [plain, false],
      [nullable, true],
    ] as const) {
      const adds = (await eventsOf('emma', queue.body.queue_id as string)).filter(
        (event) => event.type === 'subscription' && event.op === 'add',
      );
      expect(adds).toHaveLength(1);
      const subs = adds[0].subscriptions!;
      expect(subs.map((sub) => sub.name).sort()).toEqual([...names].sort());
      for (const sub of subs) {
        expect([...sub.subscribers].sort()).toEqual(subscribers);
        if (nullSettings) expect(sub.desktop_notifications).toBeNull();
        else expect(typeof sub.desktop_notifications).toBe('boolean');
      }
      if (!nullSettings) {
        // The event's objects (built as JSON text) are the ones GET /users/me/subscriptions gives.
        const sorted = (list: Array<{ stream_id: number; subscribers: number[] }>) =>
          [...list]
            .sort((a, b) => a.stream_id - b.stream_id)
            .map((sub) => ({ ...sub, subscribers: [...sub.subscribers].sort() }));
        expect(sorted(subs as never)).toEqual(sorted(own));
      }
    }

    const peerEvents = await eventsOf('dev', peer.body.queue_id as string);
    // The channels were public already: nothing new to announce to dev.
    expect(peerEvents.some((event) => event.type === 'stream' && event.op === 'create')).toBe(
      false,
    );
    const peerAdds = peerEvents.filter(
      (event) => event.type === 'subscription' && event.op === 'peer_add',
    );
    expect(peerAdds.flatMap((event) => event.stream_ids!)).toHaveLength(1000);
    for (const event of peerAdds)
      expect([...event.user_ids!].sort()).toEqual([...principals].sort());
    expect(peerEvents.some((event) => event.type === 'subscription' && event.op === 'add')).toBe(
      false,
    );
  });

  it('unsubscribes from 1,000 channels and tells the user and each peer about every one', async () => {
    const owner = server.client('owner');
    const names = Array.from({ length: 1000 }, (_, i) => `gone ${i}`);
    await createChannels('owner', names);
    const own = await owner.post('/register', { event_types: ['subscription'] });
    const peer = await server.client('dev').post('/register', { event_types: ['subscription'] });

    // In the body: 1,000 names do not fit in a URL.
    const res = await owner.raw('DELETE', '/users/me/subscriptions', {
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ subscriptions: JSON.stringify(names) }).toString(),
    });

    expect(res.status).toBe(200);
    expect(res.body.removed).toHaveLength(1000);
    const removes = (await eventsOf('owner', own.body.queue_id as string)).filter(
      (event) => event.op === 'remove',
    );
    expect(removes.flatMap((event) => event.subscriptions!.map((sub) => sub.name)).sort()).toEqual(
      [...names].sort(),
    );
    const peerRemoves = (await eventsOf('dev', peer.body.queue_id as string)).filter(
      (event) => event.op === 'peer_remove',
    );
    expect(peerRemoves.flatMap((event) => event.stream_ids!)).toHaveLength(1000);
    for (const event of peerRemoves) expect(event.user_ids).toEqual([server.userIds.owner]);
  });

  it('two at once naming the same new channels: one makes each, the other joins it', async () => {
    // 1,000 names each, of which the same 100 new: each request decides in several turns of the
    // loop, so one may make a channel the other has decided to make (no 500, no duplicate).
    const pool = Array.from({ length: 900 }, (_, i) => `raced ${i}`);
    await createChannels('owner', pool);
    const fresh = Array.from({ length: 100 }, (_, i) => `raced new ${i}`);
    const names = [...fresh, ...pool];
    const [a, b] = await Promise.all(
      ['dev', 'emma'].map((who) =>
        server.client(who).post('/users/me/subscriptions', {
          subscriptions: names.map((name) => ({ name })),
        }),
      ),
    );
    expect(a.status, a.text).toBe(200);
    expect(b.status, b.text).toBe(200);
    for (const [who, res] of [
      ['dev', a],
      ['emma', b],
    ] as const) {
      expect([...res.body.subscribed[String(server.userIds[who])]].sort()).toEqual(
        [...names].sort(),
      );
    }
    const rows = server.server.db
      .prepare(`SELECT name FROM channels WHERE name LIKE 'raced new %'`)
      .pluck()
      .all() as string[];
    expect(rows.sort()).toEqual([...fresh].sort());
  });

  it('an add event built in slices carries what changed while it was built', async () => {
    // The 1,000 subscription objects are built between other requests; a change of colour made
    // meanwhile (its update event goes out before the add) must be in the add event, or a client
    // applying the events in order would keep the colour it had before.
    const names = Array.from({ length: 1000 }, (_, i) => `sliced ${i}`);
    await createChannels('owner', names);
    const emma = server.client('emma');
    const queue = await emma.post('/register', { event_types: ['subscription'] });
    const target = names[names.length - 1];
    const streamId = (await emma.get('/get_stream_id', { stream: target })).body
      .stream_id as number;

    let done = false;
    const subscribe = server
      .client('owner')
      .post('/users/me/subscriptions', {
        subscriptions: names.map((name) => ({ name })),
        principals: [server.userIds.emma],
      })
      .finally(() => (done = true));
    // Several at once, so that some land between the slices that build the objects.
    let n = 0;
    let changes = 0;
    await Promise.all(
      Array.from({ length: 6 }, async () => {
        while (!done) {
          const value = `#${String(n++ % 1000).padStart(6, '0')}`;
          const res = await emma.post('/users/me/subscriptions/properties', {
            subscription_data: [{ stream_id: streamId, property: 'color', value }],
          });
          if (res.status === 200) changes += 1;
        }
      }),
    );
    expect((await subscribe).status).toBe(200);
    expect(changes).toBeGreaterThan(0);

    const events = (await eventsOf('emma', queue.body.queue_id as string)) as Array<
      SubscriptionEvent & { stream_id?: number; property?: string; value?: string }
    >;
    const addAt = events.findIndex((event) => event.op === 'add');
    const added = events[addAt].subscriptions!.find((sub) => sub.name === target) as unknown as {
      color: string;
    };
    let seen = added.color;
    for (const event of events.slice(addAt + 1)) {
      if (event.op === 'update' && event.stream_id === streamId && event.property === 'color') {
        seen = event.value!;
      }
    }
    const own = (await emma.get('/users/me/subscriptions')).body.subscriptions as Array<{
      name: string;
      color: string;
    }>;
    expect(seen).toBe(own.find((sub) => sub.name === target)!.color);
  });
});
