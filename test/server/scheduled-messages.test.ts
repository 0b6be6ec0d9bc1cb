// Scheduled messages and reminders: CRUD and validation over HTTP, events seen by a second queue
// of the owner, delivery at the time (real time, a couple of seconds ahead), delivery of what fell
// due while the server was down, and failures marked `failed` with a Notification Bot notice.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { setTimeout as sleep } from 'node:timers/promises';
import Database from 'better-sqlite3';
import { startTestServer, type TestServer } from '../support/server';
import { registerQueue } from '../support/events';
import { createChannel, fetchMessages, sendToChannel } from './messages-support';

let server: TestServer;
let general: number;

const inSeconds = (s: number) => Math.floor(Date.now() / 1000) + s;

beforeAll(async () => {
  server = await startTestServer({ heartbeatMs: 1000 });
  general = (await server.client('dev').get('/get_stream_id', { stream: 'general' })).body
    .stream_id;
});
afterAll(async () => {
  await server.close();
});

async function newestMessage(who: 'dev' | 'emma' | 'farid', narrow: unknown[] = []) {
  const res = await fetchMessages(server.client(who), { narrow, num_before: 1 });
  return res.body.messages.at(-1);
}

describe('scheduled messages', () => {
  it('creates, lists, edits and deletes with events on another queue of the owner', async () => {
    const dev = server.client('dev');
    const q = await registerQueue(dev, { event_types: ['scheduled_messages'] });
    expect(q.state.scheduled_messages).toEqual([]);
    const at = inSeconds(3600);
    const created = await dev.post('/scheduled_messages', {
      type: 'stream',
      to: general,
      topic: 'later',
      content: 'see you **tomorrow**',
      scheduled_delivery_timestamp: at,
    });
    expect(created.status, created.text).toBe(200);
    const id = created.body.scheduled_message_id as number;
    const add = await q.waitFor((e) => e.op === 'add');
    expect(add).toMatchObject({
      type: 'scheduled_messages',
      scheduled_messages: [
        {
          scheduled_message_id: id,
          type: 'stream',
          to: general,
          topic: 'later',
          content: 'see you **tomorrow**',
          rendered_content: '<p>see you <strong>tomorrow</strong></p>',
          scheduled_delivery_timestamp: at,
          failed: false,
        },
      ],
    });

    const dm = await dev.post('/scheduled_messages', {
      type: 'direct',
      to: JSON.stringify([server.userIds.emma]),
      content: 'psst',
      scheduled_delivery_timestamp: at - 60,
    });
    expect(dm.status, dm.text).toBe(200);
    const list = await dev.get('/scheduled_messages');
    // Soonest first; direct messages have no topic.
    expect(list.body.scheduled_messages.map((m: { to: unknown }) => m.to)).toEqual([
      [server.userIds.emma],
      general,
    ]);
    expect(list.body.scheduled_messages[0]).not.toHaveProperty('topic');
    expect(
      (await server.client('emma').get('/scheduled_messages')).body.scheduled_messages,
    ).toEqual([]);
    const registered = await registerQueue(dev, { fetch_event_types: ['scheduled_messages'] });
    expect(registered.state.scheduled_messages).toHaveLength(2);

    const edit = await dev.patch(`/scheduled_messages/${id}`, {
      content: 'see you on Monday',
      scheduled_delivery_timestamp: at + 60,
    });
    expect(edit.status, edit.text).toBe(200);
    const update = await q.waitFor((e) => e.op === 'update');
    expect(update.scheduled_message).toMatchObject({
      scheduled_message_id: id,
      content: 'see you on Monday',
      scheduled_delivery_timestamp: at + 60,
      topic: 'later',
    });

    const moved = await dev.patch(`/scheduled_messages/${id}`, {
      type: 'direct',
      to: JSON.stringify([server.userIds.farid]),
    });
    expect(moved.status, moved.text).toBe(200);
    expect((await q.waitFor((e) => e.op === 'update')).scheduled_message).toMatchObject({
      type: 'private',
      to: [server.userIds.farid],
    });

    expect((await dev.delete(`/scheduled_messages/${id}`)).status).toBe(200);
    expect(await q.waitFor((e) => e.op === 'remove')).toMatchObject({
      type: 'scheduled_messages',
      scheduled_message_id: id,
    });
    const gone = await dev.delete(`/scheduled_messages/${id}`);
    expect(gone.status).toBe(404);
    expect(gone.body).toMatchObject({
      code: 'BAD_REQUEST',
      msg: 'Scheduled message does not exist',
    });
    expect((await dev.delete(`/scheduled_messages/${dm.body.scheduled_message_id}`)).status).toBe(
      200,
    );
  });

  it('refuses past times, bad destinations, empty edits and other users’ messages', async () => {
    const dev = server.client('dev');
    const past = await dev.post('/scheduled_messages', {
      type: 'stream',
      to: general,
      topic: 't',
      content: 'x',
      scheduled_delivery_timestamp: inSeconds(-10),
    });
    expect(past.status).toBe(400);
    expect(past.body.msg).toBe('Scheduled delivery time must be in the future.');
    const noChannel = await dev.post('/scheduled_messages', {
      type: 'stream',
      to: 99999,
      topic: 't',
      content: 'x',
      scheduled_delivery_timestamp: inSeconds(600),
    });
    expect(noChannel.body).toMatchObject({ code: 'STREAM_DOES_NOT_EXIST' });
    const empty = await dev.post('/scheduled_messages', {
      type: 'stream',
      to: general,
      topic: 't',
      content: '   ',
      scheduled_delivery_timestamp: inSeconds(600),
    });
    expect(empty.status).toBe(400);

    const ok = await dev.post('/scheduled_messages', {
      type: 'stream',
      to: general,
      topic: 't',
      content: 'x',
      scheduled_delivery_timestamp: inSeconds(600),
    });
    const id = ok.body.scheduled_message_id as number;
    expect((await dev.patch(`/scheduled_messages/${id}`, {})).body.msg).toBe('Nothing to change');
    expect((await dev.patch(`/scheduled_messages/${id}`, { type: 'direct' })).body.msg).toBe(
      'Recipient required when updating type of scheduled message.',
    );
    expect(
      (
        await dev.patch(`/scheduled_messages/${id}`, {
          scheduled_delivery_timestamp: inSeconds(-1),
        })
      ).body.msg,
    ).toBe('Scheduled delivery time must be in the future.');
    const foreign = await server.client('emma').patch(`/scheduled_messages/${id}`, {
      content: 'mine now',
    });
    expect(foreign.status).toBe(404);
    expect((await server.client('emma').delete(`/scheduled_messages/${id}`)).status).toBe(404);
    await dev.delete(`/scheduled_messages/${id}`);
  });

  it('delivers at the time as the owner, seen by the recipients, and leaves the list', async () => {
    const dev = server.client('dev');
    const ownQueue = await registerQueue(dev, { event_types: ['scheduled_messages'] });
    const emmaQueue = await registerQueue(server.client('emma'), { event_types: ['message'] });
    const at = inSeconds(2);
    const res = await dev.post('/scheduled_messages', {
      type: 'direct',
      to: JSON.stringify([server.userIds.emma]),
      content: 'right on time',
      scheduled_delivery_timestamp: at,
    });
    const id = res.body.scheduled_message_id as number;
    const arrived = await emmaQueue.waitFor((e) => e.type === 'message');
    expect(arrived.message).toMatchObject({
      sender_id: server.userIds.dev,
      content: 'right on time',
      type: 'private',
    });
    // Never early: the message carries the time it was actually sent.
    expect(arrived.message.timestamp).toBeGreaterThanOrEqual(at);
    expect(await ownQueue.waitFor((e) => e.op === 'remove')).toMatchObject({
      scheduled_message_id: id,
    });
    expect((await dev.get('/scheduled_messages')).body.scheduled_messages).toEqual([]);
  });

  it('delivers what fell due while the server was down, and arms the next after a restart', async () => {
    const dev = server.client('dev');
    const overdue = await dev.post('/scheduled_messages', {
      type: 'stream',
      to: general,
      topic: 'restart',
      content: 'sent while down',
      scheduled_delivery_timestamp: inSeconds(1),
    });
    expect(overdue.status, overdue.text).toBe(200);
    const later = await dev.post('/scheduled_messages', {
      type: 'stream',
      to: general,
      topic: 'restart',
      content: 'sent after the restart',
      scheduled_delivery_timestamp: inSeconds(4),
    });
    expect(later.status, later.text).toBe(200);
    await server.server.close();
    await sleep(2100);
    await server.restart();
    const narrow = [
      { operator: 'channel', operand: 'general' },
      { operator: 'topic', operand: 'restart' },
    ];
    expect((await newestMessage('emma', narrow)).content).toBe('<p>sent while down</p>');
    const remaining = (await dev.get('/scheduled_messages')).body.scheduled_messages;
    expect(remaining.map((m: { scheduled_message_id: number }) => m.scheduled_message_id)).toEqual([
      later.body.scheduled_message_id,
    ]);
    const q = await registerQueue(server.client('emma'), { event_types: ['message'] });
    const arrived = await q.waitFor((e) => e.type === 'message');
    expect(arrived.message.content).toBe('sent after the restart');
  });

  it('does not send a message over ten minutes late after downtime; a new time retries it', async () => {
    const farid = server.client('farid');
    const res = await farid.post('/scheduled_messages', {
      type: 'stream',
      to: general,
      topic: 'stale',
      content: 'too late now',
      scheduled_delivery_timestamp: inSeconds(3600),
    });
    const id = res.body.scheduled_message_id as number;
    await server.server.close();
    // As if the server had been down since eleven minutes after the message's time (set while the
    // server is stopped, so no timer of its own sees the row first).
    const db = new Database(`${server.dataDir}/realm.sqlite3`);
    db.prepare('UPDATE scheduled_messages SET scheduled_delivery_timestamp = ? WHERE id = ?').run(
      inSeconds(-660),
      id,
    );
    db.close();
    await server.restart();
    const [failed] = (await farid.get('/scheduled_messages')).body.scheduled_messages;
    expect(failed).toMatchObject({ scheduled_message_id: id, failed: true });
    const notice = await newestMessage('farid');
    expect(notice.sender_email).toBe('notification-bot@tributary.local');
    expect(notice.content).toContain('Message could not be sent at the scheduled time.');

    const noTime = await farid.patch(`/scheduled_messages/${id}`, { content: 'try again' });
    expect(noTime.body.msg).toBe('Scheduled delivery time must be in the future.');
    const retried = await farid.patch(`/scheduled_messages/${id}`, {
      scheduled_delivery_timestamp: inSeconds(3600),
    });
    expect(retried.status, retried.text).toBe(200);
    expect((await farid.get('/scheduled_messages')).body.scheduled_messages[0].failed).toBe(false);
    await farid.delete(`/scheduled_messages/${id}`);
  });

  it('marks a message that can no longer be sent as failed and tells its owner', async () => {
    const owner = server.client('owner');
    const channel = await createChannel(server, owner, 'short-lived', [server.userIds.owner]);
    const q = await registerQueue(owner, { event_types: ['scheduled_messages', 'message'] });
    const res = await owner.post('/scheduled_messages', {
      type: 'stream',
      to: channel,
      topic: 'soon',
      content: 'into the void',
      scheduled_delivery_timestamp: inSeconds(2),
    });
    const id = res.body.scheduled_message_id as number;
    expect((await owner.delete(`/streams/${channel}`)).status).toBe(200);
    const update = await q.waitFor((e) => e.type === 'scheduled_messages' && e.op === 'update');
    expect(update.scheduled_message).toMatchObject({ scheduled_message_id: id, failed: true });
    const notice = await q.waitFor((e) => e.type === 'message');
    expect(notice.message.sender_email).toBe('notification-bot@tributary.local');
    expect(notice.message.content).toContain('was not sent because of the following error');
    const listed = (await owner.get('/scheduled_messages')).body.scheduled_messages;
    expect(listed).toEqual([expect.objectContaining({ scheduled_message_id: id, failed: true })]);
    await owner.delete(`/scheduled_messages/${id}`);
  });
});

