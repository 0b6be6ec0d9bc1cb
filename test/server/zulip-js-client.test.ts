// zulip-js, the public JavaScript client, driving the local server as a third-party client would
// (multipart POST bodies, its own query encoding): register with the deprecated muted_topics,
// presence reported by one client and seen on another's event queue, its own avatar and the
// first-unread anchor.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import zulip, { type ZulipClient } from 'zulip-js';
import { startTestServer, type TestServer } from '../support/server';
import { sendToChannel, topicNarrow } from './messages-support';

let server: TestServer;

beforeAll(async () => {
  server = await startTestServer();
});
afterAll(async () => {
  await server.close();
});

function clientFor(who: string): Promise<ZulipClient> {
  const user = server.users[who];
  return zulip({ username: user.email, apiKey: user.api_key, realm: server.url });
}

/** Long-polls the queue until an event matches, as zulip-js's own event loop does. */
async function nextEvent(
  client: ZulipClient,
  queue: { queue_id: string; last_event_id: number },
  match: (event: Record<string, unknown>) => boolean,
): Promise<Record<string, unknown>> {
  for (let polls = 0; polls < 20; polls++) {
    const res = await client.events.retrieve(queue);
    expect(res.result, JSON.stringify(res)).toBe('success');
    for (const event of res.events as Record<string, unknown>[]) {
      queue.last_event_id = event.id as number;
      if (match(event)) return event;
    }
  }
  throw new Error('expected event did not arrive');
}

describe('zulip-js against the local server', () => {
  it('registers for muted_topics and presence and sees both change', async () => {
    const dev = await clientFor('dev');
    const emma = await clientFor('emma');
    const registered = await dev.queues.register({
      event_types: ['muted_topics', 'presence', 'realm_user'],
    });
    expect(registered.result, JSON.stringify(registered)).toBe('success');
    expect(registered.muted_topics).toEqual([]);
    expect(registered.presences).toEqual({});
    expect(registered.avatar_url).toEqual(expect.any(String));
    const queue = { queue_id: registered.queue_id, last_event_id: registered.last_event_id };

    const general = await dev.callEndpoint('/get_stream_id', 'GET', { stream: 'general' });
    const muted = await dev.callEndpoint('/user_topics', 'POST', {
      stream_id: general.stream_id,
      topic: 'flaky ci',
      visibility_policy: 1,
    });
    expect(muted.result, JSON.stringify(muted)).toBe('success');
    const mutedEvent = await nextEvent(dev, queue, (e) => e.type === 'muted_topics');
    expect(mutedEvent.muted_topics).toEqual([['general', 'flaky ci', expect.any(Number)]]);

    // zulip-js sends every value as a multipart field; booleans as the strings JSON uses.
    const reported = await emma.callEndpoint('/users/me/presence', 'POST', {
      status: 'active',
      new_user_input: 'true',
      slim_presence: 'true',
    });
    expect(reported.result, JSON.stringify(reported)).toBe('success');
    expect(reported.presences[String(server.userIds.emma)]).toEqual({
      active_timestamp: expect.any(Number),
      idle_timestamp: expect.any(Number),
    });
    const presence = await nextEvent(dev, queue, (e) => e.type === 'presence');
    expect(presence).toMatchObject({
      user_id: server.userIds.emma,
      email: server.users.emma.email,
      presence: { website: { client: 'website', status: 'active', pushable: false } },
    });

    const realm = await dev.callEndpoint('/realm/presence', 'GET');
    expect(realm.presences[server.users.emma.email].aggregated.status).toBe('active');
  });

  it('gets its own avatar and opens a view at the first unread message', async () => {
    const farid = await clientFor('farid');
    const profile = await farid.users.me.getProfile();
    expect(profile.avatar_url).toEqual(expect.any(String));

    const emma = server.client('emma');
    const first = await sendToChannel(emma, 'random', 'zulip-js anchor', 'first');
    const second = await sendToChannel(emma, 'random', 'zulip-js anchor', 'second');
    await farid.callEndpoint('/messages/flags', 'POST', {
      messages: [first],
      op: 'add',
      flag: 'read',
    });
    const view = await farid.messages.retrieve({
      anchor: 0,
      use_first_unread_anchor: true,
      num_before: 0,
      num_after: 5,
      narrow: topicNarrow('random', 'zulip-js anchor'),
    });
    expect(view.result, JSON.stringify(view)).toBe('success');
    expect(view.anchor).toBe(second);
  });
});
