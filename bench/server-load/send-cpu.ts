// tsx bench/server-load/send-cpu.ts --base DIR [--server DIR] [--rounds 6] [--messages 300]
//   [--recipients 100] [--senders 4] [--pollers 0] [--rate 0] [--server-env KEY=VALUE ...]
//
// The server's CPU per channel message sent, for two servers side by side: `--base` (another
// checkout, e.g. a scratch worktree of the commit before a change) and `--server` (default this
// checkout). Both are started as bench:hostile starts its server (the real CLI through tsx, demo
// seed), each with `recipients` new members in one channel; then rounds alternate which server goes
// first, each round sending `messages` messages from `senders` members at once (one in flight per
// sender, so the group commit gathers up to that many). Per round and server: the CPU of the
// server's main thread (the one every request waits for) and of its whole process, from /proc,
// divided by the messages. CPU, not wall time: on a machine shared with other benches a wall-clock
// figure moves with everyone's load, while the CPU a message costs moves much less, and the two
// servers see the same load in the same minutes. No queues are registered, so the figure is the
// send path (parsing, checks, rendering, the group commit) without the fan-out to pollers.
// `--pollers N` registers a queue for each of the first N members (every event type, raw content,
// as bench:hostile's receivers) and keeps a long poll open on each, so the figure also holds the
// fan-out and every poll answer; a round ends once every poller has had every message. `--rate R`
// paces the sends at R messages/s in all, one in flight per sender (bench:hostile's quiet phase:
// `--pollers 100 --rate 40`); without it each sender sends its next message as soon as the last
// is answered.
// `--server-env` is given to the `--server` server only (e.g. to switch an experiment on).
// Prints each round and the medians; writes bench/.out/send-cpu.json.
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import type { ChildProcess } from 'node:child_process';
import { ApiClient } from '../../test/support/client';
import { check, createAccounts, type BenchAccount } from '../support/accounts';
import { formRequest, PollConnection } from '../support/http-load';
import { processCpuMs } from '../support/phase-meter';
import { startServerProcess } from '../support/server-process';

const root = fileURLToPath(new URL('../..', import.meta.url));
const { values } = parseArgs({
  options: {
    base: { type: 'string' },
    server: { type: 'string', default: root },
    rounds: { type: 'string', default: '6' },
    messages: { type: 'string', default: '300' },
    recipients: { type: 'string', default: '100' },
    senders: { type: 'string', default: '4' },
    pollers: { type: 'string', default: '0' },
    rate: { type: 'string', default: '0' },
    'server-env': { type: 'string', multiple: true, default: [] },
  },
});
if (!values.base) throw new Error('--base DIR is required (a checkout to compare with)');
const ROUNDS = Number(values.rounds);
const MESSAGES = Number(values.messages);
const RECIPIENTS = Number(values.recipients);
const SENDERS = Number(values.senders);
const POLLERS = Number(values.pollers);
const RATE = Number(values.rate);
const CHANNEL = 'send-cpu';
/** What a poll answer's raw message content starts with, followed by the message's number. */
const MARKER = Buffer.from('"content":"cpu ');

interface Side {
  child: ChildProcess;
  url: string;
  senders: BenchAccount[];
  pollers: Poller[];
}

/** A member's queue, long-polled for as long as the bench runs. */
interface Poller {
  account: BenchAccount;
  queueId: string;
  lastEventId: number;
  /** Messages of the current round this queue has been given. */
  received: number;
}

async function startSide(serverRoot: string, env: string[]): Promise<Side> {
  const dataDir = mkdtempSync(join(tmpdir(), 'tributary-send-cpu-'));
  const extra = Object.fromEntries(env.map((pair) => pair.split(/=(.*)/s, 2)));
  const saved = Object.fromEntries(Object.keys(extra).map((key) => [key, process.env[key]]));
  // startServerProcess passes this process's environment to the server.
  Object.assign(process.env, extra);
  try {
    const { child, url } = await startServerProcess(join(dataDir, 'realm'), { root: serverRoot });
    const creds = JSON.parse(
      readFileSync(join(dataDir, 'realm', 'demo-credentials.json'), 'utf8'),
    ) as { users: Array<{ email: string; api_key: string; role: number }> };
    const ownerCred = creds.users.find((u) => u.role === 100)!;
    const owner = new ApiClient(() => url, { email: ownerCred.email, apiKey: ownerCred.api_key });
    const accounts = await createAccounts(owner, RECIPIENTS, 'send-cpu-');
    check(
      await owner.post('/users/me/subscriptions', {
        subscriptions: [{ name: CHANNEL }],
        principals: accounts.map((a) => a.id),
      }),
      'subscribe',
    );
    const pollers: Poller[] = [];
    for (const account of accounts.slice(0, POLLERS)) {
      const reg = await fetch(`${url}/api/v1/register`, {
        method: 'POST',
        headers: {
          authorization: account.authorization,
          'content-type': 'application/x-www-form-urlencoded',
        },
        body: new URLSearchParams({ apply_markdown: 'false' }),
      });
      const body = (await reg.json()) as { queue_id: string; last_event_id: number };
      pollers.push({
        account,
        queueId: body.queue_id,
        lastEventId: body.last_event_id,
        received: 0,
      });
    }
    for (const poller of pollers) void keepPolling(url, poller);
    return { child, url, senders: accounts.slice(0, SENDERS), pollers };
  } finally {
    for (const [key, value] of Object.entries(saved)) {
      if (value === undefined) delete process.env[key];
      else process.env[key] = value;
    }
  }
}