describe('reminders', () => {
  it('the Notification Bot reminds the user of a message at the time', async () => {
    const farid = server.client('farid');
    const messageId = await sendToChannel(server.client('emma'), 'general', 'plans', 'lunch at 1');
    const q = await registerQueue(farid, { event_types: ['reminders', 'message'] });
    expect(q.state.reminders).toEqual([]);
    const bad = await farid.post('/reminders', {
      message_id: messageId,
      scheduled_delivery_timestamp: inSeconds(-5),
    });
    expect(bad.body.msg).toBe('Scheduled delivery time must be in the future.');
    const res = await farid.post('/reminders', {
      message_id: messageId,
      scheduled_delivery_timestamp: inSeconds(2),
    });
    expect(res.status, res.text).toBe(200);
    const add = await q.waitFor((e) => e.type === 'reminders' && e.op === 'add');
    expect(add.reminders[0]).toMatchObject({
      reminder_id: res.body.reminder_id,
      reminder_target_message_id: messageId,
      type: 'private',
      to: [server.userIds.farid],
    });
    expect((await farid.get('/reminders')).body.reminders).toHaveLength(1);
    const dm = await q.waitFor((e) => e.type === 'message');
    expect(dm.message.sender_email).toBe('notification-bot@tributary.local');
    expect(dm.message.content).toContain('You requested a reminder for');
    expect(dm.message.content).toContain('lunch at 1');
    expect(await q.waitFor((e) => e.type === 'reminders')).toMatchObject({
      op: 'remove',
      reminder_id: res.body.reminder_id,
    });
    expect((await farid.get('/reminders')).body.reminders).toEqual([]);
    expect((await farid.get('/scheduled_messages')).body.scheduled_messages).toEqual([]);
  });
});
