// Outgoing webhooks against a real HTTP endpoint on 127.0.0.1: which messages call a bot, the
// payloads of both interfaces field by field, answers posted as the bot, retries, failures told to
// the bot's owner by the Notification Bot, a restart in the middle of a call, and refused URLs.
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { startTestServer, type TestServer } from '../support/server';
import type { ApiClient } from '../support/client';
import { registerQueue, type TestQueue } from '../support/events';
import { startWebhookEndpoint, type WebhookEndpoint } from '../support/webhook-endpoint';
import { outgoingWebhooksIdle } from '../../server/resources/webhooks/outgoing-delivery';
import {
  createChannel,
  fetchMessages,
  sendDirect,
  sendToChannel,
  topicNarrow,
} from './messages-support';
import { createUser } from '../../server/realm/accounts';
import { Role } from '../../server/realm/roles';

interface Bot {
  id: number;
  email: string;
  fullName: string;
  token: string;
  apiKey: string;
}

let botCount = 0;

/** An outgoing webhook bot owned by dev, calling url. */
async function createBot(server: TestServer, url: string, interfaceType = 1): Promise<Bot> {
  botCount += 1;
  const fullName = `Hook ${botCount}`;
  const dev = server.client('dev');
  const res = await dev.post('/bots', {
    full_name: fullName,
    short_name: `hook${botCount}`,
    bot_type: 3,
    payload_url: JSON.stringify(url),
    interface_type: interfaceType,
  });
  expect(res.status, res.text).toBe(200);
  const listed = (await dev.get('/bots')).body.bots.find(
    (b: { user_id: number }) => b.user_id === res.body.user_id,
  );
  return {
    id: res.body.user_id,
    email: listed.email,
    fullName,
    token: listed.services[0].token,
    apiKey: res.body.api_key,
  };
}

function pendingCalls(server: TestServer): number {
  return server.server.db
    .prepare<[], { n: number }>('SELECT COUNT(*) AS n FROM outgoing_webhook_deliveries')
    .get()!.n;
}

/** A queue of message events, rendered as the web app gets them. */
function messageQueue(client: ApiClient): Promise<TestQueue> {
  return registerQueue(client, { event_types: ['message'], apply_markdown: true });
}

/** The next message event from the given sender on the queue. */
async function messageFrom(queue: TestQueue, senderId: number) {
  const event = await queue.waitFor(
    (e) => e.type === 'message' && e.message.sender_id === senderId,
  );
  return event.message;
}

function notificationBotId(server: TestServer): number {
  return server.server.db
    .prepare<[], { id: number }>(
      "SELECT id FROM users WHERE email = 'notification-bot@tributary.local'",
    )
    .get()!.id;
}

/**
 * Farid mentions the bot in a topic of #general; returns the raw text of the Notification Bot's
 * notice to the bot's owner (dev), after checking the topic holds only Farid's message.
 */
async function noticeAfter(server: TestServer, bot: Bot, topic: string): Promise<string> {
  const dev = server.client('dev');
  const queue = await messageQueue(dev);
  await sendToChannel(server.client('farid'), 'general', topic, `@**${bot.fullName}** hi`);
  const notice = await messageFrom(queue, notificationBotId(server));
  const topicMessages = await fetchMessages(dev, { narrow: topicNarrow('general', topic) });
  expect(topicMessages.body.messages).toHaveLength(1);
  return (await dev.get(`/messages/${notice.id}`, { apply_markdown: false })).body.message.content;
}

