// PATCH /messages/{id} (spec 4.2): content edits, topic moves with every propagate_mode, resolving,
// moves between channels (events on both sides, loss of access, notifications), time limits with
// MOVE_MESSAGES_TIME_LIMIT_EXCEEDED, edit history and detached uploads.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHash } from 'node:crypto';
import { startTestServer, type TestServer } from '../support/server';
import { registerQueue, type TestEvent } from '../support/events';
import {
  ageMessage,
  createChannel,
  fetchMessages,
  ids,
  sendDirect,
  sendToChannel,
  setRealmSettings,
  systemGroup,
} from './messages-support';

let server: TestServer;
let uid: Record<string, number>;
let editland: number;
let elsewhere: number;
let vault: number;

beforeAll(async () => {
  server = await startTestServer({ seed: 'demo' });
  uid = server.userIds;
  const owner = server.client('owner');
  editland = await createChannel(server, owner, 'editland', [
    uid.owner,
    uid.dev,
    uid.emma,
    uid.farid,
  ]);
  elsewhere = await createChannel(server, owner, 'elsewhere', [uid.owner, uid.dev, uid.moderator]);
  vault = await createChannel(server, owner, 'vault', [uid.owner, uid.emma], {
    invite_only: true,
    history_public_to_subscribers: true,
  });
});
afterAll(async () => {
  await server.close();
});

