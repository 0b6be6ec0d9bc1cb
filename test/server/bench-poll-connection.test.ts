// bench:hostile's receivers read GET /events by hand (bench/support/http-load.ts, PollConnection):
// they search the answer's bytes for the events and the senders' marker instead of parsing it. If
// that reading drifted from what the server writes, the bench would acknowledge the wrong event
// or miss deliveries. Checked here against the same answer parsed as JSON, with channel and
// subscription events (nested objects) between the messages.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PollConnection } from '../../bench/support/http-load';
import { startTestServer, type TestServer } from '../support/server';

const MARKER = Buffer.from('"content":"lat ');

describe("the hostile bench's hand-read polls", () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({ seed: 'demo' });
  });
  afterAll(() => server.close());

  it('finds every event, the newest id and the marked messages, as parsing the answer does', async () => {
    const emma = server.client('emma');
    const dev = server.client('dev');
    // Every event type, raw contents: as the bench registers.
    const reg = await emma.post('/register', { apply_markdown: false });
    expect(reg.status).toBe(200);
    const queueId = reg.body.queue_id as string;
    const created = await server.client('owner').post('/users/me/subscriptions', {
      subscriptions: [{ name: 'poll bench' }, { name: 'poll bench 2' }],
      principals: [server.userIds.emma, server.userIds.dev],
    });
    expect(created.status).toBe(200);
    for (const content of ['lat 7', 'not lat 8', 'lat 12 and more', 'lat 31']) {
      const sent = await dev.post('/messages', {
        type: 'stream',
        to: 'poll bench',
        topic: 'latency',
        content,
      });
      expect(sent.status).toBe(200);
    }
    const parsed = await emma.get('/events', {
      queue_id: queueId,
      last_event_id: -1,
      dont_block: true,
    });
    const events = parsed.body.events as Array<{ id: number; type: string }>;
    expect(events.filter((e) => e.type !== 'message').length).toBeGreaterThan(0);

    const connection = new PollConnection(new URL(server.url));
    const poll = await connection.poll(emma.authHeader!, queueId, -1, MARKER);
    expect(poll.status).toBe(200);
    expect(poll.events).toBe(events.length);
    expect(poll.lastEventId).toBe(events.at(-1)!.id);
    // Only contents that are the marker and a number.
    expect(poll.marked).toEqual([7, 31]);

    // The next poll on the same socket waits for the next event and acknowledges the rest.
    const waiting = connection.poll(emma.authHeader!, queueId, poll.lastEventId, MARKER);
    await dev.post('/messages', {
      type: 'stream',
      to: 'poll bench',
      topic: 't',
      content: 'lat 40',
    });
    const next = await waiting;
    expect(next.marked).toEqual([40]);
    expect(next.events).toBe(1);
    expect(next.lastEventId).toBe(poll.lastEventId + 1);

    // An error answer (an unknown queue) fails nothing: its status comes back, the socket stays.
    const gone = await connection.poll(emma.authHeader!, 'no-such-queue', 0, MARKER);
    expect(gone.status).toBe(400);
    connection.close();
  });
});
