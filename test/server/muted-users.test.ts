// Muted users over HTTP: POST/DELETE /users/me/muted_users/{id} with the public server's errors, the
// muted_users register state, and muted_users events seen on a second queue of the same user.
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

const mutedIds = async (who: string) =>
  (
    (await server.client(who).post('/register', { fetch_event_types: ['muted_users'] })).body
      .muted_users as Array<{ id: number; timestamp: number }>
  ).map((entry) => entry.id);

describe('muted users', () => {
  it('mutes and unmutes; every change is a muted_users event with the whole list', async () => {
    const emmaId = server.userIds.emma;
    const faridId = server.userIds.farid;
    const queue = await registerQueue(server.client('dev'), { event_types: ['muted_users'] });
    const otherUsersQueue = await registerQueue(server.client('emma'), {
      event_types: ['muted_users'],
    });
    expect(await mutedIds('dev')).toEqual([]);

    expect((await server.client('dev').post(`/users/me/muted_users/${emmaId}`)).status).toBe(200);
    const [first] = await queue.next();
    expect(first).toMatchObject({ type: 'muted_users', muted_users: [{ id: emmaId }] });
    expect(typeof first.muted_users[0].timestamp).toBe('number');

    expect((await server.client('dev').post(`/users/me/muted_users/${faridId}`)).status).toBe(200);
    const [second] = await queue.next();
    expect(second.muted_users.map((m: { id: number }) => m.id).sort()).toEqual(
      [emmaId, faridId].sort(),
    );
    expect((await mutedIds('dev')).sort()).toEqual([emmaId, faridId].sort());

    expect((await server.client('dev').delete(`/users/me/muted_users/${emmaId}`)).status).toBe(200);
    const [third] = await queue.next();
    expect(third.muted_users).toEqual([{ id: faridId, timestamp: expect.any(Number) }]);
    expect(await mutedIds('dev')).toEqual([faridId]);

    // Muting is private: the muted user's own queue saw nothing.
    expect(await otherUsersQueue.poll()).toEqual([]);
  });

  it('refuses what the public server refuses, with its messages', async () => {
    const dev = server.client('dev');
    const self = await dev.post(`/users/me/muted_users/${server.userIds.dev}`);
    expect(self.status).toBe(400);
    expect(self.body).toMatchObject({ code: 'BAD_REQUEST', msg: 'Cannot mute self' });

    const unknown = await dev.post('/users/me/muted_users/999999');
    expect(unknown.body).toMatchObject({ code: 'BAD_REQUEST', msg: 'No such user' });

    await dev.post(`/users/me/muted_users/${server.userIds.guest}`);
    const again = await dev.post(`/users/me/muted_users/${server.userIds.guest}`);
    expect(again.status).toBe(400);
    expect(again.body.msg).toBe('User already muted');

    const notMuted = await dev.delete(`/users/me/muted_users/${server.userIds.moderator}`);
    expect(notMuted.status).toBe(400);
    expect(notMuted.body.msg).toBe('User is not muted');
  });

  it("marks the muted user's messages read, with an update_message_flags event", async () => {
    const moderator = server.client('moderator');
    const sent = await server.client('farid').post('/messages', {
      type: 'private',
      to: JSON.stringify([server.userIds.moderator]),
      content: 'Something to ignore',
    });
    expect(sent.status).toBe(200);
    const queue = await registerQueue(moderator, {
      event_types: ['muted_users', 'update_message_flags'],
    });
    expect((await moderator.post(`/users/me/muted_users/${server.userIds.farid}`)).status).toBe(
      200,
    );
    const flags = await queue.waitFor((e) => e.type === 'update_message_flags');
    expect(flags).toMatchObject({ op: 'add', flag: 'read' });
    expect(flags.messages).toContain(sent.body.id);
    const unread = await moderator.get('/messages', {
      anchor: 'newest',
      num_before: 50,
      num_after: 0,
      narrow: JSON.stringify([{ operator: 'sender', operand: server.userIds.farid }]),
    });
    const fetched = unread.body.messages as Array<{ id: number; flags: string[] }>;
    expect(fetched.map((m) => m.id)).toContain(sent.body.id);
    expect(fetched.every((m) => m.flags.includes('read'))).toBe(true);
  });

  it('delivers messages from a muted user already read, to the muter only', async () => {
    // The moderator muted Farid in the test before.
    const sent = await server.client('farid').post('/messages', {
      type: 'private',
      to: JSON.stringify([server.userIds.moderator, server.userIds.emma]),
      content: 'Sent after the mute',
    });
    expect(sent.status).toBe(200);
    const flagsOf = async (who: string) =>
      (await server.client(who).get(`/messages/${sent.body.id}`)).body.message.flags as string[];
    expect(await flagsOf('moderator')).toContain('read');
    expect(await flagsOf('emma')).not.toContain('read');
  });

  it('allows muting a bot, as the public server does', async () => {
    const res = await server
      .client('emma')
      .post(`/users/me/muted_users/${server.userIds.helperBot}`);
    expect(res.status).toBe(200);
    expect(await mutedIds('emma')).toEqual([server.userIds.helperBot]);
  });
});