describe('content edits', () => {
  it('edits content, records history and tells every recipient', async () => {
    const dev = server.client('dev');
    const id = await sendToChannel(dev, 'editland', 'content', 'first draft');
    const queue = await registerQueue(server.client('emma'));
    const res = await dev.patch(`/messages/${id}`, { content: 'final **text**' });
    expect(res.status).toBe(200);
    expect(res.body.detached_uploads).toEqual([]);
    const event = (await queue.waitFor((e) => e.type === 'update_message')) as TestEvent;
    expect(event).toMatchObject({
      user_id: uid.dev,
      message_id: id,
      message_ids: [id],
      rendering_only: false,
      stream_id: editland,
      orig_content: 'first draft',
      orig_rendered_content: '<p>first draft</p>',
      content: 'final **text**',
      rendered_content: '<p>final <strong>text</strong></p>',
      is_me_message: false,
      flags: [],
    });
    expect(event).not.toHaveProperty('topic');
    expect(event).not.toHaveProperty('subject');
    expect(event).not.toHaveProperty('orig_subject');
    const message = (await dev.get(`/messages/${id}`)).body.message;
    expect(message.content).toBe('<p>final <strong>text</strong></p>');
    expect(message.edit_history[0]).toMatchObject({
      user_id: uid.dev,
      prev_content: 'first draft',
      prev_rendered_content: '<p>first draft</p>',
    });
    expect(message.last_edit_timestamp).toBe(event.edit_timestamp);
    expect(message).not.toHaveProperty('last_moved_timestamp');
  });

  it('updates mention flags when an edit adds a mention', async () => {
    const dev = server.client('dev');
    const id = await sendToChannel(dev, 'editland', 'content', 'no mention yet');
    const queue = await registerQueue(server.client('emma'));
    await dev.patch(`/messages/${id}`, { content: 'now @**Emma Member**' });
    const event = await queue.waitFor((e) => e.type === 'update_message');
    expect(event.flags).toContain('mentioned');
    const narrowed = await fetchMessages(server.client('emma'), {
      narrow: [{ operator: 'is', operand: 'mentioned' }],
    });
    expect(ids(narrowed)).toContain(id);
  });

  it('checks prev_content_sha256', async () => {
    const dev = server.client('dev');
    const id = await sendToChannel(dev, 'editland', 'content', 'original');
    const sha = (s: string) => createHash('sha256').update(s).digest('hex');
    const stale = await dev.patch(`/messages/${id}`, {
      content: 'mine',
      prev_content_sha256: sha('something else'),
    });
    expect(stale.status).toBe(400);
    expect((await dev.get(`/messages/${id}`)).body.raw_content).toBe('original');
    const fresh = await dev.patch(`/messages/${id}`, {
      content: 'mine',
      prev_content_sha256: sha('original'),
    });
    expect(fresh.status).toBe(200);
  });

  it('refuses edits by others, after the time limit, or when editing is off', async () => {
    const dev = server.client('dev');
    const id = await sendToChannel(dev, 'editland', 'content', 'mine');
    const other = await server.client('emma').patch(`/messages/${id}`, { content: 'hijack' });
    expect(other.status).toBe(400);
    expect(other.body.code).toBe('BAD_REQUEST');
    const admin = await server.client('admin').patch(`/messages/${id}`, { content: 'hijack' });
    expect(admin.status).toBe(400);
    ageMessage(server, id, 3600);
    const late = await dev.patch(`/messages/${id}`, { content: 'too late' });
    expect(late.body.msg).toMatch(/time limit/);
    const fresh = await sendToChannel(dev, 'editland', 'content', 'fresh');
    setRealmSettings(server, { allow_message_editing: false });
    const off = await dev.patch(`/messages/${fresh}`, { content: 'nope' });
    setRealmSettings(server, { allow_message_editing: true });
    expect(off.status).toBe(400);
    expect((await dev.get(`/messages/${id}`)).body.raw_content).toBe('mine');
  });

  it('rejects invalid combinations', async () => {
    const dev = server.client('dev');
    const id = await sendToChannel(dev, 'editland', 'content', 'combo');
    const both = await dev.patch(`/messages/${id}`, { content: 'x', stream_id: elsewhere });
    expect(both.status).toBe(400);
    const mode = await dev.patch(`/messages/${id}`, { content: 'x', propagate_mode: 'change_all' });
    expect(mode.status).toBe(400);
    const nothing = await dev.patch(`/messages/${id}`, {});
    expect(nothing.body.msg).toBe('Nothing to change');
    const badMode = await dev.patch(`/messages/${id}`, { topic: 'x', propagate_mode: 'sideways' });
    expect(badMode.body).toMatchObject({
      code: 'REQUEST_VARIABLE_INVALID',
      var_name: 'propagate_mode',
    });
    const dm = await sendDirect(dev, [uid.emma], 'a dm');
    const dmTopic = await dev.patch(`/messages/${dm}`, { topic: 'topics are for channels' });
    expect(dmTopic.status).toBe(400);
    const missing = await dev.patch('/messages/999999', { content: 'x' });
    expect(missing.body.msg).toBe('Invalid message(s)');
  });

  it('reports uploads the edit left unreferenced as detached_uploads', async () => {
    const dev = server.client('dev');
    const form = new FormData();
    form.append('file', new Blob(['hello file']), 'notes.txt');
    const upload = await dev.multipart('/user_uploads', form);
    expect(upload.status, upload.text).toBe(200);
    const id = await sendToChannel(dev, 'editland', 'files', `see [notes.txt](${upload.body.url})`);
    const kept = await dev.patch(`/messages/${id}`, {
      content: `still [notes.txt](${upload.body.url})`,
    });
    expect(kept.body.detached_uploads).toEqual([]);
    const res = await dev.patch(`/messages/${id}`, { content: 'no more file' });
    expect(res.status).toBe(200);
    expect(res.body.detached_uploads).toHaveLength(1);
    // The FL-400 shape of GET /attachments (create_time in ms, messages), see server/README.md.
    expect(res.body.detached_uploads[0]).toMatchObject({
      name: 'notes.txt',
      size: 10,
      messages: [],
    });
    expect(res.body.detached_uploads[0]).not.toHaveProperty('message_ids');
    expect(upload.body.url).toContain(res.body.detached_uploads[0].path_id);
  });
});

