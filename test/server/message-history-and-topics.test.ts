// Endpoints the chat window needs: GET /messages/{id}/history (snapshots oldest first, by the
// realm's edit-history policy), GET /users/me/{stream_id}/topics (newest first, by message access)
// and GET /messages/{id} with apply_markdown=false (raw markdown to edit from).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../support/server';
import type { ApiClient } from '../support/client';

let server: TestServer;

beforeAll(async () => {
  server = await startTestServer({ seed: 'demo' });
});
afterAll(async () => {
  await server.close();
});

function setHistoryPolicy(policy: 'all' | 'moves' | 'none'): void {
  server.server.db
    .prepare(
      "UPDATE realm SET settings = json_set(settings, '$.message_edit_history_visibility_policy', ?) WHERE id = 1",
    )
    .run(policy);
}

async function channelId(client: ApiClient, name: string): Promise<number> {
  return (await client.get('/get_stream_id', { stream: name })).body.stream_id as number;
}

async function send(client: ApiClient, to: string, topic: string, content: string) {
  const res = await client.post('/messages', { type: 'stream', to, topic, content });
  expect(res.status, res.text).toBe(200);
  return res.body.id as number;
}

describe('GET /messages/{id}/history', () => {
  it('returns the original, each edit and each move, oldest first', async () => {
    const dev = server.client('dev');
    const emma = server.client('emma');
    const design = await channelId(dev, 'design');
    const random = await channelId(dev, 'random');
    const id = await send(dev, 'design', 'history one', 'first **draft**');
    expect((await dev.patch(`/messages/${id}`, { content: 'second **draft**' })).status).toBe(200);
    const moved = await dev.patch(`/messages/${id}`, {
      topic: 'history two',
      propagate_mode: 'change_one',
      send_notification_to_new_thread: false,
    });
    expect(moved.status, moved.text).toBe(200);
    const toRandom = await dev.patch(`/messages/${id}`, {
      stream_id: random,
      propagate_mode: 'change_one',
      send_notification_to_new_thread: false,
    });
    expect(toRandom.status, toRandom.text).toBe(200);

    const res = await emma.get(`/messages/${id}/history`);
    expect(res.status, res.text).toBe(200);
    const history = res.body.message_history as Array<Record<string, unknown>>;
    expect(history).toHaveLength(4);
    expect(history[0]).toEqual({
      topic: 'history one',
      content: 'first **draft**',
      rendered_content: '<p>first <strong>draft</strong></p>',
      timestamp: expect.any(Number),
      user_id: server.users.dev.user_id,
    });
    expect(history[1]).toMatchObject({
      topic: 'history one',
      content: 'second **draft**',
      rendered_content: '<p>second <strong>draft</strong></p>',
      prev_content: 'first **draft**',
      prev_rendered_content: '<p>first <strong>draft</strong></p>',
      user_id: server.users.dev.user_id,
    });
    expect(history[1]).not.toHaveProperty('prev_topic');
    expect(history[2]).toMatchObject({
      topic: 'history two',
      prev_topic: 'history one',
      content: 'second **draft**',
    });
    expect(history[2]).not.toHaveProperty('prev_content');
    expect(history[3]).toMatchObject({ prev_stream: design, stream: random, topic: 'history two' });
    const times = history.map((h) => h.timestamp as number);
    expect([...times].sort((a, b) => a - b)).toEqual(times);

    // 'moves': only the moves, and no earlier content shows through.
    setHistoryPolicy('moves');
    try {
      const moves = (await emma.get(`/messages/${id}/history`)).body.message_history as Array<
        Record<string, unknown>
      >;
      expect(moves.map((h) => h.topic)).toEqual(['history one', 'history two', 'history two']);
      expect(JSON.stringify(moves)).not.toContain('first');
      expect(moves.every((h) => !('prev_content' in h))).toBe(true);
      expect(moves[2]).toMatchObject({ prev_stream: design, stream: random });

      setHistoryPolicy('none');
      const none = await emma.get(`/messages/${id}/history`);
      expect(none.status).toBe(400);
      expect(none.body).toMatchObject({
        code: 'BAD_REQUEST',
        msg: 'Message edit history is disabled in this organization',
      });
    } finally {
      setHistoryPolicy('all');
    }
  });

  it('has one snapshot for an unedited message and refuses messages the caller cannot see', async () => {
    const dev = server.client('dev');
    const id = await send(dev, 'design', 'history plain', 'never edited');
    const plain = await server.client('farid').get(`/messages/${id}/history`);
    expect(plain.body.message_history).toEqual([
      {
        topic: 'history plain',
        content: 'never edited',
        rendered_content: '<p>never edited</p>',
        timestamp: expect.any(Number),
        user_id: server.users.dev.user_id,
      },
    ]);
    const secret = await send(server.client('admin'), 'leadership', 'private', 'secret plans');
    const refused = await dev.get(`/messages/${secret}/history`);
    expect(refused.status).toBe(400);
    expect(refused.body.msg).toBe('Invalid message(s)');
  });
});

