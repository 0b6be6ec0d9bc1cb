// DELETE /messages/{id}: who may delete (sender within the limit, administrators), delete_message
// events in both forms, and that everything hanging off the message goes with it.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../support/server';
import { registerQueue } from '../support/events';
import {
  ageMessage,
  createChannel,
  fetchMessages,
  ids,
  sendDirect,
  sendToChannel,
  setRealmSettings,
} from './messages-support';

let server: TestServer;
let uid: Record<string, number>;
let channelId: number;

beforeAll(async () => {
  server = await startTestServer({ seed: 'demo' });
  uid = server.userIds;
  channelId = await createChannel(server, server.client('owner'), 'deleteland', [
    uid.owner,
    uid.dev,
    uid.emma,
  ]);
});
afterAll(async () => {
  await server.close();
});

describe('DELETE /messages/{id}', () => {
  it('lets the sender delete, with events in bulk and per-id form, and removes all traces', async () => {
    const dev = server.client('dev');
    const id = await sendToChannel(dev, 'deleteland', 'doomed', 'unique-walrus-word');
    await server.client('emma').post(`/messages/${id}/reactions`, { emoji_name: 'smile' });
    const bulk = await registerQueue(server.client('emma'), {
      client_capabilities: { bulk_message_deletion: true },
    });
    const single = await registerQueue(server.client('owner'));
    const outsider = await registerQueue(server.client('farid'));
    const res = await dev.delete(`/messages/${id}`);
    expect(res.status, res.text).toBe(200);
    expect(await bulk.waitFor((e) => e.type === 'delete_message')).toMatchObject({
      message_ids: [id],
      message_type: 'stream',
      stream_id: channelId,
      topic: 'doomed',
    });
    const perId = await single.waitFor((e) => e.type === 'delete_message');
    expect(perId).toMatchObject({ message_id: id, message_type: 'stream' });
    expect(perId).not.toHaveProperty('message_ids');
    expect((await outsider.poll()).filter((e) => e.type === 'delete_message')).toEqual([]);
    expect((await dev.get(`/messages/${id}`)).status).toBe(400);
    const search = await fetchMessages(dev, {
      narrow: [{ operator: 'search', operand: 'unique-walrus-word' }],
    });
    expect(ids(search)).toEqual([]);
    const db = server.server.db;
    expect(db.prepare('SELECT COUNT(*) AS n FROM reactions WHERE message_id = ?').get(id)).toEqual({
      n: 0,
    });
    expect(
      db.prepare('SELECT COUNT(*) AS n FROM user_messages WHERE message_id = ?').get(id),
    ).toEqual({
      n: 0,
    });
  });

  it('deletes direct messages with message_type private', async () => {
    const dev = server.client('dev');
    const id = await sendDirect(dev, [uid.emma], 'oops');
    const queue = await registerQueue(server.client('emma'), {
      client_capabilities: { bulk_message_deletion: true },
    });
    expect((await dev.delete(`/messages/${id}`)).status).toBe(200);
    const event = await queue.waitFor((e) => e.type === 'delete_message');
    expect(event).toMatchObject({ message_type: 'private', message_ids: [id] });
    expect(event).not.toHaveProperty('stream_id');
  });

  it('refuses other members, allows administrators', async () => {
    const id = await sendToChannel(server.client('dev'), 'deleteland', 'others', 'not yours');
    const emma = await server.client('emma').delete(`/messages/${id}`);
    expect(emma.status).toBe(400);
    expect(emma.body.code).toBe('BAD_REQUEST');
    expect((await server.client('dev').get(`/messages/${id}`)).status).toBe(200);
    expect((await server.client('admin').delete(`/messages/${id}`)).status).toBe(200);
  });

  it('applies message_content_delete_limit_seconds to senders only', async () => {
    const dev = server.client('dev');
    const id = await sendToChannel(dev, 'deleteland', 'old', 'old news');
    ageMessage(server, id, 7200);
    setRealmSettings(server, { message_content_delete_limit_seconds: 3600 });
    try {
      const late = await dev.delete(`/messages/${id}`);
      expect(late.status).toBe(400);
      expect(late.body.msg).toMatch(/time limit/);
      expect((await server.client('owner').delete(`/messages/${id}`)).status).toBe(200);
    } finally {
      setRealmSettings(server, { message_content_delete_limit_seconds: null });
    }
  });

  it('tells the channel its new first_message_id when its oldest message goes, as GET /streams says', async () => {
    const owner = server.client('owner');
    const streamId = await createChannel(server, owner, 'firstgone', [uid.owner, uid.dev]);
    const dev = server.client('dev');
    const [a, b, c] = [
      await sendToChannel(dev, 'firstgone', 'one', 'a'),
      await sendToChannel(dev, 'firstgone', 'two', 'b'),
      await sendToChannel(dev, 'firstgone', 'one', 'c'),
    ];
    const firstOf = async () =>
      (
        (await owner.get('/streams')).body.streams as {
          stream_id: number;
          first_message_id: number;
        }[]
      ).find((st) => st.stream_id === streamId)?.first_message_id;
    const queue = await registerQueue(owner, {
      client_capabilities: { bulk_message_deletion: true },
    });
    const isFirstUpdate = (e: { type: string; op?: string; property?: string }) =>
      e.type === 'stream' && e.op === 'update' && e.property === 'first_message_id';

    // Not the oldest: no update.
    expect((await dev.delete(`/messages/${b}`)).status).toBe(200);
    await queue.waitFor((e) => e.type === 'delete_message');
    expect((await queue.poll()).filter(isFirstUpdate)).toEqual([]);

    expect((await dev.delete(`/messages/${a}`)).status).toBe(200);
    const update = await queue.waitFor(isFirstUpdate);
    expect(update).toMatchObject({ stream_id: streamId, name: 'firstgone', value: c });
    // The update comes before the deletion it follows from, as on the public server.
    const deletion = await queue.waitFor((e) => e.type === 'delete_message');
    expect(update.id).toBeLessThan(deletion.id);
    expect(await firstOf()).toBe(c);

    expect((await dev.delete(`/messages/${c}`)).status).toBe(200);
    expect((await queue.waitFor(isFirstUpdate)).value).toBeNull();
    expect(await firstOf()).toBeNull();
  });

  it('answers Invalid message(s) for messages the user cannot see', async () => {
    const secret = await sendToChannel(server.client('owner'), 'leadership', 'staff', 'hidden');
    const res = await server.client('dev').delete(`/messages/${secret}`);
    expect(res.status).toBe(400);
    expect(res.body.msg).toBe('Invalid message(s)');
    expect((await server.client('owner').get(`/messages/${secret}`)).status).toBe(200);
    expect((await server.client('dev').delete('/messages/abc')).body.code).toBe(
      'REQUEST_VARIABLE_INVALID',
    );
  });
});
