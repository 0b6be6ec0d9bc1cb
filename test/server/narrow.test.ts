// Narrows in GET /messages and GET /messages/matches_narrow: every operator, negation, both wire
// forms, FTS5 search with highlighting, and BAD_NARROW errors.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../support/server';
import { createChannel, ids, sendDirect, sendToChannel } from './messages-support';

let server: TestServer;
let uid: Record<string, number>;
let channelId: number;
const m: Record<string, number> = {};

beforeAll(async () => {
  server = await startTestServer({ seed: 'demo' });
  uid = server.userIds;
  channelId = await createChannel(server, server.client('owner'), 'narrowville', [
    uid.owner,
    uid.dev,
    uid.emma,
    uid.farid,
  ]);
  const dev = server.client('dev');
  const emma = server.client('emma');
  m.plain = await sendToChannel(dev, 'narrowville', 'Alpha', 'the quick brown fox');
  m.link = await sendToChannel(emma, 'narrowville', 'alpha', 'docs at https://example.com/guide');
  m.mention = await sendToChannel(dev, 'narrowville', 'beta', 'ping @**Emma Member** please');
  m.image = await sendToChannel(
    dev,
    'narrowville',
    'beta',
    '[shot](/user_uploads/1/aa/bb/shot.png)',
  );
  m.resolved = await sendToChannel(dev, 'narrowville', '✔ done deal', 'finished foxes');
  m.dm = await sendDirect(dev, [uid.emma], 'a private fox');
  m.group = await sendDirect(dev, [uid.emma, uid.farid], 'group hello');
  m.otherDm = await sendDirect(server.client('farid'), [uid.owner], 'not for emma');
  await emma.post('/messages/flags', { messages: [m.link], op: 'add', flag: 'starred' });
  await emma.post('/messages/flags', { messages: [m.plain, m.link], op: 'add', flag: 'read' });
  await emma.post(`/messages/${m.plain}/reactions`, { emoji_name: 'smile' });
});
afterAll(async () => {
  await server.close();
});

async function narrowIds(narrow: unknown, who = 'emma'): Promise<number[]> {
  const res = await server
    .client(who)
    .get('/messages', { anchor: 'newest', num_before: 1000, num_after: 0, narrow });
  expect(res.status, res.text).toBe(200);
  return ids(res).filter((id) => Object.values(m).includes(id));
}

const chan = { operator: 'channel', operand: 'narrowville' };

