// The empty topic reaches clients without the empty_topic_name capability under the realm's
// realm_empty_topic_display_name everywhere a topic is named (api-notes §1.2), not only in message
// events: unread_msgs, user_topics, user_topic events and update_message_flags message_details.
// Clients with the capability get "".
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../support/server';
import { registerQueue } from '../support/events';

let server: TestServer;
let designId: number;
let messageId: number;
let displayName: string;

const capable = { client_capabilities: { empty_topic_name: true } };

beforeAll(async () => {
  server = await startTestServer({ seed: 'demo' });
  const dev = server.client('dev');
  designId = (await dev.get('/get_stream_id', { stream: 'design' })).body.stream_id as number;
  const sent = await server.client('emma').post('/messages', {
    type: 'stream',
    to: designId,
    topic: '',
    content: 'in the empty topic',
  });
  expect(sent.status, sent.text).toBe(200);
  messageId = sent.body.id as number;
  displayName = (await dev.post('/register', { fetch_event_types: ['realm'] })).body
    .realm_empty_topic_display_name as string;
  expect(displayName).not.toBe('');
});
afterAll(async () => {
  await server.close();
});

const unreadEntry = (state: Record<string, unknown>) =>
  (
    state.unread_msgs as {
      streams: { stream_id: number; topic: string; unread_message_ids: number[] }[];
    }
  ).streams.find((s) => s.unread_message_ids.includes(messageId));

describe('empty topic display name', () => {
  it('names the empty topic in unread_msgs unless the client has empty_topic_name', async () => {
    const dev = server.client('dev');
    const legacy = await dev.post('/register', {
      fetch_event_types: ['message', 'update_message_flags'],
    });
    expect(unreadEntry(legacy.body)).toMatchObject({ stream_id: designId, topic: displayName });
    const modern = await dev.post('/register', {
      fetch_event_types: ['message', 'update_message_flags'],
      ...capable,
    });
    expect(unreadEntry(modern.body)).toMatchObject({ stream_id: designId, topic: '' });
  });

  it('names it in user_topic events and the user_topics state', async () => {
    const dev = server.client('dev');
    const legacy = await registerQueue(dev, { event_types: ['user_topic'] });
    const modern = await registerQueue(dev, { event_types: ['user_topic'], ...capable });
    const res = await dev.post('/user_topics', {
      stream_id: designId,
      topic: '',
      visibility_policy: 3,
    });
    expect(res.status, res.text).toBe(200);
    expect(await legacy.waitFor((e) => e.type === 'user_topic')).toMatchObject({
      stream_id: designId,
      topic_name: displayName,
      visibility_policy: 3,
    });
    expect(await modern.waitFor((e) => e.type === 'user_topic')).toMatchObject({
      stream_id: designId,
      topic_name: '',
    });

    const legacyState = await dev.post('/register', { fetch_event_types: ['user_topic'] });
    expect(legacyState.body.user_topics).toContainEqual(
      expect.objectContaining({
        stream_id: designId,
        topic_name: displayName,
        visibility_policy: 3,
      }),
    );
    const modernState = await dev.post('/register', {
      fetch_event_types: ['user_topic'],
      ...capable,
    });
    expect(modernState.body.user_topics).toContainEqual(
      expect.objectContaining({ stream_id: designId, topic_name: '', visibility_policy: 3 }),
    );
  });

  it('names it in the message_details of update_message_flags', async () => {
    const farid = server.client('farid');
    const legacy = await registerQueue(farid, { event_types: ['update_message_flags'] });
    const modern = await registerQueue(farid, {
      event_types: ['update_message_flags'],
      ...capable,
    });
    const flag = (op: string) =>
      farid.post('/messages/flags', { messages: [messageId], op, flag: 'read' });
    expect((await flag('add')).status).toBe(200);
    expect((await flag('remove')).status).toBe(200);
    const isRemove = (e: { type: string; op?: string }) =>
      e.type === 'update_message_flags' && e.op === 'remove';
    expect((await legacy.waitFor(isRemove)).message_details[String(messageId)]).toMatchObject({
      type: 'stream',
      stream_id: designId,
      topic: displayName,
    });
    expect((await modern.waitFor(isRemove)).message_details[String(messageId)]).toMatchObject({
      type: 'stream',
      topic: '',
    });
  });
});
