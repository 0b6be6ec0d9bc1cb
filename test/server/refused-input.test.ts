// Bad input is refused with the API's error, and nothing of it is stored: NUL bytes in names and
// status texts, unprintable characters in topics, and required-in-context arguments reported as
// REQUEST_VARIABLE_MISSING with var_name.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../support/server';

let server: TestServer;

beforeAll(async () => {
  server = await startTestServer({ seed: 'demo' });
});
afterAll(async () => {
  await server.close();
});

describe('names and status texts', () => {
  it('refuses a NUL byte in POST /users full_name and creates nobody', async () => {
    const res = await server.client('admin').post('/users', {
      email: 'nul.name@tributary.local',
      password: 'a-good-password',
      full_name: 'Nul\u0000Name',
    });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ code: 'BAD_REQUEST', msg: 'Invalid characters in name!' });
    const users = await server.client('admin').get('/users');
    const emails = (users.body.members as { email: string }[]).map((u) => u.email);
    expect(emails).not.toContain('nul.name@tributary.local');
  });

  it('refuses control characters in PATCH /settings full_name and keeps the old name', async () => {
    const emma = server.client('emma');
    for (const bad of ['Emma\u0000', 'Em\u0007ma', 'Em\u009bma']) {
      const res = await emma.patch('/settings', { full_name: bad });
      expect(res.status).toBe(400);
      expect(res.body).toMatchObject({ code: 'BAD_REQUEST', msg: 'Invalid characters in name!' });
    }
    const me = await emma.get('/users/me');
    expect(me.body.full_name).toBe(server.users.emma.full_name);
  });

  it('refuses a NUL byte in status_text and keeps the previous status', async () => {
    const farid = server.client('farid');
    expect((await farid.post('/users/me/status', { status_text: 'In a meeting' })).status).toBe(
      200,
    );
    const res = await farid.post('/users/me/status', { status_text: 'Out\u0000side' });
    expect(res.status).toBe(400);
    expect(res.body.code).toBe('BAD_REQUEST');
    const state = await farid.post('/register', { fetch_event_types: ['user_status'] });
    expect(state.body.user_status[String(server.users.farid.user_id)]).toMatchObject({
      status_text: 'In a meeting',
    });
  });
});

describe('topics', () => {
  it('refuses unprintable characters in topics with "Invalid characters in topic!"', async () => {
    const dev = server.client('dev');
    const newestInDesign = async () =>
      (
        await dev.get('/messages', {
          anchor: 'newest',
          num_before: 1,
          num_after: 0,
          narrow: [{ operator: 'channel', operand: 'design' }],
        })
      ).body.messages.at(-1).id as number;
    const before = await newestInDesign();
    const sendToDesign = (topic: string, content: string) =>
      dev.post('/messages', { type: 'stream', to: 'design', topic, content });
    for (const topic of ['bell\u0007', 'tab\there', 'escape\u001b[31m', 'del\u007f', 'c1\u0085']) {
      const res = await sendToDesign(topic, 'should not be stored');
      expect(res.status, topic).toBe(400);
      expect(res.body).toMatchObject({ code: 'BAD_REQUEST', msg: 'Invalid characters in topic!' });
    }
    expect(await newestInDesign()).toBe(before);

    // Printable non-ASCII text is fine, and so are edits to a clean topic; a bad edit is refused.
    const ok = await sendToDesign('café ☕ 日本', 'fine');
    expect(ok.status).toBe(200);
    const edit = await dev.patch(`/messages/${ok.body.id}`, { topic: 'café\u0000' });
    expect(edit.status).toBe(400);
    const stored = await dev.get(`/messages/${ok.body.id}`);
    expect(stored.body.message.subject).toBe('café ☕ 日本');
  });
});

describe('missing arguments', () => {
  it('reports typing arguments missing for the chosen type with var_name', async () => {
    const dev = server.client('dev');
    expect((await dev.post('/typing', { op: 'start' })).body).toMatchObject({
      code: 'REQUEST_VARIABLE_MISSING',
      var_name: 'to',
      msg: "Missing 'to' argument",
    });
    expect(
      (await dev.post('/typing', { type: 'channel', op: 'start', topic: 'x' })).body,
    ).toMatchObject({ code: 'REQUEST_VARIABLE_MISSING', var_name: 'stream_id' });
    const design = (await dev.get('/get_stream_id', { stream: 'design' })).body.stream_id;
    expect(
      (await dev.post('/typing', { type: 'channel', op: 'start', stream_id: design })).body,
    ).toMatchObject({ code: 'REQUEST_VARIABLE_MISSING', var_name: 'topic' });
  });

  it('reports a password change without old_password as REQUEST_VARIABLE_MISSING', async () => {
    const res = await server
      .client('moderator')
      .patch('/settings', { new_password: 'whatever-123' });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ code: 'REQUEST_VARIABLE_MISSING', var_name: 'old_password' });
  });
});
