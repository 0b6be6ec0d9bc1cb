// Gaining or losing sight of an existing channel through a subscription change is announced as a
// `stream` create / delete to that user (a member added to a private channel, a guest to a public
// one), as the public server does; users who keep seeing the channel get only subscription events.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../support/server';
import { registerQueue, type TestEvent } from '../support/events';

let server: TestServer;

beforeAll(async () => {
  server = await startTestServer({ seed: 'demo' });
});
afterAll(async () => {
  await server.close();
});

const eventTypes = { event_types: ['stream', 'subscription'] };
const streamEvents = (events: TestEvent[]) => events.filter((e) => e.type === 'stream');

async function channelId(name: string): Promise<number> {
  return (await server.client('owner').get('/get_stream_id', { stream: name })).body
    .stream_id as number;
}

/** Waits for the subscription event matching `op`, returning every event up to and including it. */
async function eventsThrough(q: Awaited<ReturnType<typeof registerQueue>>, op: string) {
  const seen: TestEvent[] = [];
  for (let i = 0; i < 10; i++) {
    seen.push(...(await q.next()));
    if (seen.some((e) => e.type === 'subscription' && e.op === op)) return seen;
  }
  throw new Error(`no subscription ${op} event`);
}

describe('stream create and delete on access changes', () => {
  it('reveals a private channel to a member added to it, and hides it when removed', async () => {
    const leadership = await channelId('leadership');
    const dev = server.client('dev');
    const q = await registerQueue(dev, eventTypes);
    expect(q.state.streams ?? []).not.toContainEqual(
      expect.objectContaining({ stream_id: leadership }),
    );

    const added = await server.client('admin').post('/users/me/subscriptions', {
      subscriptions: [{ name: 'leadership' }],
      principals: [server.users.dev.user_id],
    });
    expect(added.status, added.text).toBe(200);
    const onAdd = await eventsThrough(q, 'add');
    const create = onAdd.findIndex((e) => e.type === 'stream' && e.op === 'create');
    const subscriptionAdd = onAdd.findIndex((e) => e.type === 'subscription' && e.op === 'add');
    expect(create).toBeGreaterThanOrEqual(0);
    expect(create).toBeLessThan(subscriptionAdd);
    expect(onAdd[create].streams).toEqual([
      expect.objectContaining({ stream_id: leadership, name: 'leadership', invite_only: true }),
    ]);
    expect(onAdd[create].streams[0]).not.toHaveProperty('subscribers');

    const removed = await server.client('admin').delete('/users/me/subscriptions', {
      subscriptions: ['leadership'],
      principals: [server.users.dev.user_id],
    });
    expect(removed.body.removed).toEqual(['leadership']);
    const onRemove = await eventsThrough(q, 'remove');
    const pending = [...onRemove, ...(await q.poll())];
    expect(streamEvents(pending)).toEqual([
      expect.objectContaining({
        op: 'delete',
        stream_ids: [leadership],
        streams: [{ stream_id: leadership }],
      }),
    ]);
  });

  it('reveals a public channel to a guest added to it, and hides it when the guest leaves', async () => {
    const random = await channelId('random');
    const guest = server.client('guest');
    const q = await registerQueue(guest, eventTypes);
    expect(q.state.streams ?? []).not.toContainEqual(
      expect.objectContaining({ stream_id: random }),
    );

    await server.client('admin').post('/users/me/subscriptions', {
      subscriptions: [{ name: 'random' }],
      principals: [server.users.guest.user_id],
    });
    const onAdd = await eventsThrough(q, 'add');
    expect(streamEvents(onAdd)).toEqual([
      expect.objectContaining({
        op: 'create',
        streams: [expect.objectContaining({ stream_id: random })],
      }),
    ]);

    expect(
      (await guest.delete('/users/me/subscriptions', { subscriptions: ['random'] })).status,
    ).toBe(200);
    const onRemove = [...(await eventsThrough(q, 'remove')), ...(await q.poll())];
    expect(streamEvents(onRemove)).toEqual([
      expect.objectContaining({ op: 'delete', stream_ids: [random] }),
    ]);
  });

  it('sends no stream event to users who keep seeing the channel', async () => {
    const design = await channelId('design');
    const farid = server.client('farid');
    const q = await registerQueue(farid, eventTypes);
    // A member leaving and rejoining a public channel still sees it throughout.
    expect(
      (await farid.delete('/users/me/subscriptions', { subscriptions: ['design'] })).status,
    ).toBe(200);
    expect(
      (await farid.post('/users/me/subscriptions', { subscriptions: [{ name: 'design' }] })).status,
    ).toBe(200);
    const events = [...(await eventsThrough(q, 'add')), ...(await q.poll())];
    expect(events).toContainEqual(
      expect.objectContaining({
        type: 'subscription',
        op: 'add',
        subscriptions: [expect.objectContaining({ stream_id: design })],
      }),
    );
    expect(streamEvents(events)).toEqual([]);

    // An administrator leaving a private channel still administers it, so it stays visible.
    const admin = server.client('admin');
    const adminQueue = await registerQueue(admin, eventTypes);
    await admin.delete('/users/me/subscriptions', { subscriptions: ['leadership'] });
    const adminEvents = [
      ...(await eventsThrough(adminQueue, 'remove')),
      ...(await adminQueue.poll()),
    ];
    expect(streamEvents(adminEvents)).toEqual([]);
  });
});
