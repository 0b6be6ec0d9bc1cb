// Reactions: POST/DELETE /messages/{id}/reactions with the three reaction types, their errors,
// reaction events to everyone who can see the message, and privacy.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../support/server';
import { registerQueue } from '../support/events';
import { createChannel, sendDirect, sendToChannel } from './messages-support';

let server: TestServer;
let uid: Record<string, number>;
let message: number;

beforeAll(async () => {
  server = await startTestServer({ seed: 'demo' });
  uid = server.userIds;
  await createChannel(server, server.client('owner'), 'reactland', [uid.owner, uid.dev, uid.emma]);
  message = await sendToChannel(server.client('dev'), 'reactland', 'faces', 'react to me');
});
afterAll(async () => {
  await server.close();
});

const reactionsOf = async (id: number, who = 'dev') =>
  (await server.client(who).get(`/messages/${id}`)).body.message.reactions;

describe('adding and removing', () => {
  it('adds a unicode emoji by name and tells every recipient', async () => {
    const devQ = await registerQueue(server.client('dev'), { event_types: ['reaction'] });
    const faridQ = await registerQueue(server.client('farid'), { event_types: ['reaction'] });
    const res = await server
      .client('emma')
      .post(`/messages/${message}/reactions`, { emoji_name: 'octopus' });
    expect(res.status, res.text).toBe(200);
    const event = await devQ.waitFor((e) => e.type === 'reaction');
    expect(event).toMatchObject({
      op: 'add',
      message_id: message,
      emoji_name: 'octopus',
      emoji_code: '1f419',
      reaction_type: 'unicode_emoji',
      user_id: uid.emma,
      user: { user_id: uid.emma, email: 'emma@tributary.local', full_name: 'Emma Member' },
    });
    // Farid is not subscribed to #reactland.
    expect(await faridQ.poll()).toEqual([]);
    expect(await reactionsOf(message)).toEqual([
      {
        emoji_name: 'octopus',
        emoji_code: '1f419',
        reaction_type: 'unicode_emoji',
        user_id: uid.emma,
      },
    ]);
  });

  it('refuses a duplicate with REACTION_ALREADY_EXISTS', async () => {
    const res = await server
      .client('emma')
      .post(`/messages/${message}/reactions`, { emoji_name: 'octopus', emoji_code: '1f419' });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({
      code: 'REACTION_ALREADY_EXISTS',
      msg: 'Reaction already exists.',
    });
  });

  it('removes by name or code and refuses a missing one with REACTION_DOES_NOT_EXIST', async () => {
    const emma = server.client('emma');
    const queue = await registerQueue(server.client('dev'), { event_types: ['reaction'] });
    const res = await emma.delete(`/messages/${message}/reactions`, { emoji_code: '1f419' });
    expect(res.status).toBe(200);
    const event = await queue.waitFor((e) => e.type === 'reaction');
    expect(event).toMatchObject({ op: 'remove', emoji_name: 'octopus', user_id: uid.emma });
    expect(await reactionsOf(message)).toEqual([]);
    const again = await emma.delete(`/messages/${message}/reactions`, { emoji_name: 'octopus' });
    expect(again.status).toBe(400);
    expect(again.body).toMatchObject({
      code: 'REACTION_DOES_NOT_EXIST',
      msg: "Reaction doesn't exist.",
    });
    const neither = await emma.delete(`/messages/${message}/reactions`, {});
    expect(neither.status).toBe(400);
  });

  it('keeps each user’s reactions separate and in order', async () => {
    await server.client('emma').post(`/messages/${message}/reactions`, { emoji_name: 'tada' });
    await server.client('dev').post(`/messages/${message}/reactions`, { emoji_name: 'tada' });
    await server.client('owner').post(`/messages/${message}/reactions`, { emoji_name: 'heart' });
    const reactions = await reactionsOf(message);
    expect(
      reactions.map((r: { user_id: number; emoji_name: string }) => [r.user_id, r.emoji_name]),
    ).toEqual([
      [uid.emma, 'tada'],
      [uid.dev, 'tada'],
      [uid.owner, 'heart'],
    ]);
  });
});

describe('reaction types and validation', () => {
  it('accepts extra emoji under both type names, answers the public one, rejects unknown realm emoji', async () => {
    const dev = server.client('dev');
    const extra = await dev.post(`/messages/${message}/reactions`, {
      emoji_name: 'zulip',
      emoji_code: 'zulip',
      reaction_type: 'svc_extra_emoji',
    });
    expect(extra.status, extra.text).toBe(200);
    // Answered with the public server's name for the spec's svc_extra_emoji.
    expect(await reactionsOf(message)).toContainEqual({
      emoji_name: 'zulip',
      emoji_code: 'zulip',
      reaction_type: 'zulip_extra_emoji',
      user_id: uid.dev,
    });
    const again = await dev.post(`/messages/${message}/reactions`, {
      emoji_name: 'zulip',
      emoji_code: 'zulip',
      reaction_type: 'zulip_extra_emoji',
    });
    expect(again.body.code).toBe('REACTION_ALREADY_EXISTS');
    const realm = await dev.post(`/messages/${message}/reactions`, {
      emoji_name: 'party_parrot',
      emoji_code: '42',
      reaction_type: 'realm_emoji',
    });
    expect(realm.status).toBe(400);
    expect(realm.body.code).toBe('BAD_REQUEST');
  });

  it('rejects unknown names, mismatched codes and unknown types', async () => {
    const dev = server.client('dev');
    const post = (params: Record<string, unknown>) =>
      dev.post(`/messages/${message}/reactions`, params);
    expect((await post({ emoji_name: 'not_an_emoji_at_all' })).body.code).toBe('BAD_REQUEST');
    expect((await post({ emoji_name: 'smile', emoji_code: '1f419' })).status).toBe(400);
    expect((await post({ emoji_name: 'smile', reaction_type: 'sticker' })).status).toBe(400);
    expect((await post({})).body).toMatchObject({
      code: 'REQUEST_VARIABLE_MISSING',
      var_name: 'emoji_name',
    });
    expect(await reactionsOf(message)).not.toContainEqual(
      expect.objectContaining({ emoji_name: 'smile' }),
    );
  });
});

