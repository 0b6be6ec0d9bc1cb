// Actions done offline (electron/outbox/offline-actions.ts) against the real local realm server, with
// faults from the proxy: each is shown at once (the event the server would send), kept on disk across
// a restart, replayed in order once the server is back and applied exactly once, also when an
// attempt's answer is lost, the server restarts mid-replay, or the queue is re-opened from disk with
// an attempt in flight. Edits checked against prev_content_sha256 become drafts when the message
// changed; refusals are undone and explained.
import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { ServerEvent } from '../../shared/api/events';
import { callAction } from '../../electron/outbox/action-calls';
import { sha256 } from '../../electron/outbox/action-replay';
import type { TestServer } from '../support/server';
import { haveShared, readSharedJson, type RecordedCall } from '../support/shared-fixtures';
import type { FaultProxy } from './support/fault-proxy';
import { eventually, type MainHarness } from './support/harness';
import { MainChild } from './support/main-child';
import { mainThroughProxy } from './support/through-proxy';

let realm: TestServer;
let proxy: FaultProxy;
let main: MainHarness;
let streamId: number;
let channel: string;
let messageId: number;
let topic: string;

mainThroughProxy('owner', async (env) => {
  ({ realm, proxy, main } = env);
  const sub = env.snapshot.register.subscriptions[0];
  streamId = sub.stream_id;
  channel = sub.name;
  topic = `offline ${Date.now()}`;
  const sent = await realm.client('owner').post('/messages', {
    type: 'stream',
    to: channel,
    topic,
    content: 'original text',
  });
  messageId = sent.body.id as number;
  // The message has reached main's event path (so a later event is numbered after it).
  await main.waitForPush('events', (b) =>
    b.events.some((e) => e.type === 'message' && e.message.id === messageId),
  );
});

const ERRORS_FIXTURE = 'fixtures/zulip-server/errors-fl372.json';
const session = () => main.services.session(main.accountId);
const queued = () => session().actions.list();
const handlers = () => main.services.handlers;
const accountId = () => main.accountId;

async function goOffline() {
  await proxy.refuseConnections();
  main.services.wakeAll();
  await eventually(() => (session().isOnline() ? undefined : true));
}
async function goOnline() {
  await proxy.acceptConnections();
  main.services.wakeAll();
}
async function replayed() {
  await eventually(
    () => (queued().length === 0 && session().isOnline() ? true : undefined),
    30_000,
  );
}

/** An events push (after `from`) holding an event made here that matches. */
function shown(from: number, match: (event: ServerEvent) => boolean): ServerEvent | undefined {
  return main
    .pushesOf('events')
    .slice(from)
    .flatMap((b) => (b.accountId === accountId() ? b.events : []))
    .find((e) => match(e));
}
const eventCount = () => main.pushesOf('events').length;

/** Another message of the owner's in the test's topic, once it has reached main's event path. */
async function anotherMessage(content: string): Promise<number> {
  const sent = await realm.client('owner').post('/messages', {
    type: 'stream',
    to: channel,
    topic,
    content,
  });
  const id = sent.body.id as number;
  await main.waitForPush('events', (b) =>
    b.events.some((e) => e.type === 'message' && e.message.id === id),
  );
  return id;
}

async function serverMessage(id = messageId) {
  const res = await realm.client('owner').get(`/messages/${id}`, { apply_markdown: false });
  return res.body as {
    result: string;
    raw_content: string;
    message: {
      flags: string[];
      subject: string;
      reactions: Array<{ emoji_name: string; user_id: number }>;
    };
  };
}
const requests = (method: string, path: string) =>
  proxy.log.filter((line) => line === `${method} /api/v1${path}`).length;
async function editVersions(id = messageId) {
  const res = await realm.client('owner').get(`/messages/${id}/history`);
  return (res.body.message_history as unknown[]).length;
}

