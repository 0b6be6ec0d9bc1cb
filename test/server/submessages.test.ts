// Widgets: /poll and /todo messages get their widget submessage at send time, POST /submessage
// adds votes, options and tasks with the public server's checks, and submessage events reach
// everyone who received the message. Real server over HTTP, a second client watching events.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../support/server';
import { registerQueue } from '../support/events';
import { widgetContentFor, pythonJson } from '../../server/realm/widgets';
import { createChannel, sendDirect, sendToChannel } from './messages-support';

let server: TestServer;
let uid: Record<string, number>;

beforeAll(async () => {
  server = await startTestServer({ seed: 'demo' });
  uid = server.userIds;
  await createChannel(server, server.client('owner'), 'polls', [uid.owner, uid.dev, uid.emma]);
});
afterAll(async () => {
  await server.close();
});

const submessagesOf = async (id: number, who = 'dev') =>
  (await server.client(who).get(`/messages/${id}`)).body.message.submessages;

const submit = (who: string, messageId: number, content: unknown, msgType = 'widget') =>
  server.client(who).post('/submessage', {
    message_id: messageId,
    msg_type: msgType,
    content: typeof content === 'string' ? content : JSON.stringify(content),
  });

describe('parsing /poll and /todo as the public server does', () => {
  it('reads the question and options, dropping list markers and blank lines', () => {
    expect(widgetContentFor('/poll Lunch?\nPizza\n- Salad\n\n* Soup  \n')).toEqual({
      widget_type: 'poll',
      extra_data: { question: 'Lunch?', options: ['Pizza', 'Salad', 'Soup'] },
    });
    // An empty first line is not a question: the options start at once.
    expect(widgetContentFor('/poll\nA\nB')).toEqual({
      widget_type: 'poll',
      extra_data: { question: '', options: ['A', 'B'] },
    });
    expect(widgetContentFor('/poll')).toEqual({
      widget_type: 'poll',
      extra_data: { question: '', options: [] },
    });
  });

  it('reads the title and tasks with descriptions after the first ": "', () => {
    expect(widgetContentFor('/todo Trip\n- Tickets: by Friday: early\nPack')).toEqual({
      widget_type: 'todo',
      extra_data: {
        task_list_title: 'Trip',
        tasks: [
          { task: 'Tickets', desc: 'by Friday: early' },
          { task: 'Pack', desc: '' },
        ],
      },
    });
  });

  it('ignores other commands and text that does not start with the command', () => {
    expect(widgetContentFor('/me waves')).toBeNull();
    expect(widgetContentFor(' /poll x')).toBeNull();
    expect(widgetContentFor('/pollx')).toBeNull();
    expect(widgetContentFor('a /poll')).toBeNull();
  });

  it("writes the content as Python's json.dumps does", () => {
    expect(pythonJson({ a: ['é', 1, true], b: { c: '😀"' } })).toBe(
      '{"a": ["\\u00e9", 1, true], "b": {"c": "\\ud83d\\ude00\\""}}',
    );
  });
});

