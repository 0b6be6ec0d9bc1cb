// The outbox under crashes: the main process (in a child process, killed with SIGKILL), the realm
// server, or both, fail at each step of a send: queued, in flight, stored but not acknowledged, and
// acknowledged (before the outbox wrote that down). Topics with trailing spaces, the empty topic,
// and the same text twice in one topic. After each crash the app starts again on the same data
// folder; every typed message must then be on the server exactly once, and the outbox empty.
import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { OutgoingMessage } from '../../shared/ipc/chat';
import { startTestServer, type TestServer } from '../support/server';
import { startFaultProxy, type FaultProxy } from './support/fault-proxy';
import { eventually } from './support/harness';
import { MainChild } from './support/main-child';

let realm: TestServer;
let proxy: FaultProxy;
let dataDir: string;
let app: MainChild | null = null;
let channel: string;
let run = 0;

/** The main process in a child (first: signing the owner in on the new data folder). */
async function start(first = false): Promise<MainChild> {
  app = new MainChild(dataDir, proxy.url, first ? realm.users.owner : null);
  await app.waitFor('live');
  return app;
}

/** Each message as typed, with how many copies the server must finally hold of its text. */
const stored = async (topic: string | null, content: string) => {
  const res = await realm.client('owner').get('/messages', {
    anchor: 'newest',
    num_before: 500,
    num_after: 0,
    narrow: [{ operator: 'sender', operand: realm.users.owner.user_id }],
    apply_markdown: false,
    allow_empty_topic_name: true,
  });
  expect(res.status).toBe(200);
  return (res.body.messages as Array<{ content: string; subject: string }>).filter(
    (m) => m.content === content && (topic === null || m.subject === topic.trim()),
  ).length;
};

const toChannel = (topic: string, content: string): OutgoingMessage => ({
  type: 'channel',
  to: channel,
  topic,
  content,
});

/** What the outbox file on disk holds (written before anything is announced). */
function outboxOnDisk(): unknown[] {
  const accounts = join(dataDir, 'accounts');
  const [account] = readdirSync(accounts);
  const file = join(accounts, account!, 'outbox.json');
  if (!existsSync(file)) return [];
  const stored = JSON.parse(readFileSync(file, 'utf8')) as { entries: unknown[] } | unknown[];
  return Array.isArray(stored) ? stored : stored.entries;
}

/** Restarts the app after a crash and waits until its outbox has gone out. */
async function restartAndDrain(): Promise<void> {
  await start();
  // Generous: a restarted app re-registers and looks the message up before sending it again, and
  // on a busy machine (two test workers on two cores) that took over 30 s once.
  await eventually(() => (outboxOnDisk().length === 0 ? true : undefined), 60_000);
}

beforeAll(async () => {
  realm = await startTestServer({ heartbeatMs: 500 });
  proxy = await startFaultProxy(() => realm.url);
  const subs = await realm.client('owner').get('/users/me/subscriptions');
  channel = (subs.body.subscriptions as Array<{ name: string }>)[0]!.name;
}, 60_000);
afterAll(async () => {
  await proxy?.close();
  await realm?.close();
});
beforeEach(async () => {
  run += 1;
  dataDir = mkdtempSync(join(tmpdir(), 'tributary-outbox-faults-'));
  await start(true);
});
afterEach(async () => {
  proxy.clearRules();
  await proxy.acceptConnections().catch(() => undefined);
  await app?.kill();
  app = null;
  rmSync(dataDir, { recursive: true, force: true });
});

