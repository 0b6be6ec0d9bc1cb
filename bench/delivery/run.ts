// npm run bench:delivery -- [--messages 300] [--warmup 30]
//
// Delivery through the full main-process path: account A (the demo owner) sends a channel message
// through the renderer-facing API (the browser-mode WebSocket bridge -> host -> MainServices -> API
// client -> POST /messages), and we time until account B (emma, signed in to the same host) sees it
// on her renderer-facing stream (server event queue -> B's long-poll in main -> "events" push -> the
// bridge). Messages are sent one at a time; each waits for its delivery.
//
// Reference in the same run: a bare HTTP round trip (GET /api/v1/users/me) on the same loopback to
// the same server. The realm server runs as a child process (the real CLI); main and the bridge
// client share this process, as main and a renderer share one machine.
// Prints the figures and writes bench/.out/delivery.json.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { availableParallelism, cpus, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import WebSocket from 'ws';
import type { EventBatch } from '../../shared/ipc/accounts';
import { createWebSocketBridge, type WebSocketLike } from '../../shared/ipc/bridge-client';
import { FileVault } from '../../electron/accounts/vault';
import { startBrowserHost } from '../../electron/host/host';
import { startServerProcess } from '../support/server-process';
import { writeBenchFigures } from '../support/output';

const root = fileURLToPath(new URL('../..', import.meta.url));
const { values } = parseArgs({
  options: {
    messages: { type: 'string', default: '300' },
    warmup: { type: 'string', default: '30' },
  },
});
const MESSAGES = Number(values.messages);
const WARMUP = Number(values.warmup);

interface DemoUser {
  email: string;
  api_key: string;
  role: number;
  is_bot: boolean;
}

function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
}

function summary(samples: number[]) {
  const sorted = [...samples].sort((a, b) => a - b);
  const round = (n: number) => Math.round(n * 100) / 100;
  return {
    count: sorted.length,
    p50_ms: round(percentile(sorted, 50)),
    p99_ms: round(percentile(sorted, 99)),
    max_ms: round(sorted[sorted.length - 1] ?? NaN),
    mean_ms: round(sorted.reduce((a, b) => a + b, 0) / Math.max(1, sorted.length)),
  };
}

