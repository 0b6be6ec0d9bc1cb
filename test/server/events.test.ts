// Event queues over HTTP: delivery to the right users, acknowledgement and pruning errors,
// heartbeats and expiry (short configured timings), BAD_EVENT_QUEUE_ID, DELETE /events.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../support/server';
import { registerQueue } from '../support/events';

let server: TestServer;

beforeAll(async () => {
  server = await startTestServer();
});
afterAll(async () => {
  await server.close();
});

describe('GET /events', () => {
  it('delivers an event to every queue of the affected user and to nobody else', async () => {
    const dev = server.client('dev');
    const devA = await registerQueue(dev, { event_types: ['user_topic'] });
    const devB = await registerQueue(dev, { event_types: ['user_topic'] });
    const emma = await registerQueue(server.client('emma'), { event_types: ['user_topic'] });
    const general = await generalId();
    const res = await dev.post('/user_topics', {
      stream_id: general,
      topic: 'lunch',
      visibility_policy: 1,
    });
    expect(res.status).toBe(200);
    const [a] = await devA.next();
    const [b] = await devB.next();
    expect(a).toMatchObject({
      type: 'user_topic',
      stream_id: general,
      topic_name: 'lunch',
      visibility_policy: 1,
    });
    expect(b).toMatchObject({ type: 'user_topic', topic_name: 'lunch' });
    expect(await emma.poll()).toEqual([]);
  });

  it('filters by event_types', async () => {
    const dev = server.client('dev');
    const onlyStatus = await registerQueue(dev, { event_types: ['user_status'] });
    await dev.post('/user_topics', {
      stream_id: await generalId(),
      topic: 'filtered',
      visibility_policy: 1,
    });
    await dev.post('/users/me/status', { status_text: 'busy' });
    const events = await onlyStatus.next();
    expect(events.map((e) => e.type)).toEqual(['user_status']);
  });

  it('wakes a blocked poll when an event arrives', async () => {
    const dev = server.client('dev');
    const q = await registerQueue(dev, { event_types: ['user_status'] });
    const pending = q.next();
    await server.client('emma').post('/users/me/status', { status_text: 'in a meeting' });
    const events = await pending;
    expect(events[0]).toMatchObject({
      type: 'user_status',
      user_id: server.users.emma.user_id,
      status_text: 'in a meeting',
    });
  });

  it('redelivers unacknowledged events and prunes acknowledged ones', async () => {
    const dev = server.client('dev');
    const q = await registerQueue(dev, { event_types: ['user_status'] });
    await dev.post('/users/me/status', { status_text: 'one' });
    await dev.post('/users/me/status', { status_text: 'two' });
    const first = await dev.get('/events', {
      queue_id: q.queueId,
      last_event_id: -1,
      dont_block: true,
    });
    expect(first.body.events.map((e: { status_text: string }) => e.status_text)).toEqual([
      'one',
      'two',
    ]);
    const ids = first.body.events.map((e: { id: number }) => e.id);
    expect(ids[1]).toBeGreaterThan(ids[0]);
    // Acknowledge only the first: the second comes again.
    const again = await dev.get('/events', {
      queue_id: q.queueId,
      last_event_id: ids[0],
      dont_block: true,
    });
    expect(again.body.events.map((e: { id: number }) => e.id)).toEqual([ids[1]]);
    const done = await dev.get('/events', {
      queue_id: q.queueId,
      last_event_id: ids[1],
      dont_block: true,
    });
    expect(done.body.events).toEqual([]);
    // Going back before a pruned event is an error.
    const stale = await dev.get('/events', {
      queue_id: q.queueId,
      last_event_id: ids[0],
      dont_block: true,
    });
    expect(stale.status).toBe(400);
    expect(stale.body).toMatchObject({
      code: 'BAD_REQUEST',
      msg: `An event newer than ${ids[0]} has already been pruned!`,
    });
    // Acknowledging an id the queue never had is an error too.
    const future = await dev.get('/events', {
      queue_id: q.queueId,
      last_event_id: ids[1] + 5,
      dont_block: true,
    });
    expect(future.status).toBe(400);
    expect(future.body.msg).toBe(`Event ${ids[1] + 5} was not in this queue`);
  });

  it('sends a heartbeat after the configured quiet interval', async () => {
    const quick = await startTestServer({ heartbeatMs: 100 });
    try {
      const q = await registerQueue(quick.client('dev'), { event_types: ['user_status'] });
      const events = await q.next();
      expect(events).toHaveLength(1);
      expect(events[0]).toMatchObject({ type: 'heartbeat' });
      expect(events[0].id).toBe(q.state.last_event_id + 1);
      // The heartbeat is acknowledged like any event.
      expect(await q.poll()).toEqual([]);
    } finally {
      await quick.close();
    }
  });

  it('answers BAD_EVENT_QUEUE_ID for unknown and foreign queues', async () => {
    const unknown = await server
      .client('dev')
      .get('/events', { queue_id: 'nope', last_event_id: -1 });
    expect(unknown.status).toBe(400);
    expect(unknown.body).toMatchObject({ code: 'BAD_EVENT_QUEUE_ID', queue_id: 'nope' });
    const devQueue = await registerQueue(server.client('dev'));
    const foreign = await server.client('emma').get('/events', {
      queue_id: devQueue.queueId,
      last_event_id: -1,
      dont_block: true,
    });
    expect(foreign.status).toBe(400);
    expect(foreign.body).toMatchObject({ code: 'BAD_EVENT_QUEUE_ID', queue_id: devQueue.queueId });
  });

  it('refuses a poll whose last_event_id or dont_block is not a plain integer or boolean', async () => {
    const dev = server.client('dev');
    const q = await registerQueue(dev);
    // Values the parameters' quick check passes on to their schema, which refuses them.
    for (const [name, value] of [
      ['last_event_id', '1.5'],
      ['last_event_id', String(2 ** 53 + 2)],
      ['last_event_id', '"3"'],
      ['last_event_id', 'true'],
      ['dont_block', '1'],
      ['dont_block', '"true"'],
    ]) {
      const res = await dev.get('/events', {
        queue_id: q.queueId,
        last_event_id: -1,
        dont_block: true,
        [name]: value,
      });
      expect(res.status, `${name}=${value}`).toBe(400);
      expect(res.body.msg).toMatch(new RegExp(`^Invalid ${name}`));
    }
    const fine = await dev.get('/events', {
      queue_id: q.queueId,
      last_event_id: '-1',
      dont_block: 'true',
    });
    expect(fine.status).toBe(200);
  });

  it('requires last_event_id with a queue_id, and queue_id when blocking', async () => {
    const q = await registerQueue(server.client('dev'));
    const noLast = await server.client('dev').get('/events', { queue_id: q.queueId });
    expect(noLast.status).toBe(400);
    expect(noLast.body).toMatchObject({
      code: 'REQUEST_VARIABLE_MISSING',
      var_name: 'last_event_id',
    });
    const noQueue = await server.client('dev').get('/events', {});
    expect(noQueue.body).toMatchObject({ code: 'REQUEST_VARIABLE_MISSING', var_name: 'queue_id' });
  });

  it('registers a queue from GET /events without queue_id when dont_block is set', async () => {
    const dev = server.client('dev');
    const res = await dev.get('/events', { dont_block: true, event_types: ['user_status'] });
    expect(res.status).toBe(200);
    expect(res.body.events).toEqual([]);
    await dev.post('/users/me/status', { status_text: 'implicit' });
    const next = await dev.get('/events', { queue_id: res.body.queue_id, last_event_id: -1 });
    expect(next.body.events[0]).toMatchObject({ type: 'user_status', status_text: 'implicit' });
  });
});