describe('topic moves', () => {
  async function topicWith(name: string, count: number): Promise<number[]> {
    const out: number[] = [];
    for (let i = 0; i < count; i++) {
      out.push(await sendToChannel(server.client('dev'), 'editland', name, `${name} ${i}`));
    }
    return out;
  }
  const inTopic = (topic: string) =>
    fetchMessages(server.client('emma'), {
      narrow: [
        { operator: 'channel', operand: 'editland' },
        { operator: 'topic', operand: topic },
      ],
    });

  it('change_one, change_later and change_all move the right messages', async () => {
    const [a, b, c, d] = await topicWith('propagation', 4);
    const dev = server.client('dev');
    const queue = await registerQueue(server.client('emma'));
    const later = await dev.patch(`/messages/${c}`, {
      topic: 'later part',
      propagate_mode: 'change_later',
      send_notification_to_new_thread: false,
    });
    expect(later.status).toBe(200);
    const event = await queue.waitFor((e) => e.type === 'update_message');
    expect(event).toMatchObject({
      message_id: c,
      message_ids: [c, d],
      propagate_mode: 'change_later',
      orig_subject: 'propagation',
      subject: 'later part',
      topic_links: [],
      stream_id: editland,
    });
    expect(event).not.toHaveProperty('topic');
    expect(event).not.toHaveProperty('new_stream_id');
    expect(event).not.toHaveProperty('content');
    expect(ids(await inTopic('later part'))).toEqual([c, d]);
    await dev.patch(`/messages/${a}`, {
      topic: 'first only',
      propagate_mode: 'change_one',
      send_notification_to_new_thread: false,
    });
    expect(ids(await inTopic('first only'))).toEqual([a]);
    expect(ids(await inTopic('propagation'))).toEqual([b]);
    await dev.patch(`/messages/${c}`, {
      topic: 'propagation',
      propagate_mode: 'change_all',
      send_notification_to_new_thread: false,
    });
    expect(ids(await inTopic('propagation'))).toEqual([b, c, d]);
    const moved = (await dev.get(`/messages/${c}`)).body.message;
    expect(moved.last_moved_timestamp).toEqual(expect.any(Number));
    expect(moved).not.toHaveProperty('last_edit_timestamp');
    expect(moved.edit_history[0]).toMatchObject({ prev_topic: 'later part', topic: 'propagation' });
    expect(moved.edit_history[1]).toMatchObject({ prev_topic: 'propagation', topic: 'later part' });
  });

  it('carries topic visibility settings along with a whole-topic move', async () => {
    // The sender started the topic, so by default they follow it.
    const [x] = await topicWith('followed topic', 1);
    const queue = await registerQueue(server.client('dev'), { event_types: ['user_topic'] });
    await server.client('dev').patch(`/messages/${x}`, {
      topic: 'followed renamed',
      propagate_mode: 'change_all',
      send_notification_to_new_thread: false,
    });
    const events = await queue.next();
    expect(events.map((e) => [e.topic_name, e.visibility_policy])).toEqual([
      ['followed topic', 0],
      ['followed renamed', 3],
    ]);
    const state = await server
      .client('dev')
      .post('/register', { fetch_event_types: ['user_topic'] });
    const topics = state.body.user_topics.map((t: { topic_name: string }) => t.topic_name);
    expect(topics).toContain('followed renamed');
    expect(topics).not.toContain('followed topic');
  });

  it('moves unread state with the messages', async () => {
    const [x, y] = await topicWith('unread move', 2);
    await server.client('dev').patch(`/messages/${x}`, {
      topic: 'unread moved',
      propagate_mode: 'change_all',
      send_notification_to_new_thread: false,
    });
    const state = await server.client('emma').post('/register', {
      fetch_event_types: ['message', 'update_message_flags'],
    });
    const streams = state.body.unread_msgs.streams as Array<{
      topic: string;
      unread_message_ids: number[];
    }>;
    expect(streams.find((s) => s.topic === 'unread moved')?.unread_message_ids).toEqual([x, y]);
    expect(streams.find((s) => s.topic === 'unread move')).toBeUndefined();
  });

  it('posts notification-bot messages to the new and, on request, the old thread', async () => {
    const [x] = await topicWith('announce move', 1);
    await server.client('dev').patch(`/messages/${x}`, {
      topic: 'announced',
      propagate_mode: 'change_all',
      send_notification_to_old_thread: true,
    });
    const fresh = await inTopic('announced');
    const note = fresh.body.messages.find(
      (m: { sender_full_name: string }) => m.sender_full_name === 'Notification Bot',
    );
    expect(note.content).toMatch(/was moved here from/);
    const old = await inTopic('announce move');
    expect(old.body.messages[0].content).toMatch(/was moved to/);
  });

  it('words the notices as the public server does: the whole topic, one message or N', async () => {
    const dev = server.client('dev');
    const noteIn = async (topic: string) =>
      (await inTopic(topic)).body.messages
        .filter((m: { sender_full_name: string }) => m.sender_full_name === 'Notification Bot')
        .map((m: { content: string }) => m.content.replace(/<[^>]*>/g, ''));
    const notify = { send_notification_to_old_thread: true, send_notification_to_new_thread: true };

    // change_later from the first message moves every message: "This topic".
    const [a] = await topicWith('words whole', 2);
    await dev.patch(`/messages/${a}`, {
      topic: 'words whole 2',
      propagate_mode: 'change_later',
      ...notify,
    });
    expect(await noteIn('words whole 2')).toEqual([
      expect.stringMatching(/^This topic was moved here from/),
    ]);
    expect(await noteIn('words whole')).toEqual([
      expect.stringMatching(/^This topic was moved to/),
    ]);

    // One message of three: linked where it now is.
    const [, b] = await topicWith('words one', 3);
    await dev.patch(`/messages/${b}`, {
      topic: 'words one 2',
      propagate_mode: 'change_one',
      ...notify,
    });
    const single = (await inTopic('words one 2')).body.messages.at(-1).content as string;
    // Realm links render relative, as the public server renders them.
    expect(single).toContain(
      `href="#narrow/channel/${editland}-editland/topic/words.20one.202/near/${b}"`,
    );
    expect(await noteIn('words one 2')).toEqual([
      expect.stringMatching(/^A message was moved here from/),
    ]);
    expect(await noteIn('words one')).toEqual([
      expect.stringMatching(/^A message was moved from this topic to/),
    ]);

    // All of a topic into one that has messages: counted, since the topic did not just move.
    await topicWith('words target', 1);
    const [c] = await topicWith('words many', 3);
    await dev.patch(`/messages/${c}`, {
      topic: 'words target',
      propagate_mode: 'change_all',
      ...notify,
    });
    expect(await noteIn('words target')).toEqual([
      expect.stringMatching(/^3 messages were moved here from/),
    ]);
    expect(await noteIn('words many')).toEqual([expect.stringMatching(/^This topic was moved to/)]);

    // Some of a topic: counted on both sides.
    const [, d] = await topicWith('words some', 3);
    await dev.patch(`/messages/${d}`, {
      topic: 'words some 2',
      propagate_mode: 'change_later',
      ...notify,
    });
    expect(await noteIn('words some 2')).toEqual([
      expect.stringMatching(/^2 messages were moved here from/),
    ]);
    expect(await noteIn('words some')).toEqual([
      expect.stringMatching(/^2 messages were moved from this topic to/),
    ]);
  });

  it('resolves with change_all, notifies once, and unresolves', async () => {
    const [x, y] = await topicWith('bug 42', 2);
    const dev = server.client('dev');
    const res = await dev.patch(`/messages/${y}`, {
      topic: '✔ bug 42',
      propagate_mode: 'change_all',
    });
    expect(res.status).toBe(200);
    const resolved = await inTopic('✔ bug 42');
    expect(ids(resolved).slice(0, 2)).toEqual([x, y]);
    const notes = resolved.body.messages.filter(
      (m: { sender_full_name: string }) => m.sender_full_name === 'Notification Bot',
    );
    expect(notes).toHaveLength(1);
    expect(notes[0].content).toMatch(/has marked this topic as resolved/);
    // Resolving is not a move (FL 365).
    expect((await dev.get(`/messages/${x}`)).body.message).not.toHaveProperty(
      'last_moved_timestamp',
    );
    const narrowed = await fetchMessages(server.client('emma'), {
      narrow: [{ operator: 'is', operand: 'resolved' }],
    });
    expect(ids(narrowed)).toEqual(expect.arrayContaining([x, y]));
    await dev.patch(`/messages/${x}`, { topic: 'bug 42', propagate_mode: 'change_all' });
    expect(ids(await inTopic('bug 42')).slice(0, 2)).toEqual([x, y]);
  });

  it('cannot resolve the empty topic, and honours can_resolve_topics_group', async () => {
    const dev = server.client('dev');
    const general = await sendToChannel(dev, 'editland', '', 'in general chat');
    const res = await dev.patch(`/messages/${general}`, {
      topic: '✔ ',
      propagate_mode: 'change_all',
    });
    expect(res.status).toBe(400);
    const [x] = await topicWith('no resolving', 1);
    setRealmSettings(server, { can_resolve_topics_group: systemGroup(server, 'role:nobody') });
    const denied = await dev.patch(`/messages/${x}`, {
      topic: '✔ no resolving',
      propagate_mode: 'change_all',
    });
    setRealmSettings(server, { can_resolve_topics_group: systemGroup(server, 'role:everyone') });
    expect(denied.status).toBe(400);
    expect(ids(await inTopic('no resolving'))).toEqual([x]);
  });

  it('enforces the move time limit with MOVE_MESSAGES_TIME_LIMIT_EXCEEDED', async () => {
    const [a, b, c] = await topicWith('old topic', 3);
    ageMessage(server, a, 7200);
    ageMessage(server, b, 7200);
    setRealmSettings(server, { move_messages_within_stream_limit_seconds: 3600 });
    try {
      const res = await server.client('dev').patch(`/messages/${c}`, {
        topic: 'new topic',
        propagate_mode: 'change_all',
      });
      expect(res.status).toBe(400);
      expect(res.body).toMatchObject({
        code: 'MOVE_MESSAGES_TIME_LIMIT_EXCEEDED',
        first_message_id_allowed_to_move: c,
        total_messages_in_topic: 3,
        total_messages_allowed_to_move: 1,
      });
      const one = await server.client('dev').patch(`/messages/${a}`, {
        topic: 'new topic',
        propagate_mode: 'change_one',
      });
      expect(one.body).toMatchObject({
        code: 'MOVE_MESSAGES_TIME_LIMIT_EXCEEDED',
        first_message_id_allowed_to_move: null,
        total_messages_allowed_to_move: 0,
      });
      expect(ids(await inTopic('old topic'))).toEqual([a, b, c]);
      // Moderators and administrators are not limited.
      const mod = await server.client('moderator').patch(`/messages/${c}`, {
        topic: 'new topic',
        propagate_mode: 'change_all',
        send_notification_to_new_thread: false,
      });
      expect(mod.status, mod.text).toBe(200);
      expect(ids(await inTopic('new topic'))).toEqual([a, b, c]);
    } finally {
      setRealmSettings(server, { move_messages_within_stream_limit_seconds: 604800 });
    }
  });
});

