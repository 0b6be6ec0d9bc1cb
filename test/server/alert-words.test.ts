// Alert words over HTTP: GET/POST/DELETE /users/me/alert_words (trimming, case-insensitive
// de-duplication, the length limit), alert_words events on a second queue of the same user, the
// register state, and the has_alert_word flag: on the message event and fetched messages of the
// recipients whose words occur as the public server matches them (the sender's included), re-evaluated
// on edit, and found by the is:alerted narrow.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../support/server';
import { registerQueue } from '../support/events';
import { createChannel, fetchMessages, sendDirect, sendToChannel } from './messages-support';

let server: TestServer;

beforeAll(async () => {
  server = await startTestServer();
});
afterAll(async () => {
  await server.close();
});

async function flagsOf(who: string, messageId: number): Promise<string[]> {
  const res = await server.client(who).get(`/messages/${messageId}`);
  expect(res.status, res.text).toBe(200);
  return (res.body.message as { flags: string[] }).flags;
}

describe('alert words', () => {
  it('adds, lists and removes words; each change is an event with the whole list', async () => {
    const dev = server.client('dev');
    const queue = await registerQueue(dev, { event_types: ['alert_words'] });
    expect(queue.state.alert_words).toEqual([]);
    const other = await registerQueue(dev, { event_types: ['alert_words'] });

    const added = await dev.post('/users/me/alert_words', {
      alert_words: [' Deploy ', 'deploy', 'FIRE', '   '],
    });
    expect(added.status, added.text).toBe(200);
    // Trimmed, blanks dropped; of two new words equal but for case the last one given is kept.
    expect(added.body.alert_words).toEqual(['deploy', 'FIRE']);
    const [event] = await other.next();
    expect(event).toMatchObject({ type: 'alert_words', alert_words: ['deploy', 'FIRE'] });

    const again = await dev.post('/users/me/alert_words', { alert_words: ['Fire', 'café'] });
    expect(again.body.alert_words).toEqual(['deploy', 'FIRE', 'café']);
    expect((await other.next())[0].alert_words).toEqual(['deploy', 'FIRE', 'café']);

    expect((await dev.get('/users/me/alert_words')).body.alert_words).toEqual([
      'deploy',
      'FIRE',
      'café',
    ]);
    const registered = await dev.post('/register', { fetch_event_types: ['alert_words'] });
    expect(registered.body.alert_words).toEqual(['deploy', 'FIRE', 'café']);

    // Removal ignores case; words the user does not have are ignored.
    const removed = await dev.delete('/users/me/alert_words', {
      alert_words: ['fire', 'absent'],
    });
    expect(removed.status, removed.text).toBe(200);
    expect(removed.body.alert_words).toEqual(['deploy', 'café']);
    expect((await other.next())[0].alert_words).toEqual(['deploy', 'café']);

    // The first queue saw the same three events.
    const seen = [...(await queue.next())];
    while (seen.length < 3) seen.push(...(await queue.next()));
    expect(seen.map((e) => e.alert_words.length)).toEqual([2, 3, 2]);

    // Another user's queue sees nothing of it.
    const emmaQueue = await registerQueue(server.client('emma'), { event_types: ['alert_words'] });
    await dev.post('/users/me/alert_words', { alert_words: ['quiet'] });
    expect(await emmaQueue.poll()).toEqual([]);
    await dev.delete('/users/me/alert_words', { alert_words: ['quiet', 'café'] });
  });

  it('refuses words over 100 characters and a missing or malformed list', async () => {
    const dev = server.client('dev');
    const long = await dev.post('/users/me/alert_words', { alert_words: ['x'.repeat(101)] });
    expect(long.status).toBe(400);
    expect(long.body).toMatchObject({
      code: 'BAD_REQUEST',
      msg: 'alert_words[0] is too long (limit: 100 characters)',
    });
    const exact = await dev.post('/users/me/alert_words', { alert_words: ['y'.repeat(100)] });
    expect(exact.status).toBe(200);
    await dev.delete('/users/me/alert_words', { alert_words: ['y'.repeat(100)] });

    const missing = await dev.post('/users/me/alert_words', {});
    expect(missing.status).toBe(400);
    expect(missing.body.msg).toBe("Missing 'alert_words' argument");
    const notList = await dev.post('/users/me/alert_words', { alert_words: '"deploy"' });
    expect(notList.status).toBe(400);
  });

  it('flags recipients whose words occur, the sender too, not partial words', async () => {
    const { dev, emma, farid } = server.userIds;
    await server.client('dev').post('/users/me/alert_words', { alert_words: ['deploy'] });
    await server.client('emma').post('/users/me/alert_words', { alert_words: ['Release Train'] });
    // The sender's own words flag their message too, as on the public server.
    await server.client('farid').post('/users/me/alert_words', { alert_words: ['deploy'] });
    const devQueue = await registerQueue(server.client('dev'), { event_types: ['message'] });

    const hit = await sendDirect(
      server.client('farid'),
      [dev, emma],
      'The DEPLOY is done, (release train) next.',
    );
    const [event] = await devQueue.next();
    expect(event).toMatchObject({ type: 'message', message: { id: hit } });
    expect(event.flags).toContain('has_alert_word');
    expect(await flagsOf('dev', hit)).toContain('has_alert_word');
    expect(await flagsOf('emma', hit)).toContain('has_alert_word');
    expect(await flagsOf('farid', hit)).toContain('has_alert_word');

    const partial = await sendDirect(server.client('farid'), [dev], 'redeploying, deployment');
    const [partialEvent] = await devQueue.next();
    expect(partialEvent.flags).not.toContain('has_alert_word');
    expect(await flagsOf('dev', partial)).not.toContain('has_alert_word');

    // The public server's boundary characters: brackets and most punctuation end a word; a
    // hyphen, a slash or a double quote after it do not.
    for (const [content, alerted] of [
      ['(deploy)', true],
      ['ready to [deploy]!', true],
      ['pre-deploy check', false],
      ['see /deploy/ docs', false],
      ['say "deploy" now', false],
      // The public server skips the check for a word at the text's second character.
      ['xdeploy', true],
      ['the xdeploy', false],
    ] as const) {
      const id = await sendDirect(server.client('farid'), [dev], content);
      expect((await flagsOf('dev', id)).includes('has_alert_word'), content).toBe(alerted);
    }

    // Inside a code span the word counts (the public server matches the source text); inside a
    // fenced code block it does not.
    const span = await sendDirect(server.client('farid'), [dev], 'run `deploy` now');
    expect(await flagsOf('dev', span)).toContain('has_alert_word');
    const fenced = await sendDirect(server.client('farid'), [dev], '```\ndeploy\n```');
    expect(await flagsOf('dev', fenced)).not.toContain('has_alert_word');

    // In a channel too, for every subscriber whose word occurs.
    await createChannel(server, server.client('farid'), 'alerts-room', [dev, emma, farid]);
    const inChannel = await sendToChannel(server.client('emma'), 'alerts-room', 'ops', 'deploy?');
    expect(await flagsOf('dev', inChannel)).toContain('has_alert_word');
    expect(await flagsOf('farid', inChannel)).toContain('has_alert_word');
    expect(await flagsOf('emma', inChannel)).not.toContain('has_alert_word');

    const alerted = await fetchMessages(server.client('dev'), {
      narrow: [{ operator: 'is', operand: 'alerted' }],
    });
    const alertedIds = (alerted.body.messages as Array<{ id: number }>).map((m) => m.id);
    expect(alertedIds).toEqual(expect.arrayContaining([hit, span, inChannel]));
    expect(alertedIds).not.toContain(partial);
    expect(alertedIds).not.toContain(fenced);
  });

  it('re-evaluates the flag when a message is edited', async () => {
    const { dev } = server.userIds;
    await server.client('dev').post('/users/me/alert_words', { alert_words: ['deploy'] });
    const farid = server.client('farid');
    const id = await sendDirect(farid, [dev], 'nothing to see');
    expect(await flagsOf('dev', id)).not.toContain('has_alert_word');

    expect((await farid.patch(`/messages/${id}`, { content: 'time to deploy' })).status).toBe(200);
    expect(await flagsOf('dev', id)).toContain('has_alert_word');

    expect((await farid.patch(`/messages/${id}`, { content: 'never mind' })).status).toBe(200);
    expect(await flagsOf('dev', id)).not.toContain('has_alert_word');
  });

  it('stops flagging once the word is removed', async () => {
    const { dev } = server.userIds;
    await server.client('dev').delete('/users/me/alert_words', { alert_words: ['DEPLOY'] });
    const id = await sendDirect(server.client('emma'), [dev], 'deploy again');
    expect(await flagsOf('dev', id)).not.toContain('has_alert_word');
  });
});