describe('the poll answer as bytes', () => {
  it('is the compact JSON of its envelope, non-ASCII text and several events included', async () => {
    const dev = server.client('dev');
    const emma = server.client('emma');
    // Two users' queues get the same events: their bytes are encoded once and shared.
    const devQueue = await registerQueue(dev, { event_types: ['user_status'] });
    const emmaQueue = await registerQueue(emma, { event_types: ['user_status'] });
    const texts = ['café ☕ 𝄞 "quoted" \\ \u2028 end', 'ünïcödé <b>&amp;</b>'];
    for (const status_text of texts) {
      expect((await dev.post('/users/me/status', { status_text })).status).toBe(200);
    }
    for (const [client, queue] of [
      [dev, devQueue],
      [emma, emmaQueue],
    ] as const) {
      const res = await client.get('/events', {
        queue_id: queue.queueId,
        last_event_id: queue.lastEventId,
        dont_block: true,
      });
      expect(res.status).toBe(200);
      expect(res.headers['content-type']).toBe('application/json; charset=utf-8');
      expect(Number(res.headers['content-length'])).toBe(Buffer.byteLength(res.text));
      expect(res.text).toBe(JSON.stringify(res.body));
      expect(Object.keys(res.body)).toEqual(['result', 'msg', 'events', 'queue_id']);
      expect(res.body.queue_id).toBe(queue.queueId);
      const events = res.body.events as Array<Record<string, unknown>>;
      expect(events.map((e) => e.status_text)).toEqual(texts);
      expect(events.map((e) => e.id)).toEqual([queue.lastEventId + 1, queue.lastEventId + 2]);
      expect(Object.keys(events[0])[0]).toBe('id');
    }
  });

  it('carries ids of several digits, ignored parameters and an empty list as compact JSON', async () => {
    const dev = server.client('dev');
    const queue = await registerQueue(dev, { event_types: ['user_status'] });
    const empty = await dev.get('/events', {
      queue_id: queue.queueId,
      last_event_id: queue.lastEventId,
      dont_block: true,
      not_a_parameter: 'x',
    });
    expect(empty.text).toBe(JSON.stringify(empty.body));
    expect(Number(empty.headers['content-length'])).toBe(Buffer.byteLength(empty.text));
    expect(empty.body).toMatchObject({
      events: [],
      ignored_parameters_unsupported: ['not_a_parameter'],
    });
    // Twelve events: ids from one digit to two (0 to 11 on a new queue).
    for (let i = 0; i < 12; i++) {
      const res = await dev.post('/users/me/status', { status_text: `näive ${i}` });
      expect(res.status).toBe(200);
    }
    const res = await dev.get('/events', {
      queue_id: queue.queueId,
      last_event_id: queue.lastEventId,
      dont_block: true,
      zz_unknown: 1,
    });
    expect(res.status).toBe(200);
    expect(Number(res.headers['content-length'])).toBe(Buffer.byteLength(res.text));
    expect(res.text).toBe(JSON.stringify(res.body));
    expect(Object.keys(res.body)).toEqual([
      'result',
      'msg',
      'events',
      'queue_id',
      'ignored_parameters_unsupported',
    ]);
    const events = res.body.events as Array<Record<string, unknown>>;
    expect(events.map((e) => e.id)).toEqual(
      Array.from({ length: 12 }, (_, i) => queue.lastEventId + 1 + i),
    );
    expect(events.map((e) => e.status_text)).toEqual(
      Array.from({ length: 12 }, (_, i) => `näive ${i}`),
    );
  });
});

