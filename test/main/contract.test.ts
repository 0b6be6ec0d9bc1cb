// One behavioural suite for the IPC contract, run against both transports (Electron IPC with mocked
// ipcMain/contextBridge sides, and the real browser-mode WebSocket bridge), each in front of real
// main-process services signed in to a real local realm server.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pushNames, type PushName, type PushPayload } from '../../shared/ipc/contract';
import type { TributaryError } from '../../shared/ipc/errors';
import { startTestServer, type TestServer } from '../support/server';
import { bothTransports, type TestFile, type TransportUnderTest } from './support/transports';
import { eventually } from './support/harness';

describe.each(bothTransports)('IPC contract over the %s transport', (_name, makeTransport) => {
  let realm: TestServer;
  let transport: TransportUnderTest;
  let accountId: string;
  const received: Array<{ channel: PushName; payload: unknown }> = [];
  const results: unknown[] = [];

  const record = async <T>(promise: Promise<T>): Promise<T> => {
    const value = await promise;
    results.push(value);
    return value;
  };
  const waitForPush = <K extends PushName>(
    channel: K,
    match: (payload: PushPayload<K>) => boolean = () => true,
  ) =>
    eventually(() => {
      const found = received.find(
        (p) => p.channel === channel && match(p.payload as PushPayload<K>),
      );
      return found?.payload as PushPayload<K> | undefined;
    });

  beforeAll(async () => {
    realm = await startTestServer({ heartbeatMs: 1_000, maxFileUploadSizeMib: 1 });
    transport = await makeTransport({ tusThresholdBytes: 64 * 1024 });
    for (const channel of pushNames) {
      transport.api.on(channel, (payload) => received.push({ channel, payload }));
    }
    const account = await record(
      transport.api.addAccount({
        site: realm.url,
        auth: { kind: 'apiKey', email: realm.users.owner.email, apiKey: realm.users.owner.api_key },
      }),
    );
    accountId = account.id;
  });

  afterAll(async () => {
    await transport?.close();
    await realm?.close();
  });

  it('checks a server before adding it and reports its name and feature level', async () => {
    const check = await record(transport.api.checkServer({ site: realm.url }));
    expect(check.featureLevel).toBeGreaterThan(0);
    expect(check.realmName.length).toBeGreaterThan(0);
  });

  it('lists the account and pushes a snapshot of its realm state', async () => {
    const { accounts, activeAccountId } = await record(transport.api.listAccounts({}));
    expect(accounts.map((a) => a.email)).toEqual([realm.users.owner.email]);
    expect(activeAccountId).toBe(accountId);
    const snapshot = await waitForPush('snapshot', (s) => s.accountId === accountId);
    expect(snapshot.register.user_id).toBe(realm.users.owner.user_id);
    const fetched = await record(transport.api.getSnapshot({ accountId }));
    expect(fetched.snapshot?.queueId).toBe(snapshot.queueId);
    await waitForPush('connection', (c) => c.accountId === accountId && c.state.status === 'live');
  });

  it('rejects malformed payloads with INVALID_PAYLOAD before reaching the server', async () => {
    const error = (await transport.api
      // @ts-expect-error content is required
      .sendMessage({ accountId, message: { type: 'channel', to: 1, topic: 't' } })
      .catch((e: unknown) => e)) as TributaryError;
    expect(error.code).toBe('INVALID_PAYLOAD');
    const extra = (await transport.api
      // @ts-expect-error unknown keys are refused, not ignored
      .listAccounts({ apiKey: 'x' })
      .catch((e: unknown) => e)) as TributaryError;
    expect(extra.code).toBe('INVALID_PAYLOAD');
    const badAccount = (await transport.api
      .getSnapshot({ accountId: '../../etc' })
      .catch((e: unknown) => e)) as TributaryError;
    expect(badAccount.code).toBe('INVALID_PAYLOAD');
  });

  it('answers an unknown account with UNKNOWN_ACCOUNT', async () => {
    const error = (await transport.api
      .getSnapshot({ accountId: 'nosuchaccount' })
      .catch((e: unknown) => e)) as TributaryError;
    expect(error.code).toBe('UNKNOWN_ACCOUNT');
  });

  it('sends a message with local echo and delivers it as one event batch', async () => {
    const { snapshot } = await transport.api.getSnapshot({ accountId });
    const channel = snapshot!.register.subscriptions[0].name;
    const sent = await record(
      transport.api.sendMessage({
        accountId,
        message: { type: 'channel', to: channel, topic: 'contract', content: 'hello over IPC' },
      }),
    );
    expect(sent.state).toBe('sent');
    const batch = await waitForPush('events', (b) =>
      b.events.some((e) => e.type === 'message' && e.message.id === sent.messageId),
    );
    const event = batch.events.find((e) => e.type === 'message' && e.message.id === sent.messageId);
    expect(event && 'local_message_id' in event && event.local_message_id).toBe(sent.localId);
    const page = await record(
      transport.api.getMessages({
        accountId,
        anchor: 'newest',
        numBefore: 5,
        numAfter: 0,
        narrow: [],
      }),
    );
    expect(page.messages.some((m) => m.id === sent.messageId)).toBe(true);
  });

  it("carries the server's error code through", async () => {
    const error = (await transport.api
      .sendMessage({
        accountId,
        message: { type: 'channel', to: 'no such channel here', topic: 't', content: 'x' },
      })
      .catch((e: unknown) => e)) as TributaryError;
    expect(error.code).toBe('STREAM_DOES_NOT_EXIST');
  });

  it('uploads a file the user chose and reports progress up to done', async () => {
    const path = join(transport.dataDir, 'note.txt');
    const bytes = Buffer.from('a small note\n'.repeat(100));
    writeFileSync(path, bytes);
    const file = Object.assign(new Blob([bytes]), { name: 'note.txt', path }) as TestFile;
    const { uploadId } = await record(transport.api.uploadFile(accountId, file));
    const done = await waitForPush(
      'uploadProgress',
      (p) => p.uploadId === uploadId && p.state !== 'uploading',
    );
    expect(done.state).toBe('done');
    expect(done.url).toMatch(/^\/user_uploads\//);
    expect(done.loaded).toBe(bytes.length);
  });

  it("refuses a file over the server's limit with FILE_TOO_LARGE before uploading it", async () => {
    const path = join(transport.dataDir, 'big.bin');
    const bytes = Buffer.alloc(1024 * 1024 + 1);
    writeFileSync(path, bytes);
    const file = Object.assign(new Blob([bytes]), { name: 'big.bin', path }) as TestFile;
    const progressBefore = received.filter((p) => p.channel === 'uploadProgress').length;
    const error = (await transport.api
      .uploadFile(accountId, file)
      .catch((e: unknown) => e)) as TributaryError;
    expect(error.code).toBe('FILE_TOO_LARGE');
    expect(error.message).toMatch(/up to 1 MiB/);
    expect(received.filter((p) => p.channel === 'uploadProgress').length).toBe(progressBefore);
  });

  it('after a dropped bridge, reconnects and replays the state it may have missed', async (context) => {
    if (!transport.disconnect) return context.skip(); // Electron IPC has no connection to lose
    const snapshotsBefore = received.filter((p) => p.channel === 'snapshot').length;
    transport.disconnect();
    await eventually(() =>
      received.filter((p) => p.channel === 'snapshot').length > snapshotsBefore ? true : undefined,
    );
    const replayed = received.filter((p) => p.channel === 'snapshot').at(-1)!
      .payload as PushPayload<'snapshot'>;
    expect(replayed.accountId).toBe(accountId);
    // And calls work again.
    const { accounts } = await record(transport.api.listAccounts({}));
    expect(accounts).toHaveLength(1);
  });

  it('fails an upload whose bytes were streaming when the bridge dropped, clearly; a retry works', async (context) => {
    if (!transport.disconnect) return context.skip();
    const bytes = Buffer.alloc(900 * 1024, 7);
    const replays = () => received.filter((p) => p.channel === 'snapshot').length;
    const before = replays();
    // The second chunk is read after the socket dropped and the bridge reconnected.
    const dropping = {
      name: 'dropped.bin',
      size: bytes.length,
      slice: (start: number, end: number) => ({
        arrayBuffer: async () => {
          if (start > 0 && replays() === before) {
            transport.disconnect!();
            await eventually(() => (replays() > before ? true : undefined));
          }
          return new Uint8Array(bytes.subarray(start, end)).buffer;
        },
      }),
    } as unknown as TestFile;
    const error = (await transport.api
      .uploadFile(accountId, dropping)
      .catch((e: unknown) => e)) as TributaryError;
    expect(error.code).toBe('BRIDGE_CLOSED');
    expect(error.message).toMatch(/dropped while sending dropped\.bin; try the upload again/);
    const retry = Object.assign(new Blob([bytes]), {
      name: 'dropped.bin',
      path: '',
    }) as TestFile;
    const { uploadId } = await transport.api.uploadFile(accountId, retry);
    const done = await waitForPush(
      'uploadProgress',
      (p) => p.uploadId === uploadId && p.state !== 'uploading',
    );
    expect(done.state).toBe('done');
  });

  it('replays the end of an upload a dropped bridge may have missed', async (context) => {
    if (!transport.disconnect) return context.skip();
    const file = Object.assign(new Blob(['replayed bytes']), {
      name: 'replayed.txt',
      path: '',
    }) as TestFile;
    const { uploadId } = await transport.api.uploadFile(accountId, file);
    await waitForPush('uploadProgress', (p) => p.uploadId === uploadId && p.state === 'done');
    const ends = () =>
      received.filter(
        (p) =>
          p.channel === 'uploadProgress' &&
          (p.payload as PushPayload<'uploadProgress'>).uploadId === uploadId &&
          (p.payload as PushPayload<'uploadProgress'>).state === 'done',
      ).length;
    const endsBefore = ends();
    transport.disconnect();
    await eventually(() => (ends() > endsBefore ? true : undefined));
  });

  it('never hands the API key to the renderer side', () => {
    const key = realm.users.owner.api_key;
    const everything = JSON.stringify({ received, results });
    expect(everything.length).toBeGreaterThan(1000);
    expect(everything).not.toContain(key);
    expect(everything).not.toContain(
      Buffer.from(`${realm.users.owner.email}:${key}`).toString('base64'),
    );
  });
});