async function main(): Promise<void> {
  const work = mkdtempSync(join(tmpdir(), 'tributary-delivery-'));
  const realmDir = join(work, 'realm');
  const server = await startServerProcess(realmDir);
  const users = (
    JSON.parse(readFileSync(join(realmDir, 'demo-credentials.json'), 'utf8')) as {
      users: DemoUser[];
    }
  ).users;
  const sender = users.find((u) => u.email.startsWith('owner@'))!;
  const receiver = users.find((u) => u.email.startsWith('emma@'))!;

  const host = await startBrowserHost({
    dataDir: join(work, 'main'),
    vault: new FileVault(join(work, 'main')),
    rendererDir: join(root, 'dist/renderer'),
  });
  const bridge = createWebSocketBridge({
    origin: `ws://127.0.0.1:${host.port}`,
    secret: host.secret,
    createSocket: (url) =>
      new WebSocket(url, { origin: `http://127.0.0.1:${host.port}` }) as unknown as WebSocketLike,
  });
  try {
    const a = await bridge.addAccount({
      site: server.url,
      auth: { kind: 'apiKey', email: sender.email, apiKey: sender.api_key },
    });
    const b = await bridge.addAccount({
      site: server.url,
      auth: { kind: 'apiKey', email: receiver.email, apiKey: receiver.api_key },
    });
    // Both accounts live; a channel both are subscribed to.
    let snapshotB = (await bridge.getSnapshot({ accountId: b.id })).snapshot;
    for (
      let i = 0;
      !snapshotB || (await bridge.getSnapshot({ accountId: a.id })).connection.status !== 'live';
      i++
    ) {
      if (i > 200) throw new Error('accounts did not connect');
      await new Promise((resolve) => setTimeout(resolve, 50));
      snapshotB = (await bridge.getSnapshot({ accountId: b.id })).snapshot;
    }
    const channel = snapshotB.register.subscriptions[0];

    const arrivals = new Map<string, (at: number) => void>();
    bridge.on('events', (batch: EventBatch) => {
      const at = performance.now();
      if (batch.accountId !== b.id) return;
      for (const event of batch.events) {
        if (event.type !== 'message') continue;
        const nonce = /nonce-(\d+)/.exec(event.message.content)?.[1];
        if (nonce) arrivals.get(nonce)?.(at);
      }
    });

    const delivery: number[] = [];
    /** Time until sendMessage resolved (POST /messages answered), for the breakdown. */
    const sendReturn: number[] = [];
    for (let i = 0; i < WARMUP + MESSAGES; i++) {
      const nonce = String(i);
      const arrived = new Promise<number>((resolve) => arrivals.set(nonce, resolve));
      const start = performance.now();
      await bridge.sendMessage({
        accountId: a.id,
        message: {
          type: 'channel',
          to: channel.stream_id,
          topic: 'delivery bench',
          content: `nonce-${nonce}`,
        },
      });
      const returned = performance.now();
      const at = await arrived;
      if (i >= WARMUP) sendReturn.push(returned - start);
      arrivals.delete(nonce);
      if (i >= WARMUP) delivery.push(at - start);
    }

    const authorization = `Basic ${Buffer.from(`${sender.email}:${sender.api_key}`).toString('base64')}`;
    const roundTrip: number[] = [];
    for (let i = 0; i < WARMUP + MESSAGES; i++) {
      const start = performance.now();
      const res = await fetch(`${server.url}/api/v1/users/me`, { headers: { authorization } });
      await res.arrayBuffer();
      if (i >= WARMUP) roundTrip.push(performance.now() - start);
    }

    // Second reference: the same send as a bare HTTP POST /messages, without main in the way.
    const barePost: number[] = [];
    for (let i = 0; i < WARMUP + MESSAGES; i++) {
      const start = performance.now();
      const res = await fetch(`${server.url}/api/v1/messages`, {
        method: 'POST',
        headers: { authorization, 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({
          type: 'channel',
          to: String(channel.stream_id),
          topic: 'delivery bench',
          content: `bare ${i}`,
        }).toString(),
      });
      await res.arrayBuffer();
      if (i >= WARMUP) barePost.push(performance.now() - start);
    }

    const machine = {
      nproc: availableParallelism(),
      cpu: cpus()[0]?.model ?? 'unknown',
      date: new Date().toISOString(),
      node: process.version,
    };
    const deliveryStats = summary(delivery);
    const roundTripStats = summary(roundTrip);
    const result = {
      name: 'delivery',
      machine,
      messages: MESSAGES,
      delivery: deliveryStats,
      send_call: summary(sendReturn),
      bare_http_round_trip: roundTripStats,
      bare_post_messages: summary(barePost),
      ratio_p50: Math.round((deliveryStats.p50_ms / roundTripStats.p50_ms) * 100) / 100,
      ratio_p99: Math.round((deliveryStats.p99_ms / roundTripStats.p99_ms) * 100) / 100,
      ratio_send_vs_bare_post_p50:
        Math.round((summary(sendReturn).p50_ms / summary(barePost).p50_ms) * 100) / 100,
      bar: { p50_ms: 30, p99_ms: 100 },
    };
    console.log(
      `machine: ${machine.nproc} cores, ${machine.cpu}, ${machine.date}, node ${machine.node}`,
    );
    console.log(
      `delivery A->B through main (${MESSAGES} messages): p50 ${deliveryStats.p50_ms} ms, p99 ${deliveryStats.p99_ms} ms, max ${deliveryStats.max_ms} ms`,
    );
    console.log(
      `  of which sendMessage until answered: p50 ${result.send_call.p50_ms} ms, p99 ${result.send_call.p99_ms} ms`,
    );
    console.log(
      `bare HTTP round trip (GET /users/me): p50 ${roundTripStats.p50_ms} ms, p99 ${roundTripStats.p99_ms} ms`,
    );
    console.log(
      `bare POST /messages (same send without main): p50 ${result.bare_post_messages.p50_ms} ms, p99 ${result.bare_post_messages.p99_ms} ms`,
    );
    console.log(
      `ratio delivery/round trip: p50 ${result.ratio_p50}x, p99 ${result.ratio_p99}x (bar: p50 < 30 ms, p99 < 100 ms)`,
    );
    writeBenchFigures('delivery', result);
  } finally {
    bridge.close();
    await host.close();
    server.child.kill('SIGTERM');
    await new Promise((resolve) => server.child.once('exit', resolve));
    rmSync(work, { recursive: true, force: true });
  }
}

main().then(
  () => process.exit(0),
  (error: unknown) => {
    console.error(error);
    process.exit(1);
  },
);