describe('poll messages', () => {
  it('carry the widget submessage in the message event and in fetches', async () => {
    const q = await registerQueue(server.client('emma'), { event_types: ['message'] });
    const id = await sendToChannel(
      server.client('dev'),
      'polls',
      'lunch',
      '/poll Lunch?\nPizza\nSalad',
    );
    const event = await q.waitFor((e) => e.type === 'message' && e.message.id === id);
    const widget = {
      message_id: id,
      sender_id: uid.dev,
      msg_type: 'widget',
      content:
        '{"widget_type": "poll", "extra_data": {"question": "Lunch?", "options": ["Pizza", "Salad"]}}',
    };
    expect(event.message.submessages).toEqual([{ id: expect.any(Number), ...widget }]);
    expect(await submessagesOf(id, 'emma')).toEqual(event.message.submessages);
    const plain = await sendToChannel(server.client('dev'), 'polls', 'lunch', 'no widget');
    expect(await submessagesOf(plain)).toEqual([]);
  });

  it('take votes, options and question edits, and tell everyone who received the message', async () => {
    const id = await sendToChannel(
      server.client('dev'),
      'polls',
      'vote',
      '/poll Colour?\nRed\nBlue',
    );
    const emmaQ = await registerQueue(server.client('emma'), { event_types: ['submessage'] });
    const devQ = await registerQueue(server.client('dev'), { event_types: ['submessage'] });
    const faridQ = await registerQueue(server.client('farid'), { event_types: ['submessage'] });

    const vote = { type: 'vote', key: 'canned,1', vote: 1 };
    const res = await submit('emma', id, vote);
    expect(res.status, res.text).toBe(200);
    const seen = await devQ.waitFor((e) => e.type === 'submessage');
    expect(seen).toEqual({
      id: expect.any(Number),
      type: 'submessage',
      msg_type: 'widget',
      message_id: id,
      submessage_id: expect.any(Number),
      sender_id: uid.emma,
      content: JSON.stringify(vote),
    });
    expect((await emmaQ.waitFor((e) => e.type === 'submessage')).submessage_id).toBe(
      seen.submessage_id,
    );
    // Farid is not in #polls.
    expect(await faridQ.poll()).toEqual([]);

    expect((await submit('emma', id, { type: 'new_option', idx: 1, option: 'Green' })).status).toBe(
      200,
    );
    expect(
      (await submit('dev', id, { type: 'question', question: 'Favourite colour?' })).status,
    ).toBe(200);
    const stored = await submessagesOf(id);
    expect(stored.map((s: { sender_id: number }) => s.sender_id)).toEqual([
      uid.dev,
      uid.emma,
      uid.emma,
      uid.dev,
    ]);
    expect(JSON.parse(stored[3].content)).toEqual({
      type: 'question',
      question: 'Favourite colour?',
    });
    expect(stored[1].id).toBe(seen.submessage_id);
  });

  it('refuses what the public server refuses, with its messages, and stores nothing', async () => {
    const id = await sendToChannel(server.client('dev'), 'polls', 'refusals', '/poll Q\nA');
    const cases: Array<[string, unknown, string]> = [
      ['emma', '{not json', 'Invalid json for submessage'],
      ['emma', [1], 'poll data is not a dict'],
      ['emma', { key: 'canned,0' }, 'type key is missing from poll data'],
      ['emma', { type: 7 }, 'poll data["type"] is not a string'],
      ['emma', { type: 'vote', key: 'canned,0', vote: 2 }, 'Invalid poll data["vote"]'],
      ['emma', { type: 'vote', key: 'canned,0' }, 'vote key is missing from poll data'],
      ['emma', { type: 'vote', key: 'canned,0', vote: 1, x: 1 }, 'Unexpected arguments: x'],
      ['emma', { type: 'new_option', option: 'B', idx: 1001 }, 'poll data["idx"] is too large'],
      ['emma', { type: 'new_option', option: 'B', idx: -1 }, 'poll data["idx"] is too small'],
      [
        'emma',
        { type: 'question', question: 'Mine?' },
        "You can't edit a question unless you are the author.",
      ],
      ['emma', { type: 'strike', key: '0,canned' }, 'Unknown type for poll data: strike'],
    ];
    for (const [who, content, msg] of cases) {
      const res = await submit(who, id, content);
      expect(res.status, msg).toBe(400);
      expect(res.body).toMatchObject({ result: 'error', code: 'BAD_REQUEST', msg });
    }
    expect(await submessagesOf(id)).toHaveLength(1);
    const missing = await server
      .client('emma')
      .post('/submessage', { message_id: id, msg_type: 'widget' });
    expect(missing.body).toMatchObject({ code: 'REQUEST_VARIABLE_MISSING', var_name: 'content' });
  });

  it('refuses messages the user cannot read', async () => {
    const secret = await sendToChannel(
      server.client('owner'),
      'leadership',
      'staff',
      '/poll Raise?\nYes',
    );
    const dm = await sendDirect(server.client('owner'), [uid.emma], '/poll Lunch?\nYes');
    for (const id of [secret, dm, 999999]) {
      const res = await submit('dev', id, { type: 'vote', key: 'canned,0', vote: 1 });
      expect(res.body).toMatchObject({ code: 'BAD_REQUEST', msg: 'Invalid message(s)' });
    }
    expect((await submit('emma', dm, { type: 'vote', key: 'canned,0', vote: 1 })).status).toBe(200);
  });
});