describe('exactly once through crashes', { timeout: 120_000 }, () => {
  it('queued: killed while offline, sent once after the restart (trailing-space topic)', async () => {
    const topic = `queued ${run} `;
    await proxy.refuseConnections();
    app!.send('q-1', toChannel(topic, 'first'));
    app!.send('q-2', toChannel(topic, 'first'));
    await app!.waitFor((f) => f.op === 'outbox' && f.entries?.length === 2);
    await app!.kill();
    await proxy.acceptConnections();
    await restartAndDrain();
    await eventually(async () => ((await stored(topic, 'first')) === 2 ? true : undefined));
    expect(await stored(topic, 'first')).toBe(2);
  });

  it('in flight: killed before the server stored it, sent once after the restart', async () => {
    const topic = `in flight ${run}`;
    proxy.inject({ path: '/api/v1/messages', method: 'POST', action: { delayMs: 60_000 } });
    // This test's own send: the log keeps the earlier tests' POSTs, and waiting on those killed the
    // app before its request left, so the restarted app's send was the one held (60 s) and it
    // waited out its 30 s client timeout instead of the crash being in flight.
    const logged = proxy.log.length;
    app!.send('f-1', toChannel(topic, 'hello'));
    await app!.waitFor((f) => f.op === 'outbox' && f.entries?.length === 1);
    await eventually(() =>
      proxy.log.slice(logged).includes('POST /api/v1/messages') ? true : undefined,
    );
    await app!.kill();
    await restartAndDrain();
    await eventually(async () => ((await stored(topic, 'hello')) === 1 ? true : undefined));
    expect(await stored(topic, 'hello')).toBe(1);
  });

  it('stored but not acknowledged: the same text twice, the second one lost in the crash (empty topic)', async () => {
    const content = `ok ${run}`;
    app!.send('s-1', toChannel('', content));
    await app!.waitFor((f) => f.op === 'sent' && f.localId === 's-1' && f.messageId !== null);
    // The second "ok" reaches the server; its answer does not, nor may the app look it up.
    proxy.inject({ path: '/api/v1/messages', method: 'POST', action: 'drop-response' });
    proxy.inject({ path: '/api/v1/messages', method: 'GET', action: 'drop-request', times: 50 });
    app!.send('s-2', toChannel('', content));
    await app!.waitFor((f) => f.op === 'sent' && f.localId === 's-2');
    await app!.kill();
    proxy.clearRules();
    await restartAndDrain();
    // Neither lost (taken for the first) nor sent twice.
    await eventually(async () => ((await stored('', content)) >= 2 ? true : undefined));
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(await stored('', content)).toBe(2);
  });

  it('acknowledged: killed right after the answer, never sent again', async () => {
    const topic = `acknowledged ${run}`;
    app!.send('a-1', toChannel(topic, 'done'));
    await app!.waitFor((f) => f.op === 'sent' && f.localId === 'a-1');
    await app!.kill();
    await restartAndDrain();
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(await stored(topic, 'done')).toBe(1);
  });

  it('the server killed mid-send and started again: stored once', async () => {
    const topic = `server down ${run}`;
    proxy.inject({ path: '/api/v1/messages', method: 'POST', action: 'drop-response' });
    app!.send('v-1', toChannel(topic, 'while it restarts'));
    await app!.waitFor((f) => f.op === 'sent' && f.localId === 'v-1');
    await realm.restart();
    await eventually(async () =>
      (await stored(topic, 'while it restarts')) === 1 ? true : undefined,
    );
    await new Promise((resolve) => setTimeout(resolve, 1000));
    expect(await stored(topic, 'while it restarts')).toBe(1);
  });

  it('both killed: the app and the server, with a message stored but not acknowledged', async () => {
    const topic = `both ${run}`;
    proxy.inject({ path: '/api/v1/messages', method: 'POST', action: 'drop-response' });
    proxy.inject({ path: '/api/v1/messages', method: 'GET', action: 'drop-request', times: 50 });
    app!.send('b-1', toChannel(topic, 'everything fell over'));
    app!.send('b-2', { type: 'direct', to: [realm.users.emma.user_id], content: `dm ${run}` });
    await app!.waitFor((f) => f.op === 'sent' && f.localId === 'b-1');
    await app!.kill();
    await realm.restart();
    proxy.clearRules();
    await restartAndDrain();
    await eventually(async () =>
      (await stored(topic, 'everything fell over')) === 1 && (await stored(null, `dm ${run}`)) === 1
        ? true
        : undefined,
    );
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(await stored(topic, 'everything fell over')).toBe(1);
    expect(await stored(null, `dm ${run}`)).toBe(1);
  });
});
