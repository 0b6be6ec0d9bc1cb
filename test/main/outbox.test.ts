// The outbox against the real local realm server (faults from the proxy): messages sent offline or
// after a failure survive a restart, go out when the connection returns, and never appear twice,
// even when an attempt reached the server but its answer was lost.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { OutboxEntry } from '../../shared/ipc/chat';
import type { TestServer } from '../support/server';
import type { FaultProxy } from './support/fault-proxy';
import { eventually, type MainHarness } from './support/harness';
import { mainThroughProxy } from './support/through-proxy';

let realm: TestServer;
let proxy: FaultProxy;
let main: MainHarness;
let channel: string;

mainThroughProxy('owner', (env) => {
  ({ realm, proxy, main } = env);
  channel = env.snapshot.register.subscriptions[0].name;
});

/** How many copies of `content` the owner has on the server. */
const copiesOnServer = async (content: string) => {
  const res = await realm.client('owner').get('/messages', {
    anchor: 'newest',
    num_before: 200,
    num_after: 0,
    narrow: [{ operator: 'sender', operand: realm.users.owner.user_id }],
    apply_markdown: false,
  });
  expect(res.status).toBe(200);
  return (res.body.messages as Array<{ content: string }>).filter((m) => m.content === content)
    .length;
};
const outbox = () => main.services.session(main.accountId).outbox.list();
const posts = () => proxy.log.filter((line) => line === 'POST /api/v1/messages').length;

