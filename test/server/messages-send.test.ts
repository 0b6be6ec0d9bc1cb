// POST /messages (spec 4.1): recipients, topics, limits, permissions, wildcard rules, local echo,
// per-recipient flags and per-queue rendering of message events, privacy of delivery, restart.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../support/server';
import { registerQueue, type TestEvent } from '../support/events';
import { ApiClient } from '../support/client';
import { createUser } from '../../server/realm/accounts';
import { Role } from '../../server/realm/roles';
import { createChannel, sendToChannel } from './messages-support';

let server: TestServer;
let uid: Record<string, number>;

beforeAll(async () => {
  server = await startTestServer({ seed: 'demo' });
  uid = server.userIds;
});
afterAll(async () => {
  await server.close();
});

const messageEvents = (events: TestEvent[]) => events.filter((e) => e.type === 'message');

describe('sending to channels', () => {
  it('accepts a channel name or id, with type channel or stream, and stores the topic', async () => {
    const dev = server.client('dev');
    const byName = await sendToChannel(dev, 'design', 'send basics', 'by name');
    const designId = server.server.db
      .prepare<[], { id: number }>("SELECT id FROM channels WHERE name = 'design'")
      .get()!.id;
    const res = await dev.post('/messages', {
      type: 'stream',
      to: designId,
      subject: 'send basics',
      content: 'by id',
    });
    expect(res.status).toBe(200);
    const got = await dev.get(`/messages/${res.body.id}`);
    expect(got.body.message).toMatchObject({
      type: 'stream',
      stream_id: designId,
      display_recipient: 'design',
      subject: 'send basics',
      content: '<p>by id</p>',
    });
    expect(got.body.raw_content).toBe('by id');
    expect(res.body.id).toBeGreaterThan(byName);
  });

  it('delivers the message event to subscribers only, with each recipient’s flags', async () => {
    const [emmaQ, faridQ, guestQ, adminQ, devQ] = await Promise.all(
      ['emma', 'farid', 'guest', 'admin', 'dev'].map((k) => registerQueue(server.client(k))),
    );
    const id = await sendToChannel(
      server.client('dev'),
      'design',
      'flags on send',
      'hello @**Emma Member**',
      { read_by_sender: true },
    );
    const emmaEvent = messageEvents(await emmaQ.next())[0];
    expect(emmaEvent.message.id).toBe(id);
    expect(emmaEvent.flags).toEqual(['mentioned']);
    const faridEvent = messageEvents(await faridQ.next())[0];
    expect(faridEvent.flags).toEqual([]);
    const devEvent = messageEvents(await devQ.next())[0];
    expect(devEvent.flags).toEqual(['read']);
    // Not subscribed to #design: nothing at all.
    expect(messageEvents(await guestQ.poll())).toEqual([]);
    expect(messageEvents(await adminQ.poll())).toEqual([]);
  });

  it('renders per queue: HTML with apply_markdown, raw markup without', async () => {
    const raw = await registerQueue(server.client('emma'), { apply_markdown: false });
    const html = await registerQueue(server.client('emma'), { apply_markdown: true });
    await sendToChannel(server.client('dev'), 'design', 'rendering', 'some **bold** text');
    const rawEvent = messageEvents(await raw.next())[0];
    const htmlEvent = messageEvents(await html.next())[0];
    expect(rawEvent.message.content).toBe('some **bold** text');
    expect(rawEvent.message.content_type).toBe('text/x-markdown');
    expect(htmlEvent.message.content).toBe('<p>some <strong>bold</strong> text</p>');
    expect(htmlEvent.message.content_type).toBe('text/html');
  });

  it('gives avatar_url null to client_extavatar queues and a URL otherwise', async () => {
    const ext = await registerQueue(server.client('emma'), { client_extavatar: true });
    const plain = await registerQueue(server.client('emma'), { client_gravatar: false });
    await sendToChannel(server.client('dev'), 'design', 'avatars', 'avatar check');
    expect(messageEvents(await ext.next())[0].message.avatar_url).toBeNull();
    expect(messageEvents(await plain.next())[0].message.avatar_url).toMatch(/^https:\/\//);
  });

  it('returns local_message_id only on the queue that sent it', async () => {
    const dev = server.client('dev');
    const own = await registerQueue(dev);
    const other = await registerQueue(dev);
    const res = await dev.post('/messages', {
      type: 'channel',
      to: 'design',
      topic: 'echo',
      content: 'local echo',
      queue_id: own.queueId,
      local_id: '17.01',
    });
    expect(res.status).toBe(200);
    const ownEvent = messageEvents(await own.next())[0];
    expect(ownEvent.local_message_id).toBe('17.01');
    const otherEvent = messageEvents(await other.next())[0];
    expect(otherEvent).not.toHaveProperty('local_message_id');
    const missing = await dev.post('/messages', {
      type: 'channel',
      to: 'design',
      topic: 'echo',
      content: 'x',
      queue_id: own.queueId,
    });
    expect(missing.status).toBe(400);
    expect(missing.body).toMatchObject({ code: 'REQUEST_VARIABLE_MISSING', var_name: 'local_id' });
  });

  it('marks the message read for the sender by default only for UI clients', async () => {
    const dev = server.client('dev');
    const ui = await dev.post(
      '/messages',
      { type: 'channel', to: 'design', topic: 'read by sender', content: 'from the UI' },
      { headers: { 'user-agent': 'website/1.0' } },
    );
    const api = await dev.post(
      '/messages',
      { type: 'channel', to: 'design', topic: 'read by sender', content: 'from a script' },
      { headers: { 'user-agent': 'my-script/1.0' } },
    );
    expect((await dev.get(`/messages/${ui.body.id}`)).body.message.flags).toContain('read');
    expect((await dev.get(`/messages/${api.body.id}`)).body.message.flags).not.toContain('read');
    expect((await dev.get(`/messages/${api.body.id}`)).body.message.client).toBe('my-script');
  });

  it('reads "(no topic)" and the empty-topic display name as the empty topic', async () => {
    const dev = server.client('dev');
    const a = await sendToChannel(dev, 'design', '(no topic)', 'a');
    const b = await sendToChannel(dev, 'design', 'general chat', 'b');
    const row = server.server.db
      .prepare<[number, number], { n: number }>(
        "SELECT COUNT(*) AS n FROM messages WHERE id IN (?, ?) AND topic = ''",
      )
      .get(a, b)!;
    expect(row.n).toBe(2);
    expect((await dev.get(`/messages/${a}`)).body.message.subject).toBe('general chat');
    const raw = await dev.get(`/messages/${a}`, { allow_empty_topic_name: true });
    expect(raw.body.message.subject).toBe('');
  });

  it('announces a new topic visibility policy when the sender starts a topic', async () => {
    const dev = server.client('dev');
    const queue = await registerQueue(dev, { event_types: ['user_topic'] });
    const first = await dev.post('/messages', {
      type: 'channel',
      to: 'design',
      topic: 'fresh topic for follow',
      content: 'first',
    });
    expect(first.body.automatic_new_visibility_policy).toBe(3);
    const event = await queue.waitFor((e) => e.type === 'user_topic');
    expect(event).toMatchObject({ topic_name: 'fresh topic for follow', visibility_policy: 3 });
    const second = await dev.post('/messages', {
      type: 'channel',
      to: 'design',
      topic: 'fresh topic for follow',
      content: 'second',
    });
    expect(second.body).not.toHaveProperty('automatic_new_visibility_policy');
  });
});

describe('hostile content', () => {
  it('stores raw text but serves escaped HTML without scripts, handlers or script links', async () => {
    const hostile =
      '<script>alert(1)</script><img src=x onerror=alert(2)> [a](javascript:alert(3)) <a href="javascript:alert(4)">b</a>';
    const id = await sendToChannel(server.client('dev'), 'design', 'hostile', hostile);
    const res = await server.client('emma').get(`/messages/${id}`);
    expect(res.body.raw_content).toBe(hostile);
    const html = res.body.message.content as string;
    // Only escaped text remains: no element and no attribute can carry a handler or a script URL.
    expect(html).not.toMatch(/<(script|img|a)\b/i);
    expect(html).not.toMatch(/<[^>]*href="javascript/i);
    expect(html).toContain('&lt;script&gt;');
  });
});

describe('all_public_streams and rendering previews', () => {
  it('gives all_public_streams queues public channel messages as history, never private ones', async () => {
    const admin = server.client('admin'); // not subscribed to #design
    const queue = await registerQueue(admin, {
      all_public_streams: true,
      event_types: ['message'],
    });
    await sendToChannel(server.client('dev'), 'design', 'watchers', 'public words');
    const event = messageEvents(await queue.next())[0];
    expect(event.message.content).toContain('public words');
    expect(event.flags).toEqual(['read', 'historical']);
    await sendToChannel(server.client('owner'), 'leadership', 'watchers', 'staff words');
    const leadership = messageEvents(await queue.next())[0];
    // The admin is subscribed to #leadership, so this one arrives as a normal message.
    expect(leadership.flags).toEqual([]);
    const guestQueue = await registerQueue(server.client('guest'), { all_public_streams: true });
    await sendToChannel(server.client('dev'), 'design', 'watchers', 'not for guests');
    expect(messageEvents(await guestQueue.poll())).toEqual([]);
  });

  it('renders a preview with POST /messages/render', async () => {
    const res = await server
      .client('dev')
      .post('/messages/render', { content: '**hi** @**Emma Member** <b>x</b>' });
    expect(res.body.rendered).toBe(
      `<p><strong>hi</strong> <span class="user-mention" data-user-id="${uid.emma}">@Emma Member</span> &lt;b&gt;x&lt;/b&gt;</p>`,
    );
  });
});

describe('linkifiers', () => {
  it('link matches in content and give topic_links', async () => {
    const added = await server.client('admin').post('/realm/filters', {
      pattern: 'TRIB-(?P<id>[0-9]+)',
      url_template: 'https://tracker.example/browse/TRIB-{id}',
      example_input: 'TRIB-1',
    });
    expect(added.status, added.text).toBe(200);
    const id = await sendToChannel(
      server.client('dev'),
      'design',
      'TRIB-7 crash',
      'fixed in TRIB-9',
    );
    const message = (await server.client('emma').get(`/messages/${id}`)).body.message;
    expect(message.content).toContain('<a href="https://tracker.example/browse/TRIB-9"');
    expect(message.topic_links).toEqual([
      { text: 'TRIB-7', url: 'https://tracker.example/browse/TRIB-7' },
    ]);
    await server.client('admin').delete(`/realm/filters/${added.body.id}`);
  });
});

describe('channel errors', () => {
  it('STREAM_DOES_NOT_EXIST with stream (name) or stream_id', async () => {
    const dev = server.client('dev');
    const byName = await dev.post('/messages', {
      type: 'channel',
      to: 'no-such-channel',
      topic: 't',
      content: 'x',
    });
    expect(byName.status).toBe(400);
    expect(byName.body).toMatchObject({ code: 'STREAM_DOES_NOT_EXIST', stream: 'no-such-channel' });
    const byId = await dev.post('/messages', {
      type: 'channel',
      to: 99999,
      topic: 't',
      content: 'x',
    });
    expect(byId.body).toMatchObject({ code: 'STREAM_DOES_NOT_EXIST', stream_id: 99999 });
  });

  it('treats a private channel the sender cannot see as nonexistent', async () => {
    const res = await server
      .client('dev')
      .post('/messages', { type: 'channel', to: 'leadership', topic: 't', content: 'x' });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ code: 'STREAM_DOES_NOT_EXIST', stream: 'leadership' });
  });

  it('enforces can_send_message_group (announcement channel)', async () => {
    const res = await server
      .client('dev')
      .post('/messages', { type: 'channel', to: 'announcements', topic: 't', content: 'x' });
    expect(res.status).toBe(400);
    expect(res.body.code).toBe('BAD_REQUEST');
    expect(res.body.msg).toMatch(/permission to post/);
    await sendToChannel(server.client('admin'), 'announcements', 'news', 'admins may');
  });

  it('lets guests post only where they are subscribed', async () => {
    const guest = server.client('guest');
    const res = await guest.post('/messages', {
      type: 'channel',
      to: 'random',
      topic: 't',
      content: 'x',
    });
    expect(res.status).toBe(400);
    await sendToChannel(guest, 'general', 'guest corner', 'hello from a guest');
  });

  it('bounds content and topic and rejects empty content', async () => {
    const dev = server.client('dev');
    const send = (content: string, topic = 't') =>
      dev.post('/messages', { type: 'channel', to: 'design', topic, content });
    expect((await send('   ')).body).toMatchObject({
      code: 'BAD_REQUEST',
      msg: 'Message must not be empty',
    });
    expect((await send('x'.repeat(10001))).body.msg).toMatch(/too long/);
    expect((await send('x'.repeat(10000))).status).toBe(200);
    expect((await send('x', 't'.repeat(61))).body.msg).toMatch(/Topic too long/);
    expect((await send('x', 't'.repeat(60))).status).toBe(200);
    expect((await send('a\u0000b')).status).toBe(400);
    const missingTo = await dev.post('/messages', { type: 'channel', content: 'x' });
    expect(missingTo.body).toMatchObject({ code: 'REQUEST_VARIABLE_MISSING', var_name: 'to' });
    const badType = await dev.post('/messages', { type: 'fax', to: 'design', content: 'x' });
    expect(badType.body).toMatchObject({ code: 'REQUEST_VARIABLE_INVALID', var_name: 'type' });
  });

  it('applies topics_policy: disable_empty_topic refuses the empty topic', async () => {
    const owner = server.client('owner');
    const channelId = await createChannel(server, owner, 'strict-topics', [uid.owner, uid.dev]);
    server.server.db
      .prepare("UPDATE channels SET topics_policy = 'disable_empty_topic' WHERE id = ?")
      .run(channelId);
    const res = await server
      .client('dev')
      .post('/messages', { type: 'channel', to: channelId, topic: '', content: 'x' });
    expect(res.status).toBe(400);
    expect(res.body.msg).toMatch(/general chat is not allowed/);
  });
});