describe('register narrow', () => {
  it('delivers only the message events matching the narrow given at registration', async () => {
    const dev = server.client('dev');
    const design = await registerQueue(dev, {
      event_types: ['message'],
      narrow: [['channel', 'design']],
    });
    const dms = await registerQueue(dev, {
      event_types: ['message'],
      narrow: [{ operator: 'is', operand: 'dm' }],
    });
    const all = await registerQueue(dev, { event_types: ['message'] });
    const emma = server.client('emma');
    const inGeneral = await emma.post('/messages', {
      type: 'stream',
      to: 'general',
      topic: 'narrow',
      content: 'g',
    });
    const inDesign = await emma.post('/messages', {
      type: 'stream',
      to: 'design',
      topic: 'narrow',
      content: 'd',
    });
    const direct = await emma.post('/messages', {
      type: 'direct',
      to: [server.users.dev.user_id],
      content: 'dm',
    });
    for (const res of [inGeneral, inDesign, direct]) expect(res.status).toBe(200);
    const ids = async (q: Awaited<ReturnType<typeof registerQueue>>) => {
      const seen: number[] = [];
      while (seen.length === 0 || !seen.includes(direct.body.id)) {
        const events = await q.poll();
        if (events.length === 0) break;
        seen.push(...events.map((e) => e.message.id as number));
      }
      return seen;
    };
    // The unfiltered queue proves all three were delivered before we look at the filtered ones.
    await all.waitFor((e) => e.message?.id === direct.body.id);
    expect(await ids(design)).toEqual([inDesign.body.id]);
    expect(await ids(dms)).toEqual([direct.body.id]);
  });
});