describe('outbox', () => {
  it('keeps a message sent offline across a restart and sends it once when the connection returns', async () => {
    await proxy.refuseConnections();
    main.services.wakeAll();
    await eventually(() => (main.services.session(main.accountId).isOnline() ? undefined : true));
    const content = `offline ${Date.now()}`;
    const sent = await main.services.handlers.sendMessage({
      accountId: main.accountId,
      message: { type: 'channel', to: channel, topic: 'outbox', content },
    });
    expect(sent).toMatchObject({ state: 'queued', messageId: null });
    expect(outbox().map((e) => e.localId)).toEqual([sent.localId]);

    await main.restart(); // still offline: the entry must come back from disk
    expect(outbox().map((e) => e.message.content)).toEqual([content]);
    await proxy.acceptConnections();
    main.services.wakeAll();

    await eventually(() => (outbox().length === 0 ? true : undefined));
    expect(await copiesOnServer(content)).toBe(1);
    // Local echo: the event for it names the outbox entry's local id.
    const batch = await main.waitForPush('events', (b) =>
      b.events.some((e) => e.type === 'message' && e.local_message_id === sent.localId),
    );
    expect(batch.accountId).toBe(main.accountId);
  });

  it('does not send twice when an attempt was delivered but its answer was lost', async () => {
    proxy.inject({ path: '/api/v1/messages', method: 'POST', action: 'drop-response' });
    const content = `ambiguous ${Date.now()}`;
    const before = posts();
    const sent = await main.services.handlers.sendMessage({
      accountId: main.accountId,
      message: { type: 'channel', to: channel, topic: 'outbox', content },
    });
    expect(sent.state).toBe('queued'); // the answer never came
    await eventually(() => (outbox().length === 0 ? true : undefined));
    expect(await copiesOnServer(content)).toBe(1);
    expect(posts() - before).toBe(1); // found on the server, not sent again
  });

  it('does not send a direct message twice when its answer was lost', async () => {
    proxy.inject({ path: '/api/v1/messages', method: 'POST', action: 'drop-response' });
    const content = `ambiguous dm ${Date.now()}`;
    const before = posts();
    const sent = await main.services.handlers.sendMessage({
      accountId: main.accountId,
      message: { type: 'direct', to: [realm.users.emma.user_id], content },
    });
    expect(sent.state).toBe('queued');
    await eventually(() => (outbox().length === 0 ? true : undefined));
    expect(await copiesOnServer(content)).toBe(1);
    expect(posts() - before).toBe(1); // the DM was found on the server, not sent again
  });

  it('checks the server before resending an entry a crash left "sending"', async () => {
    const content = `crashed ${Date.now()}`;
    const delivered = await realm.client('owner').post('/messages', {
      type: 'channel',
      to: channel,
      topic: 'outbox',
      content,
    });
    expect(delivered.status).toBe(200);
    const file = join(main.dataDir, 'accounts', main.accountId, 'outbox.json');
    await main.services.stop();
    const entry: OutboxEntry & { maybeDelivered: boolean } = {
      localId: 'crashed-entry',
      accountId: main.accountId,
      message: { type: 'channel', to: channel, topic: 'outbox', content },
      state: 'sending',
      attempts: 1,
      createdAt: Date.now() - 1000,
      lastError: null,
      maybeDelivered: false,
    };
    writeFileSync(file, JSON.stringify([entry]));
    const before = posts();
    await main.restart();
    await eventually(() => (outbox().length === 0 ? true : undefined));
    expect(await copiesOnServer(content)).toBe(1);
    expect(posts() - before).toBe(0);
  });

  it('signs the account out on a 401 while sending, keeping the message and not retrying', async () => {
    proxy.inject({
      path: '/api/v1/messages',
      method: 'POST',
      action: {
        status: 401,
        body: { result: 'error', code: 'INVALID_API_KEY', msg: 'Invalid API key' },
      },
    });
    const before = posts();
    const content = `unauthorized ${Date.now()}`;
    const sent = await main.services.handlers.sendMessage({
      accountId: main.accountId,
      message: { type: 'channel', to: channel, topic: 'outbox', content },
    });
    expect(sent.state).toBe('queued');
    await main.waitForPush(
      'connection',
      (c) => c.accountId === main.accountId && c.state.status === 'signed_out',
    );
    expect(outbox()).toMatchObject([{ state: 'pending', message: { content } }]);
    // Typed while signed out: kept for after the user signs in again, not sent, not refused.
    const later = await main.services.handlers.sendMessage({
      accountId: main.accountId,
      message: { type: 'channel', to: channel, topic: 'outbox', content: 'later' },
    });
    expect(later.state).toBe('queued');
    expect(outbox().map((e) => e.message.content)).toEqual([content, 'later']);
    const refused = await (async () =>
      main.services.handlers.getMessages({
        accountId: main.accountId,
        anchor: 'newest',
        numBefore: 1,
        numAfter: 0,
        narrow: [],
      }))().catch((e: unknown) => e);
    expect((refused as { code: string }).code).toBe('SIGNED_OUT');
    expect(posts() - before).toBe(1);
    expect(await copiesOnServer(content)).toBe(0);

    // Signing in again sends both, once each, in order.
    await main.services.handlers.reauthenticate({
      accountId: main.accountId,
      auth: { kind: 'apiKey', email: realm.users.owner.email, apiKey: realm.users.owner.api_key },
    });
    await eventually(() => (outbox().length === 0 ? true : undefined));
    expect(await copiesOnServer(content)).toBe(1);
    expect(await copiesOnServer('later')).toBe(1);
  });

  it('keeps a refused message as failed, with the server code, until retried or discarded', async () => {
    const error = (await Promise.resolve(
      main.services.handlers.sendMessage({
        accountId: main.accountId,
        message: { type: 'channel', to: 'no such channel', topic: 'x', content: 'lost?' },
      }),
    ).catch((e: unknown) => e)) as { code: string };
    expect(error.code).toBe('STREAM_DOES_NOT_EXIST');
    expect(outbox()).toMatchObject([{ state: 'failed', message: { content: 'lost?' } }]);
    await main.restart();
    const [failed] = outbox();
    expect(failed.state).toBe('failed');
    expect(
      JSON.parse(
        readFileSync(join(main.dataDir, 'accounts', main.accountId, 'outbox.json'), 'utf8'),
      ).entries,
    ).toHaveLength(1);
    await main.services.handlers.discardOutboxEntry({
      accountId: main.accountId,
      localId: failed.localId,
    });
    expect(outbox()).toEqual([]);
  });
});