describe('moves between channels', () => {
  it('moves a topic to a public channel with events to both sides', async () => {
    const dev = server.client('dev');
    const x = await sendToChannel(dev, 'editland', 'migrating', 'one');
    const y = await sendToChannel(dev, 'editland', 'migrating', 'two');
    const emmaQ = await registerQueue(server.client('emma')); // old channel only
    const modQ = await registerQueue(server.client('moderator')); // new channel only
    const res = await dev.patch(`/messages/${x}`, {
      stream_id: elsewhere,
      propagate_mode: 'change_all',
      send_notification_to_old_thread: true,
    });
    expect(res.status, res.text).toBe(200);
    for (const queue of [emmaQ, modQ]) {
      const event = await queue.waitFor((e) => e.type === 'update_message');
      expect(event).toMatchObject({
        message_ids: [x, y],
        stream_id: editland,
        new_stream_id: elsewhere,
        orig_subject: 'migrating',
        propagate_mode: 'change_all',
      });
      expect(event).not.toHaveProperty('subject');
    }
    const inNew = await fetchMessages(server.client('moderator'), {
      narrow: [
        { operator: 'channel', operand: 'elsewhere' },
        { operator: 'topic', operand: 'migrating' },
      ],
    });
    expect(ids(inNew).slice(0, 2)).toEqual([x, y]);
    // Moderator gained the messages (marked read); emma can still read them as public history.
    expect(inNew.body.messages[0].flags).toEqual(['read']);
    const emmaView = await server.client('emma').get(`/messages/${x}`);
    expect(emmaView.body.message.flags).toEqual(['read', 'historical']);
    expect(emmaView.body.message.edit_history[0]).toMatchObject({
      prev_stream: editland,
      stream: elsewhere,
    });
    const oldThread = await fetchMessages(server.client('emma'), {
      narrow: [
        { operator: 'channel', operand: 'editland' },
        { operator: 'topic', operand: 'migrating' },
      ],
    });
    expect(ids(oldThread)).not.toContain(x);
    expect(oldThread.body.messages[0].content).toMatch(/moved to/);
  });

  it('sends delete_message to users who lose access when moved to a private channel', async () => {
    const owner = server.client('owner');
    const x = await sendToChannel(server.client('dev'), 'editland', 'to the vault', 'secret soon');
    const bulk = await registerQueue(server.client('dev'), {
      client_capabilities: { bulk_message_deletion: true },
    });
    const single = await registerQueue(server.client('farid'));
    const emmaQ = await registerQueue(server.client('emma'));
    const res = await owner.patch(`/messages/${x}`, {
      stream_id: vault,
      propagate_mode: 'change_one',
      send_notification_to_new_thread: false,
      send_notification_to_old_thread: true,
    });
    expect(res.status, res.text).toBe(200);
    const bulkEvent = await bulk.waitFor((e) => e.type === 'delete_message');
    expect(bulkEvent).toMatchObject({
      message_ids: [x],
      message_type: 'stream',
      stream_id: editland,
      topic: 'to the vault',
    });
    const singleEvent = await single.waitFor((e) => e.type === 'delete_message');
    expect(singleEvent).toMatchObject({ message_id: x });
    expect(singleEvent).not.toHaveProperty('message_ids');
    // Emma is subscribed to the vault: she gets the move, not a deletion.
    const emmaEvent = await emmaQ.waitFor((e) => e.type === 'update_message');
    expect(emmaEvent.new_stream_id).toBe(vault);
    expect((await server.client('dev').get(`/messages/${x}`)).status).toBe(400);
    expect((await server.client('emma').get(`/messages/${x}`)).status).toBe(200);
    // The notice left behind does not name the private destination.
    const oldThread = await fetchMessages(server.client('dev'), {
      narrow: [
        { operator: 'channel', operand: 'editland' },
        { operator: 'topic', operand: 'to the vault' },
      ],
    });
    const notice = oldThread.body.messages[oldThread.body.messages.length - 1];
    expect(notice.content).toMatch(/moved to a private channel/);
    expect(notice.content).not.toMatch(/vault/);
  });

  it('refuses destinations the mover cannot see or post to', async () => {
    const dev = server.client('dev');
    const x = await sendToChannel(dev, 'editland', 'stay', 'stay here');
    const hidden = await dev.patch(`/messages/${x}`, { stream_id: vault });
    expect(hidden.body.code).toBe('STREAM_DOES_NOT_EXIST');
    const announcements = server.server.db
      .prepare<[], { id: number }>("SELECT id FROM channels WHERE name = 'announcements'")
      .get()!.id;
    const readOnly = await dev.patch(`/messages/${x}`, { stream_id: announcements });
    expect(readOnly.status).toBe(400);
    expect((await dev.get(`/messages/${x}`)).body.message.stream_id).toBe(editland);
  });
});

describe('persistence', () => {
  it('keeps edits, moves, history and reactions across a restart', async () => {
    const dev = server.client('dev');
    const id = await sendToChannel(dev, 'editland', 'before restart', 'v1');
    await dev.patch(`/messages/${id}`, { content: 'v2' });
    await dev.patch(`/messages/${id}`, {
      topic: 'after restart',
      send_notification_to_new_thread: false,
    });
    await server.client('emma').post(`/messages/${id}/reactions`, { emoji_name: 'tada' });
    await server.restart();
    const message = (await server.client('emma').get(`/messages/${id}`)).body.message;
    expect(message).toMatchObject({ subject: 'after restart', content: '<p>v2</p>' });
    expect(
      message.edit_history.map(
        (e: { prev_topic?: string; prev_content?: string }) => e.prev_topic ?? e.prev_content,
      ),
    ).toEqual(['before restart', 'v1']);
    expect(message.reactions).toEqual([
      expect.objectContaining({ emoji_name: 'tada', user_id: uid.emma }),
    ]);
  });
});
