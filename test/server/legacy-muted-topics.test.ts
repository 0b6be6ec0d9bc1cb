// PATCH /users/me/subscriptions/muted_topics, the deprecated endpoint the public Python bindings'
// mute_topic still call: mapped onto user topics, with the public server's refusals.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../support/server';
import { registerQueue } from '../support/events';

let server: TestServer;
let general: number;

beforeAll(async () => {
  server = await startTestServer({ heartbeatMs: 1000 });
  general = (await server.client('dev').get('/get_stream_id', { stream: 'general' })).body
    .stream_id;
});
afterAll(async () => {
  await server.close();
});

async function userTopics(): Promise<Array<Record<string, unknown>>> {
  const res = await server.client('dev').post('/register', { fetch_event_types: ['user_topic'] });
  return res.body.user_topics;
}

describe('PATCH /users/me/subscriptions/muted_topics', () => {
  it('mutes by channel name or id and removes, with user_topic and muted_topics events', async () => {
    const dev = server.client('dev');
    const modern = await registerQueue(dev, { event_types: ['user_topic'] });
    const legacy = await registerQueue(dev, { event_types: ['muted_topics'] });

    let res = await dev.patch('/users/me/subscriptions/muted_topics', {
      stream: 'general',
      topic: 'noisy',
      op: 'add',
    });
    expect(res.status, res.text).toBe(200);
    const event = await modern.waitFor((e) => e.type === 'user_topic');
    expect(event).toMatchObject({ stream_id: general, topic_name: 'noisy', visibility_policy: 1 });
    const legacyEvent = await legacy.waitFor((e) => e.type === 'muted_topics');
    expect(legacyEvent.muted_topics).toContainEqual(['general', 'noisy', expect.any(Number)]);
    expect(await userTopics()).toContainEqual(
      expect.objectContaining({ stream_id: general, topic_name: 'noisy', visibility_policy: 1 }),
    );

    res = await dev.patch('/users/me/subscriptions/muted_topics', {
      stream_id: general,
      topic: 'by id',
      op: 'add',
    });
    expect(res.status, res.text).toBe(200);
    expect(await userTopics()).toContainEqual(
      expect.objectContaining({ stream_id: general, topic_name: 'by id', visibility_policy: 1 }),
    );

    res = await dev.patch('/users/me/subscriptions/muted_topics', {
      stream: 'general',
      topic: 'noisy',
      op: 'remove',
    });
    expect(res.status, res.text).toBe(200);
    const removed = await modern.waitFor(
      (e) => e.type === 'user_topic' && e.topic_name === 'noisy',
    );
    expect(removed.visibility_policy).toBe(0);
    expect((await userTopics()).map((t) => t.topic_name)).not.toContain('noisy');
  });

  it('refuses as the public server does', async () => {
    const dev = server.client('dev');
    const patch = (params: Record<string, unknown>) =>
      dev.patch('/users/me/subscriptions/muted_topics', params);
    let res = await patch({ topic: 't', op: 'add' });
    expect(res.status).toBe(400);
    expect(res.body.msg).toBe("Missing 'stream_id' argument");
    res = await patch({ stream: 'general', stream_id: general, topic: 't', op: 'add' });
    expect(res.status).toBe(400);
    expect(res.body.code).toBe('INCOMPATIBLE_PARAMETERS');
    // A private channel dev is not in does not exist for them.
    res = await patch({ stream: 'leadership', topic: 't', op: 'add' });
    expect(res.body.msg).toBe("Invalid channel name 'leadership'");
    res = await patch({ stream_id: 999999, topic: 't', op: 'add' });
    expect(res.body.msg).toBe('Invalid channel ID');
    res = await patch({ stream: 'no such channel', topic: 't', op: 'remove' });
    expect(res.body.msg).toBe('Topic is not muted');
    // Only a mute is removed, and a muted topic is not muted again.
    res = await patch({ stream: 'general', topic: 'never muted', op: 'remove' });
    expect(res.status).toBe(400);
    expect(res.body.msg).toBe('Topic is not muted');
    res = await dev.post('/user_topics', {
      stream_id: general,
      topic: 'followed',
      visibility_policy: 3,
    });
    expect(res.status, res.text).toBe(200);
    res = await patch({ stream: 'general', topic: 'followed', op: 'remove' });
    expect(res.body.msg).toBe('Topic is not muted');
    expect(await userTopics()).toContainEqual(
      expect.objectContaining({ topic_name: 'followed', visibility_policy: 3 }),
    );
    res = await patch({ stream: 'general', topic: 'already', op: 'add' });
    expect(res.status, res.text).toBe(200);
    res = await patch({ stream: 'general', topic: 'already', op: 'add' });
    expect(res.status).toBe(400);
    expect(res.body.msg).toBe('Topic already muted');
    res = await patch({ stream: 'general', topic: 't', op: 'toggle' });
    expect(res.status).toBe(400);
    expect(res.body.code).toBe('REQUEST_VARIABLE_INVALID');
    res = await patch({ stream: 'general', topic: 'x'.repeat(61), op: 'add' });
    expect(res.status).toBe(400);
    expect((await userTopics()).map((t) => t.topic_name)).not.toContain('t');
  });
});