describe("the public server's emoji names", () => {
  it('accepts every alias of a code and stores and sends the name given', async () => {
    const id = await sendToChannel(server.client('dev'), 'reactland', 'faces', 'aliases');
    const q = await registerQueue(server.client('dev'), { event_types: ['reaction'] });
    const thumbsUp = await server
      .client('emma')
      .post(`/messages/${id}/reactions`, { emoji_name: 'thumbs_up' });
    expect(thumbsUp.status, thumbsUp.text).toBe(200);
    expect(await q.waitFor((e) => e.type === 'reaction')).toMatchObject({
      op: 'add',
      emoji_name: 'thumbs_up',
      emoji_code: '1f44d',
      reaction_type: 'unicode_emoji',
    });
    // "+1" is the canonical name of the same code; "like" is another alias.
    const plusOne = await server
      .client('owner')
      .post(`/messages/${id}/reactions`, { emoji_name: 'like', emoji_code: '1f44d' });
    expect(plusOne.status, plusOne.text).toBe(200);
    // The same code under another alias is the same reaction.
    const again = await server
      .client('emma')
      .post(`/messages/${id}/reactions`, { emoji_name: '+1', emoji_code: '1f44d' });
    expect(again.body.code).toBe('REACTION_ALREADY_EXISTS');
    expect(await reactionsOf(id)).toEqual([
      expect.objectContaining({ emoji_name: 'thumbs_up', emoji_code: '1f44d', user_id: uid.emma }),
      expect.objectContaining({ emoji_name: 'like', emoji_code: '1f44d', user_id: uid.owner }),
    ]);
    // Removing by an alias finds the reaction by its code and reports the stored name.
    const removed = await server.client('emma').delete(`/messages/${id}/reactions`, {
      emoji_name: '+1',
    });
    expect(removed.status, removed.text).toBe(200);
    expect(await q.waitFor((e) => e.type === 'reaction' && e.op === 'remove')).toMatchObject({
      emoji_name: 'thumbs_up',
      emoji_code: '1f44d',
    });
    await server.client('owner').delete(`/messages/${id}/reactions`, { emoji_code: '1f44d' });
    expect(await reactionsOf(id)).toEqual([]);
  });

  it('refuses emoji-datasource names the public table lacks, a code with FE0F and a name of another code', async () => {
    const post = (params: Record<string, unknown>) =>
      server.client('dev').post(`/messages/${message}/reactions`, params);
    expect((await post({ emoji_name: 'thumbsup' })).body).toMatchObject({
      msg: "Emoji 'thumbsup' does not exist",
    });
    expect((await post({ emoji_name: 'heart', emoji_code: '2764-fe0f' })).body).toMatchObject({
      msg: 'Invalid emoji code.',
    });
    expect((await post({ emoji_name: 'like', emoji_code: '1f419' })).body).toMatchObject({
      msg: 'Invalid emoji name.',
    });
  });
});

describe('privacy', () => {
  it('refuses reactions to messages the user cannot see', async () => {
    const secret = await sendToChannel(server.client('owner'), 'leadership', 'staff only', 'shh');
    const dm = await sendDirect(server.client('owner'), [uid.emma], 'between us');
    const dev = server.client('dev');
    for (const id of [secret, dm, 999999]) {
      const res = await dev.post(`/messages/${id}/reactions`, { emoji_name: 'eyes' });
      expect(res.status).toBe(400);
      expect(res.body.msg).toBe('Invalid message(s)');
    }
    expect(await reactionsOf(secret, 'owner')).toEqual([]);
    const guest = await server
      .client('guest')
      .post(`/messages/${message}/reactions`, { emoji_name: 'eyes' });
    expect(guest.status).toBe(400);
  });

  it('lets a non-subscriber react to public history, which joins their history', async () => {
    const res = await server
      .client('farid')
      .post(`/messages/${message}/reactions`, { emoji_name: 'eyes' });
    expect(res.status).toBe(200);
    const flags = (await server.client('farid').get(`/messages/${message}`)).body.message.flags;
    expect(flags).toEqual(['read', 'historical']);
    const narrowed = await server.client('dev').get('/messages', {
      anchor: 'newest',
      num_before: 5,
      num_after: 0,
      narrow: [
        { operator: 'has', operand: 'reaction' },
        { operator: 'channel', operand: 'reactland' },
      ],
    });
    expect(narrowed.body.messages.map((m: { id: number }) => m.id)).toEqual([message]);
  });
});
