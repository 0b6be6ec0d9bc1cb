// tsx bench/server-load/send-cpu.ts --base DIR [--server DIR] [--rounds 6] [--messages 300]
//   [--recipients 100] [--senders 4] [--server-env KEY=VALUE ...]
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
    'server-env': { type: 'string', multiple: true, default: [] },
  },
});
if (!values.base) throw new Error('--base DIR is required (a checkout to compare with)');
const ROUNDS = Number(values.rounds);
const MESSAGES = Number(values.messages);
const RECIPIENTS = Number(values.recipients);
const SENDERS = Number(values.senders);
const CHANNEL = 'send-cpu';

interface Side {
  child: ChildProcess;
  url: string;
  senders: BenchAccount[];
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
    return { child, url, senders: accounts.slice(0, SENDERS) };
  } finally {
    for (const [key, value] of Object.entries(saved)) {
      if (value === undefined) delete process.env[key];
      else process.env[key] = value;
    }
  }
}

async function round(side: Side, tag: string): Promise<{ main: number; process: number }> {
  const pid = side.child.pid!;
  const mainBefore = processCpuMs(pid, pid);
  const processBefore = processCpuMs(pid);
  await Promise.all(
    side.senders.map(async (sender, s) => {
      for (let i = s; i < MESSAGES; i += SENDERS) {
        const res = await fetch(`${side.url}/api/v1/messages`, {
          method: 'POST',
          headers: {
            authorization: sender.authorization,
            'content-type': 'application/x-www-form-urlencoded',
          },
          body: new URLSearchParams({
            type: 'stream',
            to: CHANNEL,
            topic: `topic ${i % 10}`,
            content: `message ${tag} ${i}`,
          }),
        });
        const text = await res.text();
        check({ status: res.status, text }, 'POST /messages');
      }
    }),
  );
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
    for (const name of order) figures[name] = await round(name === 'base' ? base : server, `${r}`);
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
  base.child.kill();
  server.child.kill();
}
const result = {
  config: { rounds: ROUNDS, messages: MESSAGES, recipients: RECIPIENTS, senders: SENDERS },
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
