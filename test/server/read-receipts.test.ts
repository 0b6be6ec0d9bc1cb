// GET /messages/{id}/read_receipts: readers other than the sender, honouring each reader's
// send_read_receipts and the realm's enable_read_receipts.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../support/server';
import { sendToChannel, setRealmSettings } from './messages-support';

let server: TestServer;

beforeAll(async () => {
  server = await startTestServer();
});
afterAll(async () => {
  await server.close();
});

async function markRead(who: string, messageId: number): Promise<void> {
  const res = await server
    .client(who)
    .post('/messages/flags', { messages: [messageId], op: 'add', flag: 'read' });
  expect(res.status, res.text).toBe(200);
}

describe('read receipts', () => {
  it('lists who read a message, never its sender, and respects send_read_receipts', async () => {
    const messageId = await sendToChannel(server.client('dev'), 'general', 'receipts', 'read me');
    const receipts = () => server.client('dev').get(`/messages/${messageId}/read_receipts`);
    // The sender's own message is read for them, yet they are not listed.
    expect((await receipts()).body.user_ids).toEqual([]);

    await markRead('emma', messageId);
    await markRead('farid', messageId);
    expect((await receipts()).body.user_ids).toEqual(
      [server.userIds.emma, server.userIds.farid].sort((a, b) => a - b),
    );

    const off = await server.client('farid').patch('/settings', { send_read_receipts: false });
    expect(off.status, off.text).toBe(200);
    expect((await receipts()).body.user_ids).toEqual([server.userIds.emma]);
    // Anyone who can see the message may ask, and sees themselves when they have read it.
    const asEmma = await server.client('emma').get(`/messages/${messageId}/read_receipts`);
    expect(asEmma.body.user_ids).toEqual([server.userIds.emma]);
  });

  it('refuses when the organization disabled read receipts, and for unknown messages', async () => {
    const messageId = await sendToChannel(server.client('dev'), 'general', 'receipts', 'again');
    const unknown = await server.client('dev').get('/messages/999999/read_receipts');
    expect(unknown.status).toBe(400);
    expect(unknown.body.msg).toBe('Invalid message(s)');

    setRealmSettings(server, { enable_read_receipts: false });
    const refused = await server.client('dev').get(`/messages/${messageId}/read_receipts`);
    expect(refused.status).toBe(400);
    expect(refused.body).toMatchObject({
      result: 'error',
      code: 'BAD_REQUEST',
      msg: 'Read receipts are disabled in this Zulip organization.',
    });
    const state = await server.client('dev').post('/register', { fetch_event_types: ['realm'] });
    expect(state.body.realm_enable_read_receipts).toBe(false);
    setRealmSettings(server, { enable_read_receipts: true });
  });
});
