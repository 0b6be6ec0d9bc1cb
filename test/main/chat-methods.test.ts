// Every chat method of the contract reaches its endpoint on the real local realm server with the
// parameters the API expects, and its effect comes back on the renderer-facing event stream.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ServerEvent } from '../../shared/api/events';
import { startTestServer, type TestServer } from '../support/server';
import { eventually, startMain, type MainHarness } from './support/harness';

let realm: TestServer;
let main: MainHarness;
let accountId: string;
let streamId: number;
let channelName: string;
let messageId: number;

const events = () => main.pushesOf('events').flatMap((batch) => batch.events);
const waitForEvent = (match: (event: ServerEvent) => boolean) =>
  eventually(() => events().find(match));

beforeAll(async () => {
  // One batch per delete_topic request, so deleting a topic takes main several rounds.
  realm = await startTestServer({ heartbeatMs: 500, deleteTopicBudgetMs: 0 });
  main = await startMain({ site: realm.url, user: realm.users.owner });
  accountId = main.accountId;
  const snapshot = await main.live();
  streamId = snapshot.register.subscriptions[0].stream_id;
  channelName = snapshot.register.subscriptions[0].name;
  const sent = await main.services.handlers.sendMessage({
    accountId,
    message: { type: 'channel', to: streamId, topic: 'methods', content: 'original' },
  });
  messageId = sent.messageId!;
});
afterAll(async () => {
  await main?.close();
  await realm?.close();
});

describe('chat methods', () => {
  const h = () => main.services.handlers;

  it('sends a widget submessage and hears it back', async () => {
    const sent = await h().sendMessage({
      accountId,
      message: { type: 'channel', to: streamId, topic: 'methods', content: '/poll Tea?\nYes' },
    });
    const pollId = sent.messageId!;
    const vote = JSON.stringify({ type: 'vote', key: 'canned,0', vote: 1 });
    await h().sendSubmessage({ accountId, messageId: pollId, msgType: 'widget', content: vote });
    const event = await waitForEvent((e) => e.type === 'submessage' && e.message_id === pollId);
    expect(event).toMatchObject({ msg_type: 'widget', content: vote });
    await expect(
      h().sendSubmessage({
        accountId,
        messageId: pollId,
        msgType: 'widget',
        content: '{"type": 1}',
      }),
    ).rejects.toMatchObject({ code: 'BAD_REQUEST' });
  });

  it('edits, reacts, flags and deletes a message', async () => {
    await h().editMessage({ accountId, messageId, content: 'edited' });
    await waitForEvent((e) => e.type === 'update_message' && e.message_id === messageId);
    await h().addReaction({ accountId, messageId, emojiName: 'smile' });
    await waitForEvent(
      (e) => e.type === 'reaction' && e.op === 'add' && e.message_id === messageId,
    );
    await h().removeReaction({ accountId, messageId, emojiName: 'smile' });
    await waitForEvent((e) => e.type === 'reaction' && e.op === 'remove');
    await h().updateFlags({ accountId, messages: [messageId], op: 'add', flag: 'starred' });
    await waitForEvent((e) => e.type === 'update_message_flags' && e.flag === 'starred');
    const page = await h().getMessages({
      accountId,
      anchor: messageId,
      numBefore: 0,
      numAfter: 0,
      narrow: [],
    });
    expect(page.messages[0].flags).toContain('starred');
    await h().updateFlagsForNarrow({
      accountId,
      anchor: 'newest',
      numBefore: 10,
      numAfter: 0,
      narrow: [{ operator: 'channel', operand: streamId }],
      op: 'add',
      flag: 'read',
    });
    await h().deleteMessage({ accountId, messageId });
    await waitForEvent(
      (e) => e.type === 'delete_message' && (e.message_ids ?? []).includes(messageId),
    );
  });

  it('deletes a whole topic, repeating delete_topic until the server says complete', async () => {
    const owner = realm.client('owner');
    const ids: number[] = [];
    for (let i = 0; i < 230; i++) {
      const res = await owner.post('/messages', {
        type: 'channel',
        to: streamId,
        topic: 'to delete',
        content: `m${i}`,
      });
      ids.push(res.body.id as number);
    }
    await expect(h().deleteTopic({ accountId, streamId, topic: 'to delete' })).resolves.toBeNull();
    const left = await realm.client('owner').get('/messages', {
      anchor: 'newest',
      num_before: 300,
      num_after: 0,
      narrow: JSON.stringify([
        { operator: 'channel', operand: streamId },
        { operator: 'topic', operand: 'to delete' },
      ]),
    });
    expect(left.body.messages).toEqual([]);
    await waitForEvent((e) => e.type === 'delete_message' && e.message_ids.includes(ids[0]));
  });

  it('sends typing notifications and a direct message', async () => {
    await h().sendTyping({
      accountId,
      op: 'start',
      to: { type: 'direct', userIds: [realm.users.emma.user_id] },
    });
    await h().sendTyping({
      accountId,
      op: 'stop',
      to: { type: 'channel', streamId, topic: 'methods' },
    });
    const dm = await h().sendMessage({
      accountId,
      message: { type: 'direct', to: [realm.users.emma.user_id], content: 'hi emma' },
    });
    expect(dm.state).toBe('sent');
  });

  it('manages subscriptions, their properties and topic visibility', async () => {
    await h().subscribe({ accountId, subscriptions: [{ name: 'methods-new-channel' }] });
    const added = await waitForEvent((e) => e.type === 'subscription' && e.op === 'add');
    expect(JSON.stringify(added)).toContain('methods-new-channel');
    await h().updateSubscriptionProperties({
      accountId,
      changes: [{ streamId, property: 'pin_to_top', value: true }],
    });
    await waitForEvent(
      (e) => e.type === 'subscription' && e.op === 'update' && e.property === 'pin_to_top',
    );
    await h().setUserTopic({ accountId, streamId, topic: 'methods', visibilityPolicy: 3 });
    await waitForEvent((e) => e.type === 'user_topic' && e.topic_name === 'methods');
    await h().unsubscribe({ accountId, subscriptions: ['methods-new-channel'] });
    await waitForEvent((e) => e.type === 'subscription' && e.op === 'remove');
    const { streams } = await h().getStreams({ accountId });
    expect(streams.some((s) => s.name === channelName)).toBe(true);
  });

  it('sets status and settings, reads users, marks everything read', async () => {
    await h().setStatus({ accountId, statusText: 'in a meeting' });
    await waitForEvent((e) => e.type === 'user_status' && e.status_text === 'in a meeting');
    await h().updateSettings({ accountId, settings: { enter_sends: true } });
    await waitForEvent((e) => e.type === 'user_settings' && e.property === 'enter_sends');
    const { user } = await h().getUser({ accountId, userId: realm.users.emma.user_id });
    expect(user.email).toBe(realm.users.emma.email);
    const marked = await h().markAllAsRead({ accountId });
    expect(marked.result).toBe('success');
  });
});
