// Topic visibility changes caused by messages (automatic follow/unmute of the sender,
// automatically_follow_topics_where_mentioned, whole-topic moves) and when their user_topic events
// go out: only once the change is committed. Plus the read_by_sender default by client name.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../support/server';
import { registerQueue } from '../support/events';
import { getChannelByName } from '../../server/resources/channels/channels-store';
import { storeMessage } from '../../server/resources/messages/messages-send';
import { applyMove } from '../../server/resources/messages/messages-move';
import { getMessage } from '../../server/resources/messages/messages-store';
import type { AuthUser } from '../../server/realm/context';

let server: TestServer;

beforeAll(async () => {
  server = await startTestServer({ seed: 'demo' });
});
afterAll(async () => {
  await server.close();
});

function sendAs(who: string, userAgent: string, params: Record<string, unknown>) {
  return server.client(who).post('/messages', params, { headers: { 'user-agent': userAgent } });
}

function authUser(key: string): AuthUser {
  const u = server.users[key];
  return {
    id: u.user_id,
    email: u.email,
    delivery_email: u.email,
    full_name: u.full_name,
    role: u.role,
    is_active: true,
    is_bot: u.is_bot,
    bot_type: u.bot_type,
    bot_owner_id: u.bot_owner_id,
    can_create_users: false,
  } as AuthUser;
}

describe('automatically_follow_topics_where_mentioned', () => {
  it('makes a user mentioned by name follow the topic, announced before the message', async () => {
    const farid = server.client('farid');
    const queue = await registerQueue(farid, { event_types: ['user_topic', 'message'] });
    await sendAs('dev', 'Tributary', {
      type: 'stream',
      to: 'design',
      topic: 'mention follows',
      content: 'hey @**Farid Member**',
    });
    const [first, second] = [await queue.waitFor(() => true), await queue.waitFor(() => true)];
    expect(first).toMatchObject({
      type: 'user_topic',
      topic_name: 'mention follows',
      visibility_policy: 3,
    });
    expect(second.type).toBe('message');
    // A silent mention does not follow.
    await sendAs('dev', 'Tributary', {
      type: 'stream',
      to: 'design',
      topic: 'silent mention',
      content: 'hey @_**Farid Member**',
    });
    await queue.waitFor((e) => e.type === 'message');
    expect((await queue.poll()).filter((e) => e.type === 'user_topic')).toEqual([]);
    const topics = (await farid.post('/register', { fetch_event_types: ['user_topic'] })).body
      .user_topics as Array<{ topic_name: string }>;
    expect(topics.map((t) => t.topic_name)).toContain('mention follows');
    expect(topics.map((t) => t.topic_name)).not.toContain('silent mention');
  });

  it('leaves users who turned the setting off alone', async () => {
    const emma = server.client('emma');
    const off = await emma.patch('/settings', {
      automatically_follow_topics_where_mentioned: false,
    });
    expect(off.status, off.text).toBe(200);
    await sendAs('dev', 'Tributary', {
      type: 'stream',
      to: 'design',
      topic: 'emma opted out',
      content: 'hi @**Emma Member**',
    });
    const topics = (await emma.post('/register', { fetch_event_types: ['user_topic'] })).body
      .user_topics as Array<{ topic_name: string }>;
    expect(topics.map((t) => t.topic_name)).not.toContain('emma opted out');
  });
});

