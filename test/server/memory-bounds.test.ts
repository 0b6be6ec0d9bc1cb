// The event queues' memory bounds (server/config.ts EventQueueBounds), seen over HTTP as a client
// sees them: a queue dropped for holding too much answers BAD_EVENT_QUEUE_ID, as an expired queue
// does, and the client registers again; queues that keep up are never touched.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../support/server';
import { registerQueue, type TestQueue } from '../support/events';
import type { ApiClient } from '../support/client';

let server: TestServer;

beforeAll(async () => {
  server = await startTestServer({
    queueBounds: {
      maxPendingBytes: 20_000,
      maxPendingBytesTotal: 24_000,
      maxQueuesPerUser: 3,
      maxQueues: 1000,
    },
  });
});
afterAll(async () => {
  await server.close();
});

/** A direct message to dev and emma of about `chars` characters. */
async function sendToDevAndEmma(chars: number, tag: string): Promise<void> {
  const res = await server.client('owner').post('/messages', {
    type: 'direct',
    to: [server.userIds.dev, server.userIds.emma],
    content: `${tag} ${'x'.repeat(chars)}`,
  });
  expect(res.status).toBe(200);
}

async function expectDropped(client: ApiClient, queue: TestQueue): Promise<void> {
  const res = await client.get('/events', {
    queue_id: queue.queueId,
    last_event_id: queue.lastEventId,
    dont_block: true,
  });
  expect(res.status).toBe(400);
  expect(res.body).toMatchObject({ code: 'BAD_EVENT_QUEUE_ID', queue_id: queue.queueId });
}

async function messageTags(queue: TestQueue): Promise<string[]> {
  const events = await queue.poll();
  return events
    .filter((event) => event.type === 'message')
    .map(
      (event) =>
        String(event.message.content)
          .replace(/<[^>]*>/g, '')
          .split(' ')[0],
    );
}

describe('event queue bounds', () => {
  it('drops a queue that holds more than its byte bound; a queue that polls keeps up', async () => {
    const dev = server.client('dev');
    const stalled = await registerQueue(dev, { event_types: ['message'] });
    const polling = await registerQueue(dev, { event_types: ['message'] });
    const seen: string[] = [];
    // Each message event is about 4.4 KB: the fifth takes the unpolled queue past 20,000 bytes.
    for (let i = 0; i < 6; i++) {
      await sendToDevAndEmma(2000, `bound${i}`);
      seen.push(...(await messageTags(polling)));
    }
    await expectDropped(dev, stalled);
    expect(seen).toEqual(['bound0', 'bound1', 'bound2', 'bound3', 'bound4', 'bound5']);
    // The client's answer to BAD_EVENT_QUEUE_ID: register again and carry on.
    const again = await registerQueue(dev, { event_types: ['message'] });
    await sendToDevAndEmma(10, 'after');
    expect(await messageTags(again)).toEqual(['after']);
    await dev.delete('/events', { queue_id: polling.queueId });
    await dev.delete('/events', { queue_id: again.queueId });
  });

  it('past the total bound drops the queue furthest behind and keeps the others', async () => {
    const dev = server.client('dev');
    const emma = server.client('emma');
    const behind = await registerQueue(dev, { event_types: ['message'] });
    await sendToDevAndEmma(2000, 'early0');
    await sendToDevAndEmma(2000, 'early1');
    const recent = await registerQueue(emma, { event_types: ['message'] });
    // The second late message takes the two past 24,000 bytes, each still under its own 20,000.
    // (dev's queue ends at 17.6 KB: only the total can have dropped it).
    for (let i = 0; i < 2; i++) await sendToDevAndEmma(2000, `late${i}`);
    await expectDropped(dev, behind);
    expect(await messageTags(recent)).toEqual(['late0', 'late1']);
    await emma.delete('/events', { queue_id: recent.queueId });
  });

  it("past a user's queue bound drops that user's least recently polled queue", async () => {
    const emma = server.client('emma');
    const first = await registerQueue(emma, { event_types: ['message'] });
    const second = await registerQueue(emma, { event_types: ['message'] });
    const third = await registerQueue(emma, { event_types: ['message'] });
    await second.poll();
    await third.poll();
    const fourth = await registerQueue(emma, { event_types: ['message'] });
    await expectDropped(emma, first);
    await sendToDevAndEmma(10, 'kept');
    for (const queue of [second, third, fourth]) expect(await messageTags(queue)).toEqual(['kept']);
    // Another user's queues are not theirs to count.
    const dev = await registerQueue(server.client('dev'), { event_types: ['message'] });
    expect(await dev.poll()).toEqual([]);
  });
});

describe('memory given back when idle', () => {
  it('releases once after a burst of requests, then not again until the next burst', async () => {
    const quiet = await startTestServer({ idleReleaseMs: 100 });
    try {
      const release = quiet.server.idleRelease!;
      const releases = release.releases;
      const dev = quiet.client('dev');
      for (let i = 0; i < 5; i++) expect((await dev.get('/users/me')).status).toBe(200);
      await until(() => release.releases > releases);
      const afterBurst = release.releases;
      await new Promise((resolve) => setTimeout(resolve, 500));
      expect(release.releases).toBe(afterBurst);
      // The page cache it emptied is refilled on demand: reads still answer.
      const res = await dev.get('/messages', { anchor: 'newest', num_before: 5, num_after: 0 });
      expect(res.status).toBe(200);
      expect((res.body.messages as unknown[]).length).toBeGreaterThan(0);
      await until(() => release.releases > afterBurst);
    } finally {
      await quiet.close();
    }
  });
});

async function until(condition: () => boolean): Promise<void> {
  for (let i = 0; i < 200 && !condition(); i++) {
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  expect(condition()).toBe(true);
}