describe('actions done offline', () => {
  it('shows a star and a reaction at once, keeps them across a restart and replays each once', async () => {
    await goOffline();
    const from = eventCount();
    const star = await handlers().updateFlags({
      accountId: accountId(),
      messages: [messageId],
      op: 'add',
      flag: 'starred',
    });
    expect(star).toMatchObject({ result: 'success', messages: [messageId], queued: true });
    await handlers().addReaction({
      accountId: accountId(),
      messageId,
      emojiName: 'octopus',
      emojiCode: '1f419',
      reactionType: 'unicode_emoji',
    });
    expect(
      shown(from, (e) => e.type === 'update_message_flags' && e.messages.includes(messageId)),
    ).toMatchObject({ op: 'add', flag: 'starred' });
    const reaction = shown(from, (e) => e.type === 'reaction' && e.message_id === messageId);
    expect(reaction).toMatchObject({ op: 'add', emoji_code: '1f419' });
    // Numbered after the last event delivered, below the server's next one.
    expect(Number.isInteger(reaction!.id)).toBe(false);
    expect(queued().map((a) => a.action.kind)).toEqual(['updateFlags', 'addReaction']);

    await main.restart(); // still offline: the queue comes back from disk, shown again
    expect(queued().map((a) => a.action.kind)).toEqual(['updateFlags', 'addReaction']);
    const backlog = session().getSnapshot().events;
    expect(backlog.some((e) => e.type === 'reaction' && e.message_id === messageId)).toBe(true);

    await goOnline();
    await replayed();
    const onServer = await serverMessage();
    expect(onServer.message.flags).toContain('starred');
    expect(onServer.message.reactions.filter((r) => r.emoji_name === 'octopus')).toHaveLength(1);
    expect(requests('POST', `/messages/${messageId}/reactions`)).toBe(1);
    expect(session().actions.notices()).toEqual([]);
  });

  it('replays in order: a star then an unstar ends unstarred; later calls queue behind', async () => {
    await goOffline();
    for (const op of ['add', 'remove'] as const) {
      await handlers().updateFlags({
        accountId: accountId(),
        messages: [messageId],
        op,
        flag: 'starred',
      });
    }
    await goOnline();
    await replayed();
    expect((await serverMessage()).message.flags).not.toContain('starred');
  });

  it('takes an attempt whose answer was lost as done when replayed (already exists is success)', async () => {
    proxy.inject({
      path: `/api/v1/messages/${messageId}/reactions`,
      method: 'POST',
      action: 'drop-response',
    });
    const answer = await handlers().addReaction({
      accountId: accountId(),
      messageId,
      emojiName: 'tada',
      emojiCode: '1f389',
      reactionType: 'unicode_emoji',
    });
    expect(answer).toMatchObject({ queued: true });
    await replayed();
    const reactions = (await serverMessage()).message.reactions;
    expect(reactions.filter((r) => r.emoji_name === 'tada')).toHaveLength(1);
    expect(session().actions.notices()).toEqual([]);
  });

  it('marks a conversation unread, mutes a topic and deletes a message offline', async () => {
    const doomed = await anotherMessage('to be deleted');
    await goOffline();
    const from = eventCount();
    const unread = await handlers().updateFlagsForNarrow({
      accountId: accountId(),
      anchor: 'oldest',
      includeAnchor: true,
      numBefore: 0,
      numAfter: 1000,
      narrow: [
        { operator: 'channel', operand: streamId },
        { operator: 'topic', operand: topic },
      ],
      op: 'remove',
      flag: 'read',
    });
    expect(unread).toMatchObject({ found_newest: true, queued: true });
    await handlers().setUserTopic({ accountId: accountId(), streamId, topic, visibilityPolicy: 1 });
    await handlers().deleteMessage({ accountId: accountId(), messageId: doomed });
    expect(shown(from, (e) => e.type === 'user_topic')).toMatchObject({
      stream_id: streamId,
      topic_name: topic,
      visibility_policy: 1,
    });
    expect(shown(from, (e) => e.type === 'delete_message')).toMatchObject({
      message_ids: [doomed],
    });

    await goOnline();
    await replayed();
    expect((await serverMessage()).message.flags).not.toContain('read');
    expect((await serverMessage(doomed)).result).toBe('error');
    const topics = await realm
      .client('owner')
      .post('/register', { fetch_event_types: ['user_topic'] });
    const muted = (
      topics.body.user_topics as Array<{ topic_name: string; visibility_policy: number }>
    ).find((t) => t.topic_name === topic);
    expect(muted?.visibility_policy).toBe(1);
    expect(session().actions.notices()).toEqual([]);
  });

  it('takes deleting a message that is already gone as done', async () => {
    await goOffline();
    await handlers().deleteMessage({ accountId: accountId(), messageId });
    await realm.client('owner').delete(`/messages/${messageId}`);
    await goOnline();
    await replayed();
    expect(session().actions.notices()).toEqual([]);
  });

  it('applies an offline edit once, also when its answer is lost and the server restarts', async () => {
    await goOffline();
    const from = eventCount();
    await handlers().editMessage({ accountId: accountId(), messageId, content: 'edited offline' });
    expect(
      shown(from, (e) => e.type === 'update_message' && e.message_id === messageId),
    ).toMatchObject({ content: 'edited offline', rendered_content: '<p>edited offline</p>' });
    // The first replayed edit reaches the server, its answer does not; then the server restarts.
    proxy.inject({
      path: `/api/v1/messages/${messageId}`,
      method: 'PATCH',
      action: 'drop-response',
    });
    await goOnline();
    await eventually(() => (requests('PATCH', `/messages/${messageId}`) === 1 ? true : undefined));
    await realm.restart();
    main.services.wakeAll();
    await replayed();
    expect((await serverMessage()).raw_content).toBe('edited offline');
    expect(await editVersions()).toBe(2); // the original and one edit
    expect(session().actions.notices()).toEqual([]);
  });

  it('re-opened from disk with an attempt in flight, an edit already applied is not applied again', async () => {
    await goOffline();
    await handlers().editMessage({ accountId: accountId(), messageId, content: 'crash edit' });
    await main.services.stop();
    // As if the process died after the request reached the server and before the answer was noted.
    const file = join(main.dataDir, 'accounts', accountId(), 'actions.json');
    const stored = JSON.parse(readFileSync(file, 'utf8')) as {
      actions: Array<{ maybeSent: boolean; attempts: number }>;
    };
    stored.actions[0]!.maybeSent = true;
    stored.actions[0]!.attempts = 1;
    writeFileSync(file, JSON.stringify(stored));
    await realm.client('owner').patch(`/messages/${messageId}`, { content: 'crash edit' });
    await main.restart(); // stops the stopped services again (nothing left to do), then starts
    await goOnline();
    await replayed();
    expect(await editVersions()).toBe(2);
    expect(session().actions.notices()).toEqual([]);
  });

  it('keeps an edit whose message changed meanwhile as a draft, with a note, and shows the server text', async () => {
    await goOffline();
    await handlers().editMessage({
      accountId: accountId(),
      messageId,
      content: 'my offline version',
      prevContentSha256: sha256('original text'),
    });
    await realm.client('owner').patch(`/messages/${messageId}`, { content: 'changed elsewhere' });
    const from = eventCount();
    await goOnline();
    await replayed();
    expect((await serverMessage()).raw_content).toBe('changed elsewhere');
    const [notice] = session().actions.notices();
    expect(notice).toMatchObject({ kind: 'conflict', accountId: accountId() });
    expect(main.pushesOf('actionNotice')).toContainEqual(notice);
    const draft = session()
      .drafts.list()
      .find((d) => d.draft.content === 'my offline version');
    expect(draft?.draft).toMatchObject({ type: 'stream', to: [streamId], topic });
    const undo = shown(
      from,
      (e) => e.type === 'update_message' && e.message_id === messageId && e.user_id === null,
    );
    expect(undo).toMatchObject({ rendered_content: expect.stringContaining('changed elsewhere') });
  });

  it('keeps the text of an edit whose message was deleted meanwhile as a draft', async () => {
    await goOffline();
    await handlers().editMessage({ accountId: accountId(), messageId, content: 'lost cause' });
    await realm.client('owner').delete(`/messages/${messageId}`);
    await goOnline();
    await replayed();
    expect(session().actions.notices()).toMatchObject([{ kind: 'conflict' }]);
    expect(
      session()
        .drafts.list()
        .map((d) => d.draft.content),
    ).toContain('lost cause');
  });

  it('deletes its queue with the account, and nothing writes it again', async () => {
    await goOffline();
    await handlers().updateFlags({
      accountId: accountId(),
      messages: [messageId],
      op: 'add',
      flag: 'starred',
    });
    const file = join(main.dataDir, 'accounts', accountId(), 'actions.json');
    expect(existsSync(file)).toBe(true);
    await main.services.removeAccount(accountId());
    await goOnline();
    expect(existsSync(file)).toBe(false);
    expect((await serverMessage()).message.flags).not.toContain('starred');
  });

  it('undoes an action the server refuses and explains it', async () => {
    await goOffline();
    await handlers().addReaction({
      accountId: accountId(),
      messageId,
      emojiName: 'no_such_emoji_here',
      emojiCode: 'ffff0',
      reactionType: 'unicode_emoji',
    });
    const from = eventCount();
    await goOnline();
    await replayed();
    const [notice] = session().actions.notices();
    expect(notice).toMatchObject({ kind: 'refused' });
    expect(notice!.text).toContain('no_such_emoji_here');
    expect(shown(from, (e) => e.type === 'reaction' && e.message_id === messageId)).toMatchObject({
      op: 'remove',
      emoji_code: 'ffff0',
    });
  });

  it('killed (SIGKILL) mid-replay, with the server restarted, puts a reaction on the server once', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'tributary-actions-kill-'));
    const path = `/messages/${messageId}/reactions`;
    // Every answer is lost: the server applies the reaction, the app never hears it did.
    proxy.inject({ path: `/api/v1${path}`, method: 'POST', action: 'drop-response', times: 100 });
    let child = mainProcess(dir, true);
    await child.waitFor('live');
    child.command({
      op: 'act',
      kind: 'addReaction',
      payload: {
        messageId,
        emojiName: 'rocket',
        emojiCode: '1f680',
        reactionType: 'unicode_emoji',
      },
    });
    await child.waitFor('acted'); // queued after the lost answer of the direct attempt
    // The replay has sent it again (answer lost too): killed while it waits to retry.
    await eventually(() => (requests('POST', path) >= 2 ? true : undefined));
    await child.kill();
    proxy.clearRules();
    await realm.restart();
    child = mainProcess(dir, false);
    try {
      await eventually(() => (actionsOnDisk(dir).length === 0 ? true : undefined), 60_000);
      expect(child.facts.filter((fact) => fact.op === 'notice')).toEqual([]); // done, not refused
    } finally {
      await child.kill();
      rmSync(dir, { recursive: true, force: true });
    }
    const rockets = (await serverMessage()).message.reactions.filter(
      (r) => r.emoji_name === 'rocket',
    );
    expect(rockets).toHaveLength(1);
  }, 120_000);

  it('sends directly when online and surfaces the server refusal as before', async () => {
    const answer = await handlers().updateFlags({
      accountId: accountId(),
      messages: [messageId],
      op: 'add',
      flag: 'starred',
    });
    expect(answer).not.toHaveProperty('queued');
    await expect(
      handlers().deleteMessage({ accountId: accountId(), messageId: 999_999_999 }),
    ).rejects.toMatchObject({ code: 'BAD_REQUEST' });
    expect(queued()).toEqual([]);
  });
});

