// POST /typing (direct and channel) and POST /user_topics.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../support/server';
import { registerQueue } from '../support/events';

let server: TestServer;
let general: number;
let design: number;

beforeAll(async () => {
  server = await startTestServer();
  general = (await server.client('dev').get('/get_stream_id', { stream: 'general' })).body
    .stream_id;
  design = (await server.client('dev').get('/get_stream_id', { stream: 'design' })).body.stream_id;
});
afterAll(async () => {
  await server.close();
});

describe('POST /typing', () => {
  it('sends direct typing events to the recipients and the sender only', async () => {
    const emma = await registerQueue(server.client('emma'), { event_types: ['typing'] });
    const dev = await registerQueue(server.client('dev'), { event_types: ['typing'] });
    const farid = await registerQueue(server.client('farid'), { event_types: ['typing'] });
    const res = await server
      .client('dev')
      .post('/typing', { op: 'start', to: [server.users.emma.user_id] });
    expect(res.status).toBe(200);
    const [event] = await emma.next();
    expect(event).toMatchObject({
      type: 'typing',
      op: 'start',
      message_type: 'direct',
      sender: { user_id: server.users.dev.user_id, email: 'dev@tributary.local' },
    });
    expect(event.recipients.map((r: { user_id: number }) => r.user_id).sort()).toEqual(
      [server.users.dev.user_id, server.users.emma.user_id].sort(),
    );
    expect((await dev.next())[0]).toMatchObject({ op: 'start' });
    expect(await farid.poll()).toEqual([]);
  });

  it('sends channel typing only to subscribers with stream_typing_notifications', async () => {
    const capable = await registerQueue(server.client('emma'), {
      event_types: ['typing'],
      client_capabilities: { stream_typing_notifications: true },
    });
    const legacy = await registerQueue(server.client('emma'), { event_types: ['typing'] });
    const outsider = await registerQueue(server.client('moderator'), {
      event_types: ['typing'],
      client_capabilities: { stream_typing_notifications: true },
    });
    const res = await server
      .client('dev')
      .post('/typing', { type: 'channel', op: 'stop', stream_id: design, topic: 'logo' });
    expect(res.status).toBe(200);
    const [event] = await capable.next();
    expect(event).toMatchObject({
      type: 'typing',
      op: 'stop',
      message_type: 'stream',
      stream_id: design,
      topic: 'logo',
    });
    expect(event).not.toHaveProperty('recipients');
    expect(await legacy.poll()).toEqual([]);
    // The moderator is not subscribed to design.
    expect(await outsider.poll()).toEqual([]);
  });

  it('rejects bad typing requests', async () => {
    const dev = server.client('dev');
    expect((await dev.post('/typing', { to: [server.users.emma.user_id] })).body).toMatchObject({
      code: 'REQUEST_VARIABLE_MISSING',
      var_name: 'op',
    });
    expect((await dev.post('/typing', { op: 'start' })).status).toBe(400);
    expect((await dev.post('/typing', { op: 'start', to: [123456] })).status).toBe(400);
    expect(
      (await dev.post('/typing', { op: 'jump', to: [server.users.emma.user_id] })).body.code,
    ).toBe('REQUEST_VARIABLE_INVALID');
    expect(
      (await dev.post('/typing', { type: 'stream', op: 'start', stream_id: general })).status,
    ).toBe(400);
    const leadership = (
      await server.client('admin').get('/get_stream_id', { stream: 'leadership' })
    ).body.stream_id;
    const hidden = await dev.post('/typing', {
      type: 'stream',
      op: 'start',
      stream_id: leadership,
      topic: 'x',
    });
    expect(hidden.status).toBe(400);
  });
});

describe('POST /user_topics', () => {
  type UserTopic = { stream_id: number; topic_name: string; visibility_policy: number };
  const topicsOf = async (who: 'dev' | 'emma') =>
    (await server.client(who).post('/register', { fetch_event_types: ['user_topic'] })).body
      .user_topics as UserTopic[];
  const lunch = async (who: 'dev' | 'emma' = 'dev') =>
    (await topicsOf(who)).filter(
      (t) => t.stream_id === general && t.topic_name.toLowerCase() === 'lunch',
    );

  it('stores a visibility policy per user, emits user_topic, and clears with 0', async () => {
    const dev = server.client('dev');
    const q = await registerQueue(dev, { event_types: ['user_topic'] });
    const res = await dev.post('/user_topics', {
      stream_id: general,
      topic: 'Lunch',
      visibility_policy: 3,
    });
    expect(res.status).toBe(200);
    const [followed] = await q.next();
    expect(followed).toMatchObject({
      type: 'user_topic',
      stream_id: general,
      topic_name: 'Lunch',
      visibility_policy: 3,
    });
    expect(followed.last_updated).toEqual(expect.any(Number));
    expect(await lunch()).toEqual([
      expect.objectContaining({ topic_name: 'Lunch', visibility_policy: 3 }),
    ]);
    // Other users are unaffected.
    expect(await lunch('emma')).toEqual([]);
    // Topic names are case-insensitive: this replaces the same row.
    await dev.post('/user_topics', { stream_id: general, topic: 'lunch', visibility_policy: 1 });
    const replaced = await lunch();
    expect(replaced).toHaveLength(1);
    expect(replaced[0].visibility_policy).toBe(1);
    await dev.post('/user_topics', { stream_id: general, topic: 'Lunch', visibility_policy: 0 });
    expect(await lunch()).toEqual([]);
    const [cleared] = await q.waitFor((e) => e.visibility_policy === 0).then((e) => [e]);
    expect(cleared).toMatchObject({ topic_name: 'Lunch', visibility_policy: 0 });
  });

  it('rejects bad policies, channels and topics, changing nothing', async () => {
    const dev = server.client('dev');
    const before = await topicsOf('dev');
    const bad = await dev.post('/user_topics', {
      stream_id: general,
      topic: 'x',
      visibility_policy: 7,
    });
    expect(bad.body.code).toBe('REQUEST_VARIABLE_INVALID');
    const noChannel = await dev.post('/user_topics', {
      stream_id: 99999,
      topic: 'x',
      visibility_policy: 1,
    });
    expect(noChannel.status).toBe(400);
    const leadership = (
      await server.client('admin').get('/get_stream_id', { stream: 'leadership' })
    ).body.stream_id;
    const hidden = await dev.post('/user_topics', {
      stream_id: leadership,
      topic: 'x',
      visibility_policy: 1,
    });
    expect(hidden.status).toBe(400);
    const long = await dev.post('/user_topics', {
      stream_id: general,
      topic: 'x'.repeat(61),
      visibility_policy: 1,
    });
    expect(long.status).toBe(400);
    expect(await topicsOf('dev')).toEqual(before);
  });
});