describe('batching busy queues', () => {
  it('answers a quiet queue at once and a busy one with its next events together', async () => {
    const batching = await startTestServer({ pollCoalesceMs: 2000 });
    try {
      const dev = batching.client('dev');
      const q = await registerQueue(dev, { event_types: ['user_status'] });
      await dev.post('/users/me/status', { status_text: 'first' });
      expect((await q.next()).map((e) => e.status_text)).toEqual(['first']);
      // Quiet (the last response carried one event): the next event is answered alone, at once,
      // before the following send.
      const quiet = q.next();
      await dev.post('/users/me/status', { status_text: 'second' });
      await dev.post('/users/me/status', { status_text: 'third' });
      expect((await quiet).map((e) => e.status_text)).toEqual(['second']);
      // That left 'third' pending: a response of two events makes the queue busy...
      await dev.post('/users/me/status', { status_text: 'fourth' });
      expect((await q.next()).map((e) => e.status_text)).toEqual(['third', 'fourth']);
      // ...so within the interval after it, new events are held and sent together.
      const busy = q.next();
      await dev.post('/users/me/status', { status_text: 'fifth' });
      await dev.post('/users/me/status', { status_text: 'sixth' });
      expect((await busy).map((e) => e.status_text)).toEqual(['fifth', 'sixth']);
    } finally {
      await batching.close();
    }
  });
});

describe('abandoned polls', () => {
  it('keeps events for the next poll when a client drops its long-poll', async () => {
    const dev = server.client('dev');
    const q = await registerQueue(dev, { event_types: ['user_status'] });
    const controller = new AbortController();
    const dropped = dev
      .get('/events', { queue_id: q.queueId, last_event_id: -1 }, { signal: controller.signal })
      .catch((error: Error) => error.name);
    await new Promise((resolve) => setTimeout(resolve, 50));
    controller.abort();
    expect(await dropped).toBe('AbortError');
    await dev.post('/users/me/status', { status_text: 'after the drop' });
    const events = await q.next();
    expect(events[0]).toMatchObject({ type: 'user_status', status_text: 'after the drop' });
  });

  it('lets a queue whose poll was dropped expire', async () => {
    const short = await startTestServer({ queueIdleTimeoutMs: 200, queueGcIntervalMs: 50 });
    try {
      const dev = short.client('dev');
      const q = await registerQueue(dev);
      const controller = new AbortController();
      const dropped = dev
        .get('/events', { queue_id: q.queueId, last_event_id: -1 }, { signal: controller.signal })
        .catch(() => null);
      await new Promise((resolve) => setTimeout(resolve, 50));
      controller.abort();
      await dropped;
      await new Promise((resolve) => setTimeout(resolve, 500));
      const gone = await dev.get('/events', {
        queue_id: q.queueId,
        last_event_id: -1,
        dont_block: true,
      });
      expect(gone.body.code).toBe('BAD_EVENT_QUEUE_ID');
    } finally {
      await short.close();
    }
  });
});

describe('DELETE /events', () => {
  it('deletes the queue; a second delete or poll gives BAD_EVENT_QUEUE_ID', async () => {
    const dev = server.client('dev');
    const q = await registerQueue(dev);
    expect((await dev.delete('/events', { queue_id: q.queueId })).status).toBe(200);
    const again = await dev.delete('/events', { queue_id: q.queueId });
    expect(again.status).toBe(400);
    expect(again.body.code).toBe('BAD_EVENT_QUEUE_ID');
    const poll = await dev.get('/events', {
      queue_id: q.queueId,
      last_event_id: -1,
      dont_block: true,
    });
    expect(poll.body.code).toBe('BAD_EVENT_QUEUE_ID');
  });

  it('cannot delete another user queue', async () => {
    const q = await registerQueue(server.client('dev'));
    const res = await server.client('emma').delete('/events', { queue_id: q.queueId });
    expect(res.status).toBe(400);
    expect(res.body.code).toBe('BAD_EVENT_QUEUE_ID');
  });
});

describe('queue expiry', () => {
  it('drops a queue left idle longer than the configured timeout', async () => {
    const short = await startTestServer({ queueIdleTimeoutMs: 200, queueGcIntervalMs: 50 });
    try {
      const dev = short.client('dev');
      const idle = await registerQueue(dev);
      const kept = await registerQueue(dev, { event_types: ['user_status'] });
      // A pending long-poll keeps its queue alive however long it waits.
      const polling = dev.get('/events', { queue_id: kept.queueId, last_event_id: -1 });
      await new Promise((resolve) => setTimeout(resolve, 600));
      await dev.post('/users/me/status', { status_text: 'still here' });
      const res = await polling;
      expect(res.body.events[0]).toMatchObject({ type: 'user_status' });
      const gone = await dev.get('/events', {
        queue_id: idle.queueId,
        last_event_id: -1,
        dont_block: true,
      });
      expect(gone.status).toBe(400);
      expect(gone.body.code).toBe('BAD_EVENT_QUEUE_ID');
    } finally {
      await short.close();
    }
  });
});

async function generalId(): Promise<number> {
  const res = await server.client('dev').get('/get_stream_id', { stream: 'general' });
  return res.body.stream_id as number;
}
