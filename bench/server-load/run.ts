// npm run bench:server -- [--duration 30] [--rate 1000] [--senders 50] [--pollers 200]
//
// Load test of the local realm server on loopback: `senders` users send channel messages at `rate`
// messages/s in total (open loop, evenly paced) while `pollers` event queues long-poll for message
// events. Every poller receives every message, so this also measures fan-out. Reports throughput,
// send-to-delivery latency (p50/p99 over every (message, poller) delivery), errors, and as the
// reference the bare better-sqlite3 insert rate on this machine. The server runs as a child process
// (the real CLI) so the load generator does not share its event loop.
// Writes bench/.out/server-load.json.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, availableParallelism, tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import Database from 'better-sqlite3';
import { Agent, request } from 'node:http';
import { ApiClient } from '../../test/support/client';

const root = fileURLToPath(new URL('../..', import.meta.url));

const { values } = parseArgs({
  options: {
    duration: { type: 'string', default: '30' },
    rate: { type: 'string', default: '1000' },
    senders: { type: 'string', default: '50' },
    pollers: { type: 'string', default: '200' },
  },
});
const DURATION_S = Number(values.duration);
const RATE = Number(values.rate);
const SENDERS = Number(values.senders);
const POLLERS = Number(values.pollers);
const CHANNEL = 'load-test';

/** Latency histogram in 0.1 ms buckets up to 60 s. */
class Histogram {
  private readonly buckets = new Uint32Array(600_000);
  count = 0;
  max = 0;
  add(ms: number): void {
    const index = Math.min(this.buckets.length - 1, Math.max(0, Math.round(ms * 10)));
    this.buckets[index] += 1;
    this.count += 1;
    if (ms > this.max) this.max = ms;
  }
  percentile(p: number): number {
    if (this.count === 0) return NaN;
    const target = Math.ceil((p / 100) * this.count);
    let seen = 0;
    for (let i = 0; i < this.buckets.length; i++) {
      seen += this.buckets[i];
      if (seen >= target) return i / 10;
    }
    return this.max;
  }
}

async function startServer(dataDir: string): Promise<{ child: ChildProcess; url: string }> {
  const child = spawn(
    process.execPath,
    [
      // e.g. BENCH_SERVER_NODE_ARGS="--cpu-prof --cpu-prof-dir=/tmp/prof" to profile the server.
      ...(process.env.BENCH_SERVER_NODE_ARGS?.split(' ').filter(Boolean) ?? []),
      '--import',
      'tsx',
      'server/cli.ts',
      '--port',
      '0',
      '--data',
      dataDir,
      '--seed',
      'demo',
      '--rate-limit',
      'off',
    ],
    { cwd: root, stdio: ['ignore', 'pipe', 'inherit'] },
  );
  const line = await new Promise<string>((resolve, reject) => {
    createInterface({ input: child.stdout! }).once('line', resolve);
    child.once('exit', (code) => reject(new Error(`server exited with ${code}`)));
  });
  return { child, url: line.replace('listening on ', '').trim() };
}

// Long-polls use node:http with a keep-alive agent rather than fetch: at thousands of responses
// per second fetch's per-request cost would make the load generator, not the server, the limit.
const pollAgent = new Agent({ keepAlive: true, maxSockets: Infinity });

function longPoll(
  baseUrl: string,
  authorization: string,
  queueId: string,
  lastEventId: number,
): Promise<{ status: number; body: { events: unknown[] } }> {
  const target = new URL(`${baseUrl}/api/v1/events`);
  target.searchParams.set('queue_id', queueId);
  target.searchParams.set('last_event_id', String(lastEventId));
  return new Promise((resolve, reject) => {
    const req = request(target, { agent: pollAgent, headers: { authorization } }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => {
        try {
          resolve({
            status: res.statusCode ?? 0,
            body: JSON.parse(Buffer.concat(chunks).toString('utf8')),
          });
        } catch (error) {
          reject(error);
        }
      });
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end();
  });
}

function check(res: { status: number; text: string }, what: string): void {
  if (res.status !== 200) throw new Error(`${what} failed: ${res.status} ${res.text}`);
}