describe('wildcard mentions in large channels and topics', () => {
  const extra: ApiClient[] = [];
  let bigChannel: number;

  beforeAll(async () => {
    const ids: number[] = [];
    for (let i = 0; i < 15; i++) {
      const email = `crowd${i}@tributary.local`;
      const created = createUser(server.server.db, {
        email,
        fullName: `Crowd Member ${i}`,
        role: Role.member,
        password: null,
      });
      ids.push(created.id);
      extra.push(new ApiClient(() => server.url, { email, apiKey: created.apiKey }));
    }
    bigChannel = await createChannel(server, server.client('owner'), 'crowded', [
      uid.owner,
      uid.dev,
      ...ids,
    ]);
  });

  it('refuses @**all** from members in a channel with more than 15 subscribers', async () => {
    const res = await server
      .client('dev')
      .post('/messages', { type: 'channel', to: bigChannel, topic: 'x', content: 'hey @**all**' });
    expect(res.status).toBe(400);
    expect(res.body.code).toBe('STREAM_WILDCARD_MENTION_NOT_ALLOWED');
    // A silent wildcard is not a mention and is allowed.
    await sendToChannel(server.client('dev'), bigChannel, 'x', 'hey @_**all**');
  });

  it('lets can_mention_many_users_group members use it; recipients get stream_wildcard_mentioned', async () => {
    const queue = await registerQueue(extra[0]);
    await sendToChannel(server.client('owner'), bigChannel, 'x', 'hey @**everyone**');
    const event = messageEvents(await queue.next())[0];
    expect(event.flags).toEqual(
      expect.arrayContaining(['stream_wildcard_mentioned', 'wildcard_mentioned']),
    );
  });

  it('refuses @**topic** in a topic with more than 15 participants', async () => {
    for (const client of extra) await sendToChannel(client, bigChannel, 'busy', 'me too');
    const res = await server.client('dev').post('/messages', {
      type: 'channel',
      to: bigChannel,
      topic: 'busy',
      content: '@**topic** hi',
    });
    expect(res.body.code).toBe('TOPIC_WILDCARD_MENTION_NOT_ALLOWED');
    // A small topic is fine, and only its participants get topic_wildcard_mentioned.
    const queue0 = await registerQueue(extra[0]);
    const queue1 = await registerQueue(extra[1]);
    await sendToChannel(extra[0], bigChannel, 'small', 'started here');
    await sendToChannel(server.client('dev'), bigChannel, 'small', '@**topic** look');
    const isLook = (e: TestEvent) => e.type === 'message' && e.message.content.includes('look');
    expect((await queue0.waitFor(isLook)).flags).toContain('topic_wildcard_mentioned');
    const topicEvent = await queue1.waitFor(isLook);
    expect(topicEvent.flags).not.toContain('topic_wildcard_mentioned');
  });
});