describe('topic visibility on participation', () => {
  it('follows the topic for a voter whose policy is "topics I participate in", as the public server', async () => {
    const emma = server.client('emma');
    const id = await sendToChannel(server.client('dev'), 'polls', 'joined', '/poll Join?\nYes');
    const q = await registerQueue(emma, { event_types: ['user_topic', 'submessage'] });
    // The default (topics I start) does nothing for a vote.
    expect((await submit('emma', id, { type: 'vote', key: 'canned,0', vote: 1 })).status).toBe(200);
    expect((await q.waitFor((e) => e.type === 'submessage')).message_id).toBe(id);
    expect(await q.poll()).toEqual([]);

    expect((await emma.patch('/settings', { automatically_follow_topics_policy: 1 })).status).toBe(
      200,
    );
    expect((await submit('emma', id, { type: 'vote', key: 'canned,0', vote: -1 })).status).toBe(
      200,
    );
    const [first, second] = [await q.next(), await q.poll()].flat();
    expect(first).toMatchObject({ type: 'user_topic', topic_name: 'joined', visibility_policy: 3 });
    expect(second).toMatchObject({ type: 'submessage', message_id: id });
    await emma.patch('/settings', { automatically_follow_topics_policy: 3 });
  });
});

describe('to-do lists and plain messages', () => {
  it('take tasks and strikes from any reader; only the author renames the list', async () => {
    const id = await sendToChannel(
      server.client('emma'),
      'polls',
      'chores',
      '/todo Chores\nDishes',
    );
    const q = await registerQueue(server.client('owner'), { event_types: ['submessage'] });
    const [widget] = await submessagesOf(id);
    expect(JSON.parse(widget.content)).toEqual({
      widget_type: 'todo',
      extra_data: { task_list_title: 'Chores', tasks: [{ task: 'Dishes', desc: '' }] },
    });
    const task = { type: 'new_task', key: 2, task: 'Laundry', desc: 'whites', completed: false };
    expect((await submit('dev', id, task)).status).toBe(200);
    expect((await submit('dev', id, { type: 'strike', key: '0,canned' })).status).toBe(200);
    const events = [
      await q.waitFor((e) => e.type === 'submessage'),
      await q.waitFor((e) => e.type === 'submessage'),
    ];
    expect(events.map((e) => JSON.parse(e.content).type)).toEqual(['new_task', 'strike']);
    const rename = await submit('dev', id, { type: 'new_task_list_title', title: 'Mine' });
    expect(rename.body.msg).toBe("You can't edit the task list title unless you are the author.");
    expect((await submit('emma', id, { type: 'new_task_list_title', title: 'House' })).status).toBe(
      200,
    );
    const bad = await submit('dev', id, { type: 'new_task', key: 3, task: 'x', desc: '' });
    expect(bad.body.msg).toBe('completed key is missing from todo data');
  });

  it('lets only the sender start submessages on a message without a widget', async () => {
    const id = await sendToChannel(server.client('dev'), 'polls', 'plain', 'just text');
    const first = await submit('emma', id, { anything: true }, 'custom');
    expect(first.body.msg).toBe('You cannot attach a submessage to this message.');
    expect((await submit('dev', id, { anything: true }, 'custom')).status).toBe(200);
    // Once the sender has attached one, any reader may add more (no widget: any JSON).
    expect((await submit('emma', id, [1, 2], 'custom')).status).toBe(200);
    expect((await submessagesOf(id)).map((s: { msg_type: string }) => s.msg_type)).toEqual([
      'custom',
      'custom',
    ]);
  });

  it('deletes submessages with their message', async () => {
    const id = await sendToChannel(server.client('dev'), 'polls', 'gone', '/poll Keep?\nNo');
    expect((await server.client('dev').delete(`/messages/${id}`)).status).toBe(200);
    const left = server.server.db
      .prepare('SELECT COUNT(*) AS n FROM submessages WHERE message_id = ?')
      .get(id) as { n: number };
    expect(left.n).toBe(0);
  });
});