describe('user_topic events wait for the commit', () => {
  it('sends nothing for a send whose transaction rolls back', async () => {
    const { ctx, db } = server.server;
    const queue = await registerQueue(server.client('farid'), { event_types: ['user_topic'] });
    const design = getChannelByName(db, 'design')!;
    expect(() =>
      db.transaction(() => {
        const created = storeMessage(
          ctx,
          authUser('dev'),
          { kind: 'channel', channel: design, topic: 'rolled back' },
          'hey @**Farid Member**',
          { client: 'test', readBySender: true },
        );
        expect(created.topicPolicyChanges.map((c) => c.userId)).toContain(
          server.users.farid.user_id,
        );
        throw new Error('rollback');
      })(),
    ).toThrow('rollback');
    expect(await queue.poll()).toEqual([]);
    const row = db.prepare("SELECT 1 FROM user_topics WHERE topic_name = 'rolled back'").get();
    expect(row).toBeUndefined();
  });

  it('sends a whole-topic move’s user_topic events only after it commits', async () => {
    const dev = server.client('dev');
    const { ctx, db } = server.server;
    const sent = await dev.post('/messages', {
      type: 'stream',
      to: 'design',
      topic: 'to be renamed',
      content: 'first',
    });
    const followed = await dev.post('/user_topics', {
      stream_id: getChannelByName(db, 'design')!.id,
      topic: 'to be renamed',
      visibility_policy: 3,
    });
    expect(followed.status, followed.text).toBe(200);
    const queue = await registerQueue(dev, { event_types: ['user_topic'] });
    const message = getMessage(db, sent.body.id as number)!;
    const oldChannel = getChannelByName(db, 'design')!;
    expect(() =>
      db.transaction(() => {
        const applied = applyMove(
          ctx,
          {
            message,
            oldChannel,
            newTopic: 'renamed',
            mode: 'change_all',
            resolution: null,
          },
          [message],
          ctx.nowSeconds(),
        );
        expect(applied.topicPolicyChanges.length).toBe(2);
        throw new Error('rollback');
      })(),
    ).toThrow('rollback');
    expect(await queue.poll()).toEqual([]);

    // Through the API the move commits and both events arrive.
    const moved = await dev.patch(`/messages/${message.id}`, {
      topic: 'renamed',
      propagate_mode: 'change_all',
    });
    expect(moved.status, moved.text).toBe(200);
    const cleared = await queue.waitFor((e) => e.topic_name === 'to be renamed');
    expect(cleared.visibility_policy).toBe(0);
    const set = await queue.waitFor((e) => e.topic_name === 'renamed');
    expect(set.visibility_policy).toBe(3);
  });
});

describe('read_by_sender default', () => {
  const cases: Array<[string, boolean]> = [
    ['Tributary', true],
    ['Tributary/1.2.0 (Linux)', true],
    ['Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 Chrome/140 Safari/537.36', true],
    ['ZulipMobile/27.230 (Android 14)', true],
    ['Mozilla/5.0 (X11) ZulipElectron/5.12.0 Chrome/130', true],
    ['calendar-sync/2.0', false],
  ];
  it.each(cases)('User-Agent %s -> read %s', async (userAgent, read) => {
    const res = await sendAs('emma', userAgent, {
      type: 'direct',
      to: [server.users.emma.user_id],
      content: `note from ${userAgent}`,
    });
    expect(res.status, res.text).toBe(200);
    const fetched = await server.client('emma').get(`/messages/${res.body.id}`);
    expect(fetched.body.message.flags.includes('read')).toBe(read);
    const unread = (
      await server
        .client('emma')
        .post('/register', { fetch_event_types: ['message', 'update_message_flags'] })
    ).body.unread_msgs;
    const unreadIds = [
      ...unread.pms.flatMap((p: { unread_message_ids: number[] }) => p.unread_message_ids),
    ];
    expect(unreadIds.includes(res.body.id)).toBe(!read);
  });

  it('takes the client parameter over the User-Agent, and read_by_sender over both', async () => {
    const viaParam = await sendAs('emma', 'calendar-sync/2.0', {
      type: 'direct',
      to: [server.users.emma.user_id],
      content: 'client param',
      client: 'website',
    });
    const fetched = await server.client('emma').get(`/messages/${viaParam.body.id}`);
    expect(fetched.body.message.flags).toContain('read');
    expect(fetched.body.message.client).toBe('website');
    const explicit = await sendAs('emma', 'Tributary', {
      type: 'direct',
      to: [server.users.emma.user_id],
      content: 'explicitly unread',
      read_by_sender: false,
    });
    const unreadOwn = await server.client('emma').get(`/messages/${explicit.body.id}`);
    expect(unreadOwn.body.message.flags).not.toContain('read');
  });
});