describe("mark all as read, and the server's feature level", () => {
  const unreadOnServer = async () => {
    const res = await realm.client('owner').get('/messages', {
      anchor: 'newest',
      num_before: 100,
      num_after: 0,
      narrow: [{ operator: 'is', operand: 'unread' }],
    });
    return (res.body.messages as unknown[]).length;
  };

  it('marks every message read offline: shown at once, replayed once when the server is back', async () => {
    for (const content of ['unread one', 'unread two']) {
      await realm.client('emma').post('/messages', { type: 'stream', to: channel, topic, content });
    }
    await eventually(async () => ((await unreadOnServer()) >= 2 ? true : undefined));
    await goOffline();
    const from = eventCount();
    const answer = await handlers().markAllAsRead({ accountId: accountId() });
    expect(answer).toMatchObject({ result: 'success', complete: true, queued: true });
    // As the server announces it: every message read, no ids (the cache need not hold them all).
    expect(shown(from, (e) => e.type === 'update_message_flags')).toMatchObject({
      op: 'add',
      flag: 'read',
      all: true,
      messages: [],
    });
    expect(queued().map((a) => a.action.kind)).toEqual(['markAllAsRead']);
    expect(await unreadOnServer()).toBeGreaterThanOrEqual(2);

    await goOnline();
    await replayed();
    expect(await unreadOnServer()).toBe(0);
    // The local server is at feature level 400: the public web app's way, not the deprecated call.
    expect(requests('POST', '/messages/flags/narrow')).toBeGreaterThanOrEqual(1);
    expect(requests('POST', '/mark_all_as_read')).toBe(0);
    expect(session().actions.notices()).toEqual([]);
  });

  it('asks a server below feature level 155 with POST /mark_all_as_read', async () => {
    await realm
      .client('emma')
      .post('/messages', { type: 'stream', to: channel, topic, content: 'x' });
    await eventually(async () => ((await unreadOnServer()) >= 1 ? true : undefined));
    const before = requests('POST', '/messages/flags/narrow');
    await callAction(
      { client: session().client, featureLevel: 154 },
      { kind: 'markAllAsRead', payload: {} },
    );
    expect(await unreadOnServer()).toBe(0);
    expect(requests('POST', '/mark_all_as_read')).toBe(1);
    expect(requests('POST', '/messages/flags/narrow')).toBe(before);
  });

  it('sends prev_content_sha256 only from feature level 379, where the server checks it', async () => {
    const edit = (featureLevel: number, content: string) =>
      callAction(
        { client: session().client, featureLevel },
        {
          kind: 'editMessage',
          payload: { messageId, content, prevContentSha256: sha256('not the text') },
        },
      );
    // Checked (and refused: the fingerprint is not the message's) at 379 ...
    await expect(edit(379, 'checked edit')).rejects.toMatchObject({ status: 400 });
    expect((await serverMessage()).raw_content).toBe('original text');
    // ... left out below it, where a server would not know it.
    await edit(378, 'unchecked edit');
    expect((await serverMessage()).raw_content).toBe('unchecked edit');
  });
});