describe('outgoing webhooks', () => {
  let server: TestServer;
  let endpoint: WebhookEndpoint;

  beforeAll(async () => {
    server = await startTestServer({
      heartbeatMs: 1000,
      outgoingWebhooks: { retryDelaysMs: [20, 20, 20], perBotConcurrency: 2 },
    });
    endpoint = await startWebhookEndpoint();
  });
  afterAll(async () => {
    await server.close();
    await endpoint.close();
  });

  it('posts the interface 1 payload for a mention and posts the answer in the same topic', async () => {
    const bot = await createBot(server, endpoint.url);
    endpoint.answerWith(() => ({ body: { content: 'pong from **bot**' } }));
    const dev = server.client('dev');
    const queue = await messageQueue(server.client('farid'));
    const content = `@**${bot.fullName}** ping *now*`;
    const id = await sendToChannel(dev, 'general', 'bots', content);
    const call = await endpoint.nextCall();

    expect(call.headers['content-type']).toBe('application/json');
    expect(call.headers['user-agent']).toMatch(/^ZulipOutgoingWebhook\//);
    const payload = call.json;
    expect(Object.keys(payload).sort()).toEqual(
      ['bot_email', 'bot_full_name', 'data', 'message', 'token', 'trigger'].sort(),
    );
    expect(payload.bot_email).toBe(bot.email);
    expect(payload.bot_full_name).toBe(bot.fullName);
    expect(payload.data).toBe(content);
    expect(payload.trigger).toBe('mention');
    expect(payload.token).toBe(bot.token);
    // The service token, never an API key.
    expect(call.body).not.toContain(bot.apiKey);
    expect(call.body).not.toContain(server.users.dev.api_key);
    const message = payload.message;
    expect(message.id).toBe(id);
    expect(message.type).toBe('stream');
    expect(message.content).toBe(content);
    expect(message.content_type).toBe('text/x-markdown');
    expect(message.rendered_content).toContain('class="user-mention"');
    expect(message.display_recipient).toBe('general');
    expect(message.subject).toBe('bots');
    expect(message.stream_id).toBe(
      (await dev.get('/get_stream_id', { stream: 'general' })).body.stream_id,
    );
    expect(message.sender_id).toBe(server.users.dev.user_id);
    expect(message.sender_email).toBe(server.users.dev.email);
    expect(message.sender_full_name).toBe(server.users.dev.full_name);
    expect(message.avatar_url).toEqual(expect.any(String));
    expect(message.timestamp).toEqual(expect.any(Number));

    const answer = await messageFrom(queue, bot.id);
    expect(answer.display_recipient).toBe('general');
    expect(answer.subject).toBe('bots');
    expect(answer.content).toContain('pong from <strong>bot</strong>');
    expect(answer.client).toBe('OutgoingWebhookResponse');
    await outgoingWebhooksIdle(server.server.ctx);
    expect(pendingCalls(server)).toBe(0);
  });

  it('calls the bot for direct messages, alone or in a group, and answers in the conversation', async () => {
    const bot = await createBot(server, endpoint.url);
    endpoint.answerWith((call) => ({ body: { content: `echo: ${call.json.data}` } }));
    const dev = server.client('dev');
    const devQueue = await messageQueue(dev);
    await sendDirect(dev, [bot.id], 'hello alone');
    let call = await endpoint.nextCall();
    expect(call.json.trigger).toBe('direct_message');
    expect(call.json.message.type).toBe('private');
    expect(call.json.message.display_recipient.map((r: { id: number }) => r.id).sort()).toEqual(
      [server.users.dev.user_id, bot.id].sort(),
    );
    let answer = await messageFrom(devQueue, bot.id);
    expect(answer.content).toBe('<p>echo: hello alone</p>');
    expect(answer.display_recipient).toHaveLength(2);

    const faridQueue = await messageQueue(server.client('farid'));
    await sendDirect(dev, [bot.id, server.users.farid.user_id], 'hello group');
    call = await endpoint.nextCall();
    expect(call.json.trigger).toBe('direct_message');
    expect(call.json.data).toBe('hello group');
    answer = await messageFrom(faridQueue, bot.id);
    expect(answer.content).toBe('<p>echo: hello group</p>');
    expect(answer.display_recipient.map((r: { id: number }) => r.id).sort()).toEqual(
      [server.users.dev.user_id, server.users.farid.user_id, bot.id].sort(),
    );
  });

  it('is not called by silent mentions, wildcards, code, or messages from bots', async () => {
    const bot = await createBot(server, endpoint.url);
    endpoint.answerWith(() => ({ body: { content: 'should not be called' } }));
    const before = endpoint.calls.length;
    const dev = server.client('dev');
    await sendToChannel(dev, 'general', 'quiet', `@_**${bot.fullName}** silently`);
    await sendToChannel(dev, 'general', 'quiet', `\`@**${bot.fullName}**\` in code`);
    await sendToChannel(dev, 'general', 'quiet', '@**all** wildcard');
    // Another bot (the helper bot) mentioning it, or writing to it, calls nothing.
    const helper = server.client('helperBot');
    await sendToChannel(helper, 'general', 'quiet', `@**${bot.fullName}** from a bot`);
    await sendDirect(helper, [bot.id], 'dm from a bot');
    expect(pendingCalls(server)).toBe(0);
    await outgoingWebhooksIdle(server.server.ctx);
    expect(endpoint.calls.length).toBe(before);
  });

  it('is called when mentioned through a group, and not once deactivated', async () => {
    const bot = await createBot(server, endpoint.url);
    endpoint.answerWith(() => ({ body: { content: 'group heard' } }));
    const dev = server.client('dev');
    const created = await dev.post('/user_groups/create', {
      name: 'hook-squad',
      description: 'bots that answer',
      members: [bot.id],
    });
    expect(created.status, created.text).toBe(200);
    await sendToChannel(dev, 'general', 'groups', '@*hook-squad* anyone?');
    const call = await endpoint.nextCall();
    expect(call.json.trigger).toBe('mention');
    expect(call.json.bot_email).toBe(bot.email);
    await outgoingWebhooksIdle(server.server.ctx);

    expect((await dev.delete(`/bots/${bot.id}`)).status).toBe(200);
    const before = endpoint.calls.length;
    await sendToChannel(dev, 'general', 'groups', `@**${bot.fullName}** still there?`);
    await sendDirect(dev, [server.users.farid.user_id], 'unrelated');
    expect(pendingCalls(server)).toBe(0);
    await outgoingWebhooksIdle(server.server.ctx);
    expect(endpoint.calls.length).toBe(before);
  });

  it('keeps at most perBotConcurrency calls in flight to one bot; the rest wait their turn', async () => {
    const bot = await createBot(server, endpoint.url);
    let release!: () => void;
    const held = new Promise<void>((r) => (release = r));
    endpoint.answerWith(async (call) => {
      await held;
      return { body: { content: `done ${call.json.data}` } };
    });
    const dev = server.client('dev');
    const queue = await messageQueue(dev);
    for (let i = 0; i < 4; i++) {
      await sendToChannel(dev, 'general', 'busy bot', `@**${bot.fullName}** job ${i}`);
    }
    await endpoint.nextCall();
    await endpoint.nextCall();
    // Two calls are held open; the other two stay queued however long they wait.
    await dev.get('/users/me');
    await sendToChannel(dev, 'general', 'busy bot', 'a message mentioning nobody');
    expect(endpoint.calls.filter((c) => c.json?.bot_email === bot.email)).toHaveLength(2);
    expect(pendingCalls(server)).toBe(4);
    release();
    const answers = new Set<string>();
    while (answers.size < 4) answers.add((await messageFrom(queue, bot.id)).content);
    expect(pendingCalls(server)).toBe(0);
  });

  it('never holds up the send: POST /messages answers while the bot has not', async () => {
    const bot = await createBot(server, endpoint.url);
    let release!: () => void;
    const held = new Promise<void>((r) => (release = r));
    endpoint.answerWith(async () => {
      await held;
      return { body: { content: 'late answer' } };
    });
    const queue = await messageQueue(server.client('farid'));
    const res = await server.client('dev').post('/messages', {
      type: 'channel',
      to: 'general',
      topic: 'slow bot',
      content: `@**${bot.fullName}** take your time`,
    });
    expect(res.status).toBe(200);
    await endpoint.nextCall();
    // The bot is still thinking; the server answers other requests meanwhile.
    expect((await server.client('farid').get('/users/me')).status).toBe(200);
    release();
    expect((await messageFrom(queue, bot.id)).content).toBe('<p>late answer</p>');
  });

  it('posts the Slack-compatible form and reads its text answer', async () => {
    const bot = await createBot(server, endpoint.url, 2);
    endpoint.answerWith(() => ({ body: { text: 'slack says hi' } }));
    const dev = server.client('dev');
    const queue = await messageQueue(dev);
    const content = `@**${bot.fullName}** hello slack`;
    const id = await sendToChannel(dev, 'general', 'slack', content);
    const call = await endpoint.nextCall();
    expect(call.headers['content-type']).toBe('application/x-www-form-urlencoded');
    const general = (await dev.get('/get_stream_id', { stream: 'general' })).body.stream_id;
    const timestamp = (await dev.get(`/messages/${id}`)).body.message.timestamp;
    expect(Object.fromEntries(call.form)).toEqual({
      token: bot.token,
      team_id: 'T1',
      team_domain: new URL(server.url).host,
      channel_id: `C${general}`,
      channel_name: 'general',
      thread_ts: String(timestamp),
      timestamp: String(timestamp),
      user_id: `U${server.users.dev.user_id}`,
      user_name: server.users.dev.full_name,
      text: content,
      trigger_word: 'mention',
      service_id: String(bot.id),
    });
    const answer = await messageFrom(queue, bot.id);
    expect(answer.content).toBe('<p>slack says hi</p>');
    expect(answer.subject).toBe('slack');

    // Slack's interface has no direct messages: the bot is not called for one.
    const before = endpoint.calls.length;
    await sendDirect(dev, [bot.id], 'dm to a slack bot');
    expect(pendingCalls(server)).toBe(0);
    expect(endpoint.calls.length).toBe(before);
  });

  it("does not call a bot switched to Slack's interface for a direct message queued before", async () => {
    const bot = await createBot(server, endpoint.url);
    endpoint.answerWith(() => 'hang');
    const dev = server.client('dev');
    await sendDirect(dev, [bot.id], 'queued under interface 1');
    await endpoint.nextCall();
    const res = await dev.patch(`/bots/${bot.id}`, { service_interface: 2 });
    expect(res.status, res.text).toBe(200);
    // The restart aborts the hanging call; its row is owed again, now to a Slack-format bot.
    endpoint.answerWith(() => ({ body: { content: 'must not be posted' } }));
    const calls = endpoint.calls.length;
    await server.restart();
    await vi.waitFor(() => expect(pendingCalls(server)).toBe(0), { timeout: 5000 });
    await outgoingWebhooksIdle(server.server.ctx);
    expect(endpoint.calls.length).toBe(calls);
  });

  it('posts nothing for response_not_required, an empty content or a JSON ""', async () => {
    const bot = await createBot(server, endpoint.url);
    const dev = server.client('dev');
    const answers = [{ response_not_required: true, content: 'no' }, { content: '   ' }, ''];
    for (const body of answers) {
      endpoint.answerWith(() => ({ body }));
      await sendToChannel(dev, 'general', 'no answer', `@**${bot.fullName}** hi`);
      await endpoint.nextCall();
    }
    await outgoingWebhooksIdle(server.server.ctx);
    const topic = await fetchMessages(dev, { narrow: topicNarrow('general', 'no answer') });
    expect(topic.body.messages.every((m: { sender_id: number }) => m.sender_id !== bot.id)).toBe(
      true,
    );
    expect(pendingCalls(server)).toBe(0);
  });

  it('posts the older response_string, and tells the owner about an answer too long to post', async () => {
    const bot = await createBot(server, endpoint.url);
    const dev = server.client('dev');
    const queue = await messageQueue(dev);
    endpoint.answerWith(() => ({ body: { response_string: 'old style' } }));
    await sendToChannel(dev, 'general', 'answers', `@**${bot.fullName}** hi`);
    expect((await messageFrom(queue, bot.id)).content).toBe('<p>old style</p>');

    endpoint.answerWith(() => ({ body: { content: 'x'.repeat(10_001) } }));
    await sendToChannel(dev, 'general', 'answers', `@**${bot.fullName}** say a lot`);
    const notice = await messageFrom(queue, notificationBotId(server));
    const raw = (await dev.get(`/messages/${notice.id}`, { apply_markdown: false })).body.message
      .content;
    expect(raw).toContain('resulted in the following error:\n> Message too long');
    await outgoingWebhooksIdle(server.server.ctx);
    const topic = await fetchMessages(dev, { narrow: topicNarrow('general', 'answers') });
    expect(
      topic.body.messages.filter((m: { sender_id: number }) => m.sender_id === bot.id),
    ).toHaveLength(1);
  });

  it("holds the bot's answer to the send path's checks, and tells the owner of a refusal", async () => {
    const bot = await createBot(server, endpoint.url);
    const dev = server.client('dev');
    /** Someone mentions the bot; returns the raw notice its owner (dev) gets. */
    const refusal = async (sender: ApiClient, channel: string, topic: string) => {
      const queue = await messageQueue(dev);
      await sendToChannel(sender, channel, topic, `@**${bot.fullName}** hi`);
      const notice = await messageFrom(queue, notificationBotId(server));
      const messages = await fetchMessages(dev, { narrow: topicNarrow(channel, topic) });
      expect(messages.body.messages).toHaveLength(1);
      return (await dev.get(`/messages/${notice.id}`, { apply_markdown: false })).body.message
        .content as string;
    };

    // A wildcard mention the realm does not allow the bot (a member) in a channel this large.
    const crowd: number[] = [];
    for (let i = 0; i < 15; i++) {
      crowd.push(
        createUser(server.server.db, {
          email: `hookcrowd${i}@tributary.local`,
          fullName: `Hook Crowd ${i}`,
          role: Role.member,
          password: null,
        }).id,
      );
    }
    await createChannel(server, server.client('owner'), 'hook-crowd', [
      server.users.owner.user_id,
      server.users.dev.user_id,
      bot.id,
      ...crowd,
    ]);
    endpoint.answerWith(() => ({ body: { content: '@**all** listen up' } }));
    let raw = await refusal(dev, 'hook-crowd', 'wildcard answer');
    expect(raw).toContain(
      'resulted in the following error:\n> You do not have permission to use channel wildcard mentions in this channel.',
    );

    // A channel only administrators may post to: the bot's answer is refused there.
    endpoint.answerWith(() => ({ body: { content: 'announcing' } }));
    raw = await refusal(server.client('admin'), 'announcements', 'bot news');
    expect(raw).toContain('> You do not have permission to post in this channel.');
  });

  it('retries a 5xx and answers once the endpoint recovers', async () => {
    const bot = await createBot(server, endpoint.url);
    let tries = 0;
    endpoint.answerWith(() => {
      tries += 1;
      return tries < 3 ? { status: 503, raw: 'restarting' } : { body: { content: 'back' } };
    });
    const queue = await messageQueue(server.client('dev'));
    await sendToChannel(server.client('dev'), 'general', 'flaky', `@**${bot.fullName}** hi`);
    const answer = await messageFrom(queue, bot.id);
    expect(answer.content).toBe('<p>back</p>');
    expect(tries).toBe(3);
  });

  it('tells the owner through the Notification Bot when retries run out; the sender sees nothing', async () => {
    const bot = await createBot(server, endpoint.url);
    endpoint.answerWith(() => ({ status: 500, raw: 'boom' }));
    const dev = server.client('dev');
    const devQueue = await messageQueue(dev);
    const farid = server.client('farid');
    const before = endpoint.calls.length;
    const res = await farid.post('/messages', {
      type: 'channel',
      to: 'general',
      topic: 'broken bot',
      content: `@**${bot.fullName}** are you there?`,
    });
    expect(res.status).toBe(200);
    const notice = await messageFrom(devQueue, notificationBotId(server));
    // The first try and three retries.
    expect(endpoint.calls.length - before).toBe(4);
    expect(notice.type).toBe('private');
    expect(notice.display_recipient.map((r: { id: number }) => r.id).sort()).toEqual(
      [notificationBotId(server), server.users.dev.user_id].sort(),
    );
    const raw = (await dev.get(`/messages/${notice.id}`, { apply_markdown: false })).body.message
      .content;
    expect(raw).toContain(`/near/${res.body.id}) to your bot @_**${bot.fullName}** triggered`);
    expect(raw).toContain('The webhook got a response with status code *500*.');
    expect(raw).toContain('boom');
    // Farid, who mentioned the bot, gets no error in the topic.
    const topic = await fetchMessages(farid, { narrow: topicNarrow('general', 'broken bot') });
    expect(topic.body.messages.map((m: { id: number }) => m.id)).toEqual([res.body.id]);
    expect(pendingCalls(server)).toBe(0);
  });

  it('tells the owner about an answer that is not JSON, and posts nothing', async () => {
    const bot = await createBot(server, endpoint.url);
    endpoint.answerWith(() => ({ raw: '<html>oops</html>', contentType: 'text/html' }));
    const dev = server.client('dev');
    const devQueue = await messageQueue(dev);
    await sendToChannel(dev, 'general', 'html bot', `@**${bot.fullName}** hi`);
    const notice = await messageFrom(devQueue, notificationBotId(server));
    const raw = (await dev.get(`/messages/${notice.id}`, { apply_markdown: false })).body.message
      .content;
    expect(raw).toContain('resulted in the following error:\n> Invalid JSON in response');
    expect(raw).toContain('<html>oops</html>');
    const topic = await fetchMessages(dev, { narrow: topicNarrow('general', 'html bot') });
    expect(topic.body.messages).toHaveLength(1);
  });

  it('survives a restart in the middle of a call and answers exactly once', async () => {
    const bot = await createBot(server, endpoint.url);
    endpoint.answerWith(() => 'hang');
    const dev = server.client('dev');
    const id = await sendToChannel(dev, 'general', 'restart', `@**${bot.fullName}** hold on`);
    const first = await endpoint.nextCall();
    expect(first.json.message.id).toBe(id);
    endpoint.answerWith(() => ({ body: { content: 'answered after the restart' } }));
    await server.restart();
    // Queued in SQLite, the call is made again by the restarted server.
    const again = await endpoint.nextCall();
    expect(again.json.message.id).toBe(id);
    const queue = await messageQueue(dev);
    const topicAnswers = async () =>
      (
        await fetchMessages(dev, { narrow: topicNarrow('general', 'restart') })
      ).body.messages.filter((m: { sender_id: number }) => m.sender_id === bot.id);
    if ((await topicAnswers()).length === 0) await messageFrom(queue, bot.id);
    await outgoingWebhooksIdle(server.server.ctx);
    expect(pendingCalls(server)).toBe(0);
    // After success nothing is owed: another restart calls nobody and posts nothing.
    const calls = endpoint.calls.length;
    await server.restart();
    await sendToChannel(dev, 'general', 'other', 'unrelated, mentions no bot');
    await outgoingWebhooksIdle(server.server.ctx);
    expect(endpoint.calls.length).toBe(calls);
    expect(await topicAnswers()).toHaveLength(1);
  });
});

describe('outgoing webhook failures', () => {
  let server: TestServer;
  let endpoint: WebhookEndpoint;

  beforeAll(async () => {
    server = await startTestServer({
      heartbeatMs: 1000,
      // The default timeout (10 s): a loaded machine must not turn a slow answer into a timeout.
      outgoingWebhooks: { retryDelaysMs: [10, 10, 10] },
    });
    endpoint = await startWebhookEndpoint();
  });
  afterAll(async () => {
    await server.close();
    await endpoint.close();
  });

  const noticeAfterMention = (bot: Bot, topic: string) => noticeAfter(server, bot, topic);

  it('retries when nothing listens, then tells the owner', async () => {
    const closed = await startWebhookEndpoint();
    const url = closed.url;
    await closed.close();
    const bot = await createBot(server, url);
    const notice = await noticeAfterMention(bot, 'refused');
    expect(notice).toContain('A connection error occurred. Is my bot server down?');
  });

  it('drops a 10 MB answer unread and stays responsive', async () => {
    const bot = await createBot(server, endpoint.url);
    endpoint.answerWith(() => ({ raw: Buffer.alloc(10 * 1024 * 1024, 'a') }));
    const notice = await noticeAfterMention(bot, 'huge');
    expect(notice).toContain('The response was larger than');
    expect((await server.client('dev').get('/users/me')).status).toBe(200);
  });

  it('does not retry a 4xx', async () => {
    const bot = await createBot(server, endpoint.url);
    endpoint.answerWith(() => ({ status: 404, raw: 'no such hook' }));
    const before = endpoint.calls.length;
    const notice = await noticeAfterMention(bot, 'not found');
    expect(notice).toContain('status code *404*');
    expect(endpoint.calls.length - before).toBe(1);
  });
});

describe('outgoing webhook timeouts and URLs', () => {
  let server: TestServer;
  let endpoint: WebhookEndpoint;
  beforeAll(async () => {
    server = await startTestServer({
      heartbeatMs: 1000,
      outgoingWebhooks: { timeoutMs: 300, retryDelaysMs: [10, 10, 10] },
    });
    endpoint = await startWebhookEndpoint();
  });
  afterAll(async () => {
    await server.close();
    await endpoint.close();
  });
  const noticeAfterMention = (bot: Bot, topic: string) => noticeAfter(server, bot, topic);

  it('retries a call that times out, then tells the owner', async () => {
    const bot = await createBot(server, endpoint.url);
    endpoint.answerWith(() => 'hang');
    const before = endpoint.calls.length;
    const notice = await noticeAfterMention(bot, 'timeout');
    expect(notice).toContain('Request timed out after 0.3 seconds.');
    expect(endpoint.calls.length - before).toBe(4);
  });

  it('refuses URLs that are not http(s) or carry credentials, on create and on change', async () => {
    const dev = server.client('dev');
    for (const url of [
      'ftp://example.com/hook',
      'javascript:alert(1)',
      'http://user:secret@example.com/hook',
      'not a url',
    ]) {
      const res = await dev.post('/bots', {
        full_name: 'Bad URL',
        short_name: 'badurl',
        bot_type: 3,
        payload_url: JSON.stringify(url),
      });
      expect(res.status, url).toBe(400);
      expect(res.body.msg).toBe('payload_url is not a URL');
    }
    const bot = await createBot(server, 'https://example.com/hook');
    const res = await dev.patch(`/bots/${bot.id}`, {
      service_payload_url: JSON.stringify('http://a:b@example.com/'),
    });
    expect(res.status).toBe(400);
    expect(res.body.msg).toBe('service_payload_url is not a URL');
    const listed = (await dev.get('/bots')).body.bots.find(
      (b: { user_id: number }) => b.user_id === bot.id,
    );
    expect(listed.services[0].base_url).toBe('https://example.com/hook');
  });
});