describe('direct messages', () => {
  it('accepts ids or emails, ignores the sender unless alone, and reaches participants only', async () => {
    const dev = server.client('dev');
    const emmaQ = await registerQueue(server.client('emma'));
    const faridQ = await registerQueue(server.client('farid'));
    const res = await dev.post('/messages', {
      type: 'direct',
      to: [uid.emma, uid.dev],
      content: 'just us',
    });
    expect(res.status).toBe(200);
    const event = messageEvents(await emmaQ.next())[0];
    expect(event.message.type).toBe('private');
    expect(event.message.subject).toBe('');
    expect(event.message.display_recipient.map((r: { id: number }) => r.id)).toEqual(
      [uid.dev, uid.emma].sort((a, b) => a - b),
    );
    expect(messageEvents(await faridQ.poll())).toEqual([]);
    const byEmail = await dev.post('/messages', {
      type: 'private',
      to: JSON.stringify(['emma@tributary.local']),
      content: 'by email',
    });
    expect(byEmail.status).toBe(200);
    const sameRecipient = await dev.get(`/messages/${byEmail.body.id}`);
    expect(sameRecipient.body.message.recipient_id).toBe(event.message.recipient_id);
    // Incoming 1:1 messages share the recipient id (FL 327).
    const reply = await server.client('emma').post('/messages', {
      type: 'direct',
      to: [uid.dev],
      content: 'reply',
    });
    expect((await dev.get(`/messages/${reply.body.id}`)).body.message.recipient_id).toBe(
      event.message.recipient_id,
    );
  });

  it('supports messages to oneself and group conversations', async () => {
    const dev = server.client('dev');
    const self = await dev.post('/messages', { type: 'direct', to: [uid.dev], content: 'note' });
    expect(
      (await dev.get(`/messages/${self.body.id}`)).body.message.display_recipient,
    ).toHaveLength(1);
    const group = await dev.post('/messages', {
      type: 'direct',
      to: 'emma@tributary.local,farid@tributary.local',
      content: 'group',
    });
    expect(
      (await dev.get(`/messages/${group.body.id}`)).body.message.display_recipient,
    ).toHaveLength(3);
  });

  it('rejects unknown recipients with BAD_REQUEST', async () => {
    const dev = server.client('dev');
    const badId = await dev.post('/messages', { type: 'direct', to: [424242], content: 'x' });
    expect(badId.status).toBe(400);
    expect(badId.body.code).toBe('BAD_REQUEST');
    const badEmail = await dev.post('/messages', {
      type: 'direct',
      to: ['nobody@tributary.local'],
      content: 'x',
    });
    expect(badEmail.body.code).toBe('BAD_REQUEST');
    const empty = await dev.post('/messages', { type: 'direct', to: [], content: 'x' });
    expect(empty.status).toBe(400);
  });
});

describe('persistence', () => {
  it('keeps messages, flags and rendering across a restart', async () => {
    const id = await sendToChannel(
      server.client('dev'),
      'design',
      'durable',
      'survives **restarts**',
    );
    await server
      .client('emma')
      .post('/messages/flags', { messages: [id], op: 'add', flag: 'starred' });
    await server.restart();
    const res = await server.client('emma').get(`/messages/${id}`);
    expect(res.status).toBe(200);
    expect(res.body.message.content).toBe('<p>survives <strong>restarts</strong></p>');
    expect(res.body.message.flags).toContain('starred');
  });
});