describe("replay against the public server's answers (fixtures/zulip-server, feature level 372)", () => {
  it.runIf(haveShared(ERRORS_FIXTURE))(
    'undoes an edit refused as the public server refuses it, and says why',
    async () => {
      const refusal = recordedError('PATCH', '/api/v1/messages/');
      await goOffline();
      await handlers().editMessage({
        accountId: accountId(),
        messageId,
        content: 'edited offline',
      });
      proxy.inject({
        path: `/api/v1/messages/${messageId}`,
        method: 'PATCH',
        action: { status: refusal.status, body: refusal.response },
      });
      const from = eventCount();
      await goOnline();
      await replayed();
      const [notice] = session().actions.notices();
      expect(notice).toMatchObject({ kind: 'refused' });
      expect(notice!.text).toContain("You don't have permission to edit this message");
      expect((await serverMessage()).raw_content).toBe('original text');
      // The message shows the server's text again.
      expect(
        shown(from, (e) => e.type === 'update_message' && e.message_id === messageId),
      ).toMatchObject({ content: expect.stringContaining('original text') });
    },
  );

  it('takes a star or a reaction removal of messages deleted meanwhile as done for those', async () => {
    const doomed = await anotherMessage('deleted meanwhile');
    await realm.client('owner').post(`/messages/${doomed}/reactions`, { emoji_name: 'octopus' });
    await main.waitForPush('events', (b) =>
      b.events.some((e) => e.type === 'reaction' && e.message_id === doomed),
    );
    await goOffline();
    await handlers().updateFlags({
      accountId: accountId(),
      messages: [messageId, doomed],
      op: 'add',
      flag: 'starred',
    });
    await handlers().removeReaction({
      accountId: accountId(),
      messageId: doomed,
      emojiName: 'octopus',
      emojiCode: '1f419',
      reactionType: 'unicode_emoji',
    });
    // The public server's answer to both for a message that is gone: 400 "Invalid message(s)".
    await realm.client('owner').delete(`/messages/${doomed}`);
    await goOnline();
    await replayed();
    expect((await serverMessage()).message.flags).toContain('starred');
    expect(session().actions.notices()).toEqual([]);
  });
});