let running = true;

async function keepPolling(url: string, poller: Poller): Promise<void> {
  const connection = new PollConnection(new URL(url));
  while (running) {
    const res = await connection
      .poll(poller.account.authorization, poller.queueId, poller.lastEventId, MARKER)
      .catch(() => null);
    if (!running) break;
    if (res?.status !== 200) throw new Error(`GET /events failed: ${res?.status ?? 'network'}`);
    poller.lastEventId = res.lastEventId;
    poller.received += res.marked.length;
  }
  connection.close();
}

async function round(side: Side, index: number): Promise<{ main: number; process: number }> {
  const pid = side.child.pid!;
  for (const poller of side.pollers) poller.received = 0;
  const mainBefore = processCpuMs(pid, pid);
  const processBefore = processCpuMs(pid);
  const started = performance.now();
  await Promise.all(
    side.senders.map(async (sender, s) => {
      for (let i = s; i < MESSAGES; i += SENDERS) {
        // Paced: message i is due at i / RATE seconds; one late is sent when the last is answered.
        const wait = RATE > 0 ? started + (i * 1000) / RATE - performance.now() : 0;
        if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
        const res = await formRequest(
          'POST',
          `${side.url}/api/v1/messages`,
          sender.authorization,
          new URLSearchParams({
            type: 'stream',
            to: CHANNEL,
            topic: `topic ${i % 10}`,
            // The marker and a number alone: what PollConnection counts.
            content: `cpu ${index * MESSAGES + i}`,
          }).toString(),
        );
        check(res, 'POST /messages');
      }
    }),
  );
  const deadline = performance.now() + 120_000;
  while (side.pollers.some((poller) => poller.received < MESSAGES)) {
    if (performance.now() > deadline) throw new Error('a poller did not get every message');
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
  return {
    main: (processCpuMs(pid, pid) - mainBefore) / MESSAGES,
    process: (processCpuMs(pid) - processBefore) / MESSAGES,
  };
}

const median = (xs: number[]) => {
  const sorted = [...xs].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
};
const ms = (n: number) => Math.round(n * 100) / 100;

const base = await startSide(values.base, []);
const server = await startSide(values.server, values['server-env']);
const rounds: Array<{
  first: string;
  load: number;
  base: { main: number; process: number };
  server: { main: number; process: number };
}> = [];
try {
  for (let r = 0; r < ROUNDS; r++) {
    const order = r % 2 === 0 ? (['base', 'server'] as const) : (['server', 'base'] as const);
    const figures: Record<string, { main: number; process: number }> = {};
    for (const name of order) figures[name] = await round(name === 'base' ? base : server, r);
    const row = {
      first: order[0],
      load: ms(loadavg()[0]),
      base: figures.base,
      server: figures.server,
    };
    rounds.push(row);
    console.log(
      `round ${r} (${row.first} first, load ${row.load}): base main ${ms(row.base.main)} / process ${ms(row.base.process)}, ` +
        `server main ${ms(row.server.main)} / process ${ms(row.server.process)} ms of CPU per message`,
    );
  }
} finally {
  running = false;
  base.child.kill();
  server.child.kill();
}
const result = {
  config: {
    rounds: ROUNDS,
    messages: MESSAGES,
    recipients: RECIPIENTS,
    senders: SENDERS,
    pollers: POLLERS,
    rate: RATE,
  },
  base: values.base,
  server: values.server,
  server_env: values['server-env'],
  rounds,
  median_ms_per_message: {
    base_main: ms(median(rounds.map((r) => r.base.main))),
    base_process: ms(median(rounds.map((r) => r.base.process))),
    server_main: ms(median(rounds.map((r) => r.server.main))),
    server_process: ms(median(rounds.map((r) => r.server.process))),
  },
};
console.log(JSON.stringify(result.median_ms_per_message));
mkdirSync(join(root, 'bench', '.out'), { recursive: true });
writeFileSync(join(root, 'bench', '.out', 'send-cpu.json'), `${JSON.stringify(result, null, 2)}\n`);
process.exit(0);