function bareInsertRate(): number {
  const dir = mkdtempSync(join(tmpdir(), 'tributary-sqlite-bench-'));
  try {
    const db = new Database(join(dir, 'bare.sqlite3'));
    db.pragma('journal_mode = WAL');
    db.pragma('synchronous = NORMAL');
    db.exec(`CREATE TABLE messages (id INTEGER PRIMARY KEY, sender_id INTEGER, recipient_id INTEGER,
      topic TEXT, content TEXT, rendered_content TEXT, timestamp INTEGER)`);
    const insert = db.prepare(
      'INSERT INTO messages (sender_id, recipient_id, topic, content, rendered_content, timestamp) VALUES (?, ?, ?, ?, ?, ?)',
    );
    // One autocommit transaction per row, like one message per request.
    const n = 20_000;
    const start = performance.now();
    for (let i = 0; i < n; i++)
      insert.run(i % 50, 1, 'bench', `message ${i}`, `<p>message ${i}</p>`, i);
    const seconds = (performance.now() - start) / 1000;
    db.close();
    return n / seconds;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

async function main(): Promise<void> {
  const dataDir = mkdtempSync(join(tmpdir(), 'tributary-server-load-'));
  const { child, url } = await startServer(dataDir);
  const errors: Record<string, number> = {};
  const countError = (kind: string) => (errors[kind] = (errors[kind] ?? 0) + 1);
  try {
    const creds = JSON.parse(readFileSync(join(dataDir, 'demo-credentials.json'), 'utf8')) as {
      users: Array<{ email: string; api_key: string; role: number }>;
    };
    const ownerCred = creds.users.find((u) => u.role === 100)!;
    const owner = new ApiClient(() => url, { email: ownerCred.email, apiKey: ownerCred.api_key });

    // Setup: the senders (also the poller accounts), one channel everyone is subscribed to.
    const senders: ApiClient[] = [];
    const senderIds: number[] = [];
    for (let i = 0; i < SENDERS; i++) {
      const email = `load${i}@tributary.local`;
      const created = await owner.post('/users', {
        email,
        password: `load-password-${i}`,
        full_name: `Load ${i}`,
      });
      check(created, 'POST /users');
      const key = await owner.post('/fetch_api_key', {
        username: email,
        password: `load-password-${i}`,
      });
      check(key, 'POST /fetch_api_key');
      senders.push(new ApiClient(() => url, { email, apiKey: key.body.api_key as string }));
      senderIds.push(created.body.user_id as number);
    }
    check(
      await owner.post('/users/me/subscriptions', {
        subscriptions: [{ name: CHANNEL }],
        principals: senderIds,
      }),
      'subscribe',
    );

    const probe = await senders[0].post('/messages', {
      type: 'stream',
      to: CHANNEL,
      topic: 'probe',
      content: 'probe',
    });
    if (probe.status === 404) {
      console.log('POST /messages is not available on this server yet: nothing to measure.');
      writeResult({ skipped: 'POST /messages not implemented' });
      return;
    }
    check(probe, 'POST /messages');

    // Pollers: queues spread over the sender accounts, message events only, raw content.
    const sentAt = new Map<number, number>();
    const latency = new Histogram();
    let delivered = 0;
    let running = true;
    const pollers = await Promise.all(
      Array.from({ length: POLLERS }, async (_, i) => {
        const client = senders[i % senders.length];
        const reg = await client.post('/register', {
          event_types: ['message'],
          apply_markdown: false,
        });
        check(reg, 'POST /register');
        return {
          client,
          queueId: reg.body.queue_id as string,
          lastEventId: reg.body.last_event_id as number,
        };
      }),
    );
    // Poll loops run until `running` is cleared; their last polls are abandoned at exit.
    void Promise.all(
      pollers.map(async (poller) => {
        while (running) {
          const res = await longPoll(
            url,
            poller.client.authHeader!,
            poller.queueId,
            poller.lastEventId,
          ).catch(() => null);
          const now = performance.now();
          if (!res || res.status !== 200) {
            if (running) countError(res ? `events ${res.status}` : 'events network');
            continue;
          }
          for (const event of res.body.events as Array<{
            id: number;
            type: string;
            message?: { content: string };
          }>) {
            poller.lastEventId = event.id;
            if (event.type !== 'message' || !event.message) continue;
            const match = /^load (\d+)$/.exec(event.message.content);
            if (!match) continue;
            const start = sentAt.get(Number(match[1]));
            if (start !== undefined) {
              latency.add(now - start);
              delivered += 1;
            }
          }
        }
      }),
    );

    // Senders: open loop, paced by a 1 ms tick; each sender has at most one request in flight
    // (a backlog builds if the server is slower than the offered rate, and shows as latency).
    let sequence = 0;
    let sent = 0;
    let acknowledged = 0;
    const inFlight = new Array<boolean>(SENDERS).fill(false);
    const backlog: number[][] = Array.from({ length: SENDERS }, () => []);
    const sendNext = (s: number) => {
      const seq = backlog[s].shift();
      if (seq === undefined) return;
      inFlight[s] = true;
      sentAt.set(seq, performance.now());
      sent += 1;
      senders[s]
        .post('/messages', {
          type: 'stream',
          to: CHANNEL,
          topic: `topic ${seq % 10}`,
          content: `load ${seq}`,
        })
        .then(
          (res) =>
            res.status === 200 ? (acknowledged += 1) : countError(`messages ${res.status}`),
          () => countError('messages network'),
        )
        .finally(() => {
          inFlight[s] = false;
          sendNext(s);
        });
    };
    const started = performance.now();
    await new Promise<void>((resolve) => {
      const timer = setInterval(() => {
        const elapsed = (performance.now() - started) / 1000;
        if (elapsed >= DURATION_S) {
          clearInterval(timer);
          resolve();
          return;
        }
        const due = Math.floor(elapsed * RATE);
        while (sequence < due) {
          const s = sequence % SENDERS;
          backlog[s].push(sequence++);
          if (!inFlight[s]) sendNext(s);
        }
      }, 1);
    });
    const sendSeconds = (performance.now() - started) / 1000;
    // Let in-flight deliveries land, then stop the pollers (their last polls end with a heartbeat
    // or when the server stops).
    await new Promise((resolve) => setTimeout(resolve, 2000));
    running = false;
    const expected = acknowledged * POLLERS;

    const bare = bareInsertRate();
    const result = {
      config: { duration_s: DURATION_S, offered_rate: RATE, senders: SENDERS, pollers: POLLERS },
      messages_offered: sequence,
      messages_sent: sent,
      messages_acknowledged: acknowledged,
      send_throughput_per_s: acknowledged / sendSeconds,
      deliveries: delivered,
      deliveries_expected: expected,
      delivery_ratio: expected ? delivered / expected : 0,
      delivery_throughput_per_s: delivered / sendSeconds,
      latency_ms: {
        p50: latency.percentile(50),
        p90: latency.percentile(90),
        p99: latency.percentile(99),
        max: latency.max,
      },
      errors,
      bare_sqlite_inserts_per_s: bare,
      server_vs_bare_ratio: acknowledged / sendSeconds / bare,
    };
    console.log(JSON.stringify(result, null, 2));
    writeResult(result);
  } finally {
    child.kill('SIGTERM');
    await new Promise((resolve) => child.once('exit', resolve));
    rmSync(dataDir, { recursive: true, force: true });
  }
}

function writeResult(result: Record<string, unknown>): void {
  const machine = {
    nproc: availableParallelism(),
    cpu: cpus()[0]?.model ?? 'unknown',
    date: new Date().toISOString(),
    node: process.version,
  };
  console.log(
    `machine: ${machine.nproc} cores, ${machine.cpu}, ${machine.date}, node ${machine.node}`,
  );
  const outDir = join(root, 'bench/.out');
  mkdirSync(outDir, { recursive: true });
  writeFileSync(
    join(outDir, 'server-load.json'),
    JSON.stringify({ name: 'server-load', machine, ...result }, null, 2) + '\n',
  );
}

main().then(
  () => process.exit(0),
  (error: unknown) => {
    console.error(error);
    process.exit(1);
  },
);