describe('operators', () => {
  it('channel by name or id, and the legacy stream alias and pair form', async () => {
    const expected = [m.plain, m.link, m.mention, m.image, m.resolved];
    expect(await narrowIds([chan])).toEqual(expected);
    expect(await narrowIds([{ operator: 'channel', operand: channelId }])).toEqual(expected);
    expect(await narrowIds([['stream', 'narrowville']])).toEqual(expected);
  });

  it('topic, case-insensitively', async () => {
    expect(await narrowIds([chan, { operator: 'topic', operand: 'ALPHA' }])).toEqual([
      m.plain,
      m.link,
    ]);
  });

  it('sender by email or id', async () => {
    expect(
      await narrowIds([chan, { operator: 'sender', operand: 'emma@tributary.local' }]),
    ).toEqual([m.link]);
    expect(await narrowIds([chan, { operator: 'sender', operand: uid.emma }])).toEqual([m.link]);
  });

  it('dm by emails or ids is the exact conversation; dm-including any conversation with a user', async () => {
    expect(await narrowIds([{ operator: 'dm', operand: 'dev@tributary.local' }])).toEqual([m.dm]);
    expect(await narrowIds([{ operator: 'dm', operand: [uid.dev, uid.farid] }])).toEqual([m.group]);
    expect(await narrowIds([{ operator: 'dm-including', operand: uid.farid }])).toEqual([m.group]);
    expect(await narrowIds([{ operator: 'is', operand: 'dm' }])).toEqual([m.dm, m.group]);
    // The owner's DM with farid never shows up for emma.
    expect(await narrowIds([{ operator: 'is', operand: 'private' }], 'owner')).toContain(m.otherDm);
  });

  it('is:starred, is:unread, is:mentioned, is:resolved', async () => {
    expect(await narrowIds([{ operator: 'is', operand: 'starred' }])).toEqual([m.link]);
    expect(await narrowIds([chan, { operator: 'is', operand: 'unread' }])).toEqual([
      m.mention,
      m.image,
      m.resolved,
    ]);
    expect(await narrowIds([{ operator: 'is', operand: 'mentioned' }])).toEqual([m.mention]);
    expect(await narrowIds([chan, { operator: 'is', operand: 'resolved' }])).toEqual([m.resolved]);
  });

  it('has:link, has:image, has:attachment, has:reaction and id', async () => {
    expect(await narrowIds([chan, { operator: 'has', operand: 'link' }])).toEqual([
      m.link,
      m.image,
    ]);
    expect(await narrowIds([chan, { operator: 'has', operand: 'image' }])).toEqual([m.image]);
    expect(await narrowIds([chan, { operator: 'has', operand: 'attachment' }])).toEqual([m.image]);
    expect(await narrowIds([chan, { operator: 'has', operand: 'reaction' }])).toEqual([m.plain]);
    expect(await narrowIds([{ operator: 'id', operand: m.mention }])).toEqual([m.mention]);
    expect(await narrowIds([{ operator: 'id', operand: String(m.mention) }])).toEqual([m.mention]);
  });

  it('negation excludes matches', async () => {
    expect(await narrowIds([chan, { operator: 'topic', operand: 'alpha', negated: true }])).toEqual(
      [m.mention, m.image, m.resolved],
    );
    expect(
      await narrowIds([chan, { operator: 'is', operand: 'starred', negated: true }]),
    ).not.toContain(m.link);
  });

  it('several excluded topics (one IN list) exclude each, case-insensitively, and keep DMs', async () => {
    const excluded = (topic: string, operator = 'topic') => ({
      operator,
      operand: topic,
      negated: true,
    });
    expect(
      await narrowIds([chan, excluded('ALPHA'), excluded('Beta', 'subject'), excluded('nothing')]),
    ).toEqual([m.resolved]);
    // Without a channel term: direct messages have no topic and are never excluded by one.
    expect(await narrowIds([excluded('alpha'), excluded('beta'), excluded('✔ done deal')])).toEqual(
      [m.dm, m.group],
    );
    // Excluded topics next to a positive topic term.
    expect(
      await narrowIds([chan, { operator: 'topic', operand: 'alpha' }, excluded('beta')]),
    ).toEqual([m.plain, m.link]);
  });
});

describe('search', () => {
  it('matches words and prefixes in content and topic, with highlights', async () => {
    const res = await server.client('emma').get('/messages', {
      anchor: 'newest',
      num_before: 100,
      num_after: 0,
      narrow: [chan, { operator: 'search', operand: 'fox' }],
    });
    expect(ids(res)).toEqual([m.plain, m.resolved]);
    const first = res.body.messages[0];
    expect(first.match_content).toBe('<p>the quick brown <span class="highlight">fox</span></p>');
    expect(first.match_subject).toBe('Alpha');
    const topicHit = await server.client('emma').get('/messages', {
      anchor: 'newest',
      num_before: 100,
      num_after: 0,
      narrow: [{ operator: 'search', operand: 'beta' }],
    });
    expect(ids(topicHit)).toEqual([m.mention, m.image]);
    expect(topicHit.body.messages[0].match_subject).toBe('<span class="highlight">beta</span>');
  });

  it('treats search syntax in user input as plain words', async () => {
    const res = await server.client('emma').get('/messages', {
      anchor: 'newest',
      num_before: 100,
      num_after: 0,
      narrow: [{ operator: 'search', operand: 'fox" OR "quick* NEAR(' }],
    });
    expect(res.status).toBe(200);
  });

  it('finds edited content and forgets the old text', async () => {
    const dev = server.client('dev');
    const id = await sendToChannel(dev, 'narrowville', 'edits', 'zebra crossing');
    await dev.patch(`/messages/${id}`, { content: 'giraffe crossing' });
    const search = (word: string) =>
      server.client('emma').get('/messages', {
        anchor: 'newest',
        num_before: 10,
        num_after: 0,
        narrow: [{ operator: 'search', operand: word }],
      });
    expect(ids(await search('zebra'))).toEqual([]);
    expect(ids(await search('giraffe'))).toEqual([id]);
  });
});