describe('replay against servers before feature level 193', () => {
  it('reads a reaction already gone from the text of the answer (code BAD_REQUEST)', async () => {
    await goOffline();
    await handlers().removeReaction({
      accountId: accountId(),
      messageId,
      emojiName: 'octopus',
      emojiCode: '1f419',
      reactionType: 'unicode_emoji',
    });
    // As servers older than feature level 193 answer: no REACTION_DOES_NOT_EXIST code.
    proxy.inject({
      path: `/api/v1/messages/${messageId}/reactions`,
      method: 'DELETE',
      action: {
        status: 400,
        body: { result: 'error', code: 'BAD_REQUEST', msg: "Reaction doesn't exist." },
      },
    });
    await goOnline();
    await replayed();
    expect(session().actions.notices()).toEqual([]);
  });
});

/** A failed call of errors-fl372.json (the public server's real answer) by method and path start. */
function recordedError(method: string, pathStart: string): RecordedCall {
  const calls = readSharedJson<RecordedCall[]>(ERRORS_FIXTURE);
  const call = calls.find(
    (c) => c.request.method === method && c.request.path.startsWith(pathStart),
  );
  if (!call) throw new Error(`no recorded ${method} ${pathStart}`);
  return call;
}

/** The main-process services in a child process that a test can SIGKILL (support/main-child.ts). */
function mainProcess(dataDir: string, first: boolean) {
  return new MainChild(dataDir, proxy.url, first ? realm.users.owner : null);
}

/** The actions a data folder's only account has queued on disk. */
function actionsOnDisk(dataDir: string): unknown[] {
  const accounts = join(dataDir, 'accounts');
  if (!existsSync(accounts)) return [];
  const [account] = readdirSync(accounts);
  const file = join(accounts, account!, 'actions.json');
  if (!existsSync(file)) return [];
  return (JSON.parse(readFileSync(file, 'utf8')) as { actions: unknown[] }).actions;
}
