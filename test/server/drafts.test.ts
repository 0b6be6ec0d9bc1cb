// Drafts: GET/POST /drafts, PATCH/DELETE /drafts/{id}, drafts events, validation.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../support/server';
import { registerQueue } from '../support/events';

let server: TestServer;
let general: number;

beforeAll(async () => {
  server = await startTestServer();
  general = (await server.client('dev').get('/get_stream_id', { stream: 'general' })).body
    .stream_id;
});
afterAll(async () => {
  await server.close();
});

describe('drafts', () => {
  it('creates, lists, edits and deletes drafts with events on every queue of the owner', async () => {
    const dev = server.client('dev');
    const q = await registerQueue(dev, { event_types: ['drafts'] });
    const created = await dev.post('/drafts', {
      drafts: [
        {
          type: 'stream',
          to: [general],
          topic: 'plans',
          content: 'half-written',
          timestamp: 1700000000,
        },
        { type: 'private', to: [server.users.emma.user_id], topic: 'ignored', content: 'hi emma' },
        { type: '', to: [], topic: '', content: 'unaddressed' },
      ],
    });
    expect(created.status).toBe(200);
    expect(created.body.ids).toHaveLength(3);
    const [streamId, dmId] = created.body.ids;
    const add = await q.next();
    expect(add[0]).toMatchObject({ type: 'drafts', op: 'add' });
    expect(add[0].drafts.map((d: { id: number }) => d.id)).toEqual(created.body.ids);

    const list = await dev.get('/drafts');
    expect(list.body.count).toBe(3);
    const dm = list.body.drafts.find((d: { id: number }) => d.id === dmId);
    expect(dm).toMatchObject({
      type: 'private',
      to: [server.users.emma.user_id],
      topic: '',
      content: 'hi emma',
    });
    expect(dm.timestamp).toEqual(expect.any(Number));
    expect(list.body.drafts.find((d: { id: number }) => d.id === streamId).timestamp).toBe(
      1700000000,
    );

    const edit = await dev.patch(`/drafts/${streamId}`, {
      draft: { type: 'stream', to: [general], topic: 'plans', content: 'fully written' },
    });
    expect(edit.status).toBe(200);
    const [update] = await q.next();
    expect(update).toMatchObject({
      op: 'update',
      draft: { id: streamId, content: 'fully written' },
    });

    expect((await dev.delete(`/drafts/${streamId}`)).status).toBe(200);
    const [remove] = await q.next();
    expect(remove).toMatchObject({ op: 'remove', draft_id: streamId });
    expect((await dev.get('/drafts')).body.count).toBe(2);

    const register = await dev.post('/register', { fetch_event_types: ['drafts'] });
    expect(register.body.drafts).toHaveLength(2);
  });

  it('answers 404 BAD_REQUEST for a missing draft or another user draft', async () => {
    const created = await server.client('emma').post('/drafts', {
      drafts: [{ type: '', to: [], topic: '', content: 'mine' }],
    });
    const id = created.body.ids[0];
    const foreignEdit = await server.client('dev').patch(`/drafts/${id}`, {
      draft: { type: '', to: [], topic: '', content: 'stolen' },
    });
    expect(foreignEdit.status).toBe(404);
    expect(foreignEdit.body).toMatchObject({ code: 'BAD_REQUEST', msg: 'Draft does not exist' });
    const foreignDelete = await server.client('dev').delete(`/drafts/${id}`);
    expect(foreignDelete.status).toBe(404);
    expect(foreignDelete.body).toMatchObject({ code: 'BAD_REQUEST', msg: 'Draft does not exist' });
    const missing = await server.client('dev').delete('/drafts/999999');
    expect(missing.status).toBe(404);
    const still = await server.client('emma').get('/drafts');
    expect(still.body.drafts.find((d: { id: number }) => d.id === id).content).toBe('mine');
  });

  it('validates drafts and stores none of a batch with one bad draft', async () => {
    const dev = server.client('dev');
    const before = (await dev.get('/drafts')).body.count;
    const bad = [
      { type: 'stream', to: [general, general + 1], topic: 't', content: 'two channels' },
      { type: 'stream', to: [], topic: 't', content: 'no channel' },
      { type: 'nonsense', to: [], topic: '', content: 'x' },
      { type: '', to: [], topic: '', content: 'null\u0000byte' },
      { type: 'private', to: [987654], topic: '', content: 'nobody' },
    ];
    for (const draft of bad) {
      const res = await dev.post('/drafts', {
        drafts: [{ type: '', to: [], topic: '', content: 'fine' }, draft],
      });
      expect(res.status).toBe(400);
    }
    const two = await dev.post('/drafts', {
      drafts: [{ type: 'stream', to: [general, general + 1], topic: 't', content: 'x' }],
    });
    expect(two.body.msg).toBe('Must specify exactly 1 channel ID for channel messages');
    const leadership = (
      await server.client('admin').get('/get_stream_id', { stream: 'leadership' })
    ).body.stream_id;
    const hidden = await dev.post('/drafts', {
      drafts: [{ type: 'stream', to: [leadership], topic: 't', content: 'x' }],
    });
    expect(hidden.status).toBe(400);
    expect((await dev.get('/drafts')).body.count).toBe(before);
  });

  it('stores nothing for a user with draft synchronization off', async () => {
    const row = server.server.db
      .prepare('SELECT settings FROM user_settings WHERE user_id = ?')
      .get(server.users.farid.user_id) as { settings: string };
    const settings = { ...JSON.parse(row.settings), enable_drafts_synchronization: false };
    server.server.db
      .prepare('UPDATE user_settings SET settings = ? WHERE user_id = ?')
      .run(JSON.stringify(settings), server.users.farid.user_id);
    const res = await server
      .client('farid')
      .post('/drafts', { drafts: [{ type: '', to: [], topic: '', content: 'x' }] });
    expect(res.status).toBe(400);
    expect(res.body.code).toBe('BAD_REQUEST');
    expect((await server.client('farid').get('/drafts')).body).toMatchObject({
      count: 0,
      drafts: [],
    });
  });
});