describe('BAD_NARROW', () => {
  const expectBad = async (narrow: unknown, desc: RegExp) => {
    const res = await server
      .client('emma')
      .get('/messages', { anchor: 'newest', num_before: 1, num_after: 0, narrow });
    expect(res.status).toBe(400);
    expect(res.body.code).toBe('BAD_NARROW');
    expect(res.body.desc).toMatch(desc);
    expect(res.body.msg).toBe(`Invalid narrow operator: ${res.body.desc}`);
  };

  it('rejects unknown operators and operands', async () => {
    await expectBad([{ operator: 'colour', operand: 'red' }], /unknown operator colour/);
    await expectBad([{ operator: 'is', operand: 'shiny' }], /unknown 'is' operand shiny/);
    await expectBad([{ operator: 'has', operand: 'video' }], /unknown 'has' operand/);
    await expectBad([{ operator: 'channel', operand: 'nowhere' }], /unknown channel nowhere/);
    await expectBad([{ operator: 'sender', operand: 'ghost@x.y' }], /unknown user/);
    await expectBad([{ operator: 'dm', operand: 'ghost@x.y' }], /unknown user/);
  });

  it('refuses channel and dm terms together', async () => {
    await expectBad([chan, { operator: 'dm', operand: 'dev@tributary.local' }], /both/);
    await expectBad([chan, { operator: 'is', operand: 'dm' }], /both/);
  });

  it("takes near's operand only as a string, as the public server does", async () => {
    const get = (operand: unknown) =>
      server.client('emma').get('/messages', {
        anchor: 'newest',
        num_before: 1,
        num_after: 0,
        narrow: [{ operator: 'near', operand }],
      });
    // The public server's own answer (../shared/fixtures/zulip-server/errors-fl372.json).
    expect((await get(m.plain)).body).toMatchObject({
      result: 'error',
      code: 'BAD_REQUEST',
      msg: 'operand is not a string',
    });
    const asString = await get(String(m.plain));
    expect(asString.status, asString.text).toBe(200);
  });

  it('rejects malformed narrow JSON as a parameter error', async () => {
    const res = await server
      .client('emma')
      .get('/messages', { anchor: 'newest', narrow: [{ operand: 'x' }] });
    expect(res.body).toMatchObject({ code: 'REQUEST_VARIABLE_INVALID', var_name: 'narrow' });
  });
});

describe('GET /messages/matches_narrow', () => {
  it('returns the matching ids with match_content and match_subject', async () => {
    const res = await server.client('emma').get('/messages/matches_narrow', {
      msg_ids: [m.plain, m.link, m.mention, m.otherDm],
      narrow: [{ operator: 'topic', operand: 'alpha' }],
    });
    expect(res.status).toBe(200);
    expect(
      Object.keys(res.body.messages)
        .map(Number)
        .sort((a, b) => a - b),
    ).toEqual([m.plain, m.link]);
    expect(res.body.messages[String(m.plain)]).toEqual({
      match_content: '<p>the quick brown fox</p>',
      match_subject: 'Alpha',
    });
    const searched = await server.client('emma').get('/messages/matches_narrow', {
      msg_ids: [m.plain, m.link],
      narrow: [{ operator: 'search', operand: 'quick' }],
    });
    expect(searched.body.messages[String(m.plain)].match_content).toContain(
      '<span class="highlight">quick</span>',
    );
    expect(searched.body.messages).not.toHaveProperty(String(m.link));
  });

  it('requires msg_ids and narrow', async () => {
    const res = await server.client('emma').get('/messages/matches_narrow', { narrow: [] });
    expect(res.body).toMatchObject({ code: 'REQUEST_VARIABLE_MISSING', var_name: 'msg_ids' });
  });
});