describe('GET /users/me/{stream_id}/topics', () => {
  it('lists topics newest first with their newest message id, case-insensitively', async () => {
    const emma = server.client('emma');
    const random = await channelId(emma, 'random');
    const a = await send(emma, 'random', 'Topic Alpha', 'a1');
    const b = await send(emma, 'random', 'topic beta', 'b1');
    const a2 = await send(emma, 'random', 'topic alpha', 'a2');
    const res = await emma.get(`/users/me/${random}/topics`);
    expect(res.status, res.text).toBe(200);
    const topics = res.body.topics as Array<{ name: string; max_id: number }>;
    expect(topics.slice(0, 2)).toEqual([
      { name: 'topic alpha', max_id: a2 },
      { name: 'topic beta', max_id: b },
    ]);
    expect(topics.filter((t) => t.name.toLowerCase() === 'topic alpha')).toHaveLength(1);
    expect(topics.some((t) => t.max_id === a)).toBe(false);
    const ids = topics.map((t) => t.max_id);
    expect([...ids].sort((x, y) => y - x)).toEqual(ids);
  });

  it('names the empty topic unless allow_empty_topic_name, and hides channels the caller may not read', async () => {
    const admin = server.client('admin');
    const general = await channelId(admin, 'general');
    await send(admin, 'general', '', 'no topic here');
    const named = (await admin.get(`/users/me/${general}/topics`)).body.topics as Array<{
      name: string;
    }>;
    expect(named[0].name).toBe('general chat');
    const raw = (await admin.get(`/users/me/${general}/topics`, { allow_empty_topic_name: true }))
      .body.topics as Array<{ name: string }>;
    expect(raw[0].name).toBe('');

    const leadership = await channelId(admin, 'leadership');
    const refused = await server.client('dev').get(`/users/me/${leadership}/topics`);
    expect(refused.status).toBe(400);
    expect(refused.body).toMatchObject({ code: 'BAD_REQUEST', msg: 'Invalid channel ID' });
    const unknown = await server.client('dev').get('/users/me/999999/topics');
    expect(unknown.status).toBe(400);
  });
});

describe('GET /messages/{id}', () => {
  it('returns the raw markdown with apply_markdown=false', async () => {
    const dev = server.client('dev');
    const id = await send(dev, 'design', 'raw', 'some *markdown* and @**Emma Member**');
    const raw = await dev.get(`/messages/${id}`, { apply_markdown: false });
    expect(raw.status).toBe(200);
    expect(raw.body.message).toMatchObject({
      content: 'some *markdown* and @**Emma Member**',
      content_type: 'text/x-markdown',
    });
    expect(raw.body.raw_content).toBe('some *markdown* and @**Emma Member**');
    const html = await dev.get(`/messages/${id}`);
    expect(html.body.message.content).toContain('<em>markdown</em>');
    expect(html.body.message.content_type).toBe('text/html');
  });
});
