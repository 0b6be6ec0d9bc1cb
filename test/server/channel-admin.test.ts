// PATCH /streams/{id} and DELETE /streams/{id} (archive), with stream events and privacy.
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

async function createChannel(name: string): Promise<number> {
  const res = await server
    .client('emma')
    .post('/users/me/subscriptions', { subscriptions: [{ name }] });
  expect(res.status).toBe(200);
  return (await server.client('emma').get('/get_stream_id', { stream: name })).body.stream_id;
}

describe('PATCH /streams/{id}', () => {
  it('renames and describes a channel with stream update events', async () => {
    const id = await createChannel('old-name');
    const q = await registerQueue(server.client('farid'), { event_types: ['stream'] });
    const res = await server.client('admin').patch(`/streams/${id}`, {
      new_name: 'new-name',
      description: 'Now with **bold**',
    });
    expect(res.status).toBe(200);
    const events = await q.next();
    expect(events.map((e) => [e.op, e.property, e.value])).toEqual([
      ['update', 'name', 'new-name'],
      ['update', 'description', 'Now with **bold**'],
    ]);
    expect(events[1].rendered_description).toBe('<p>Now with <strong>bold</strong></p>');
    const stream = (await server.client('dev').get(`/streams/${id}`)).body.stream;
    expect(stream).toMatchObject({ name: 'new-name', description: 'Now with **bold**' });
  });

  it('making a channel private removes it from non-subscribers (stream delete) and back (create)', async () => {
    const id = await createChannel('going-private');
    const outsider = await registerQueue(server.client('farid'), { event_types: ['stream'] });
    const member = await registerQueue(server.client('emma'), { event_types: ['stream'] });
    expect(
      (await server.client('admin').patch(`/streams/${id}`, { is_private: true })).status,
    ).toBe(200);
    expect((await outsider.next())[0]).toMatchObject({ op: 'delete', stream_ids: [id] });
    const update = (await member.next())[0];
    expect(update).toMatchObject({
      op: 'update',
      property: 'invite_only',
      value: true,
      history_public_to_subscribers: true,
    });
    const faridStreams = await server.client('farid').get('/streams', { include_all: true });
    expect(faridStreams.body.streams.map((s: { stream_id: number }) => s.stream_id)).not.toContain(
      id,
    );
    expect(
      (await server.client('admin').patch(`/streams/${id}`, { is_private: false })).status,
    ).toBe(200);
    expect((await outsider.next())[0]).toMatchObject({
      op: 'create',
      streams: [{ stream_id: id, invite_only: false }],
    });
  });

  it('allows empty_topic_only only while every message is in the empty topic', async () => {
    const id = await createChannel('quiet-room');
    const admin = server.client('admin');
    const emma = server.client('emma');
    const post = (topic: string) =>
      emma.post('/messages', { type: 'stream', to: id, topic, content: 'hello' });
    expect((await post('')).status).toBe(200);
    // Only empty-topic messages so far: allowed, then back to the default.
    expect(
      (await admin.patch(`/streams/${id}`, { topics_policy: 'empty_topic_only' })).status,
    ).toBe(200);
    expect((await admin.patch(`/streams/${id}`, { topics_policy: 'inherit' })).status).toBe(200);

    expect((await post('a named topic')).status).toBe(200);
    const refused = await admin.patch(`/streams/${id}`, { topics_policy: 'empty_topic_only' });
    expect(refused.status).toBe(400);
    expect(refused.body.code).toBe('BAD_REQUEST');
    expect(refused.body.msg).toMatch(/all messages in this channel must be in the .* topic/);
    expect((await emma.get(`/streams/${id}`)).body.stream.topics_policy).toBe('inherit');
    // The named topic can still be posted to: nothing changed.
    expect((await post('a named topic')).status).toBe(200);
  });

  it('checks permissions and values, changing nothing on error', async () => {
    const id = await createChannel('guarded');
    const member = await server.client('dev').patch(`/streams/${id}`, { description: 'hijacked' });
    expect(member.status).toBe(400);
    const admin = server.client('admin');
    expect((await admin.patch(`/streams/${id}`, {})).status).toBe(400);
    expect((await admin.patch(`/streams/${id}`, { new_name: 'general' })).status).toBe(400);
    expect((await admin.patch(`/streams/${id}`, { new_name: 'x'.repeat(61) })).status).toBe(400);
    expect((await admin.patch(`/streams/${id}`, { message_retention_days: 5 })).status).toBe(400);
    expect((await admin.patch(`/streams/${id}`, { topics_policy: 'whatever' })).body.code).toBe(
      'REQUEST_VARIABLE_INVALID',
    );
    const leadership = (await admin.get('/get_stream_id', { stream: 'leadership' })).body.stream_id;
    expect(
      (await server.client('dev').patch(`/streams/${leadership}`, { description: 'x' })).status,
    ).toBe(400);
    expect((await server.client('dev').get(`/streams/${id}`)).body.stream.description).toBe('');
    // A channel administrator by group setting may edit.
    const owner = server.client('owner');
    const granted = await owner.patch(`/streams/${id}`, {
      can_administer_channel_group: {
        new: { direct_members: [server.users.dev.user_id], direct_subgroups: [] },
      },
    });
    expect(granted.status).toBe(200);
    expect(
      (await server.client('dev').patch(`/streams/${id}`, { description: 'mine now' })).status,
    ).toBe(200);
  });
});

describe('DELETE /streams/{id}', () => {
  it('archives: stream update for archived_channels clients, stream delete for others', async () => {
    const id = await createChannel('to-archive');
    const modern = await registerQueue(server.client('farid'), {
      event_types: ['stream'],
      client_capabilities: { archived_channels: true },
    });
    const legacy = await registerQueue(server.client('farid'), { event_types: ['stream'] });
    expect((await server.client('emma').delete(`/streams/${id}`)).status).toBe(400);
    expect((await server.client('admin').delete(`/streams/${id}`)).status).toBe(200);
    expect((await modern.next())[0]).toMatchObject({
      op: 'update',
      stream_id: id,
      property: 'is_archived',
      value: true,
    });
    expect((await legacy.next())[0]).toMatchObject({ op: 'delete', stream_ids: [id] });
    const listed = await server.client('farid').get('/streams');
    expect(listed.body.streams.map((s: { stream_id: number }) => s.stream_id)).not.toContain(id);
    const withArchived = await server.client('farid').get('/streams', { exclude_archived: false });
    expect(
      withArchived.body.streams.find((s: { stream_id: number }) => s.stream_id === id).is_archived,
    ).toBe(true);
    const join = await server
      .client('farid')
      .post('/users/me/subscriptions', { subscriptions: [{ name: 'to-archive' }] });
    expect(join.status).toBe(400);
    expect((await server.client('admin').delete(`/streams/${id}`)).status).toBe(400);
  });
});
