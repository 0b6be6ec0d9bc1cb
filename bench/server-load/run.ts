// npm run bench:server -- [--duration 30] [--warmup 3] [--rate 1000] [--senders 50]
//   [--pollers 200] [--fanout realistic|all] [--channels 20] [--subscriptions 2]
//   [--slow-bot] [--slow-bot-every 100] [--slow-bot-delay-ms 5000] [--idle 60]
//
// Load test of the local realm server on loopback: `senders` accounts send channel messages at
// `rate` messages/s in total (open loop, evenly paced) while `pollers` other accounts long-poll
// one event queue each for message events.
//
// Load model (--fanout):
//   realistic (default): `channels` channels; every account is subscribed to `subscriptions` of
//     them, spread evenly, and senders post to their own channels in turn. With the defaults a
//     message has 25 recipients (user_messages rows), 20 of them polling: a team realm.
//   all: every account in one channel, so each message is stored for all 250 accounts and
//     delivered to every poller (the worst case: 200 deliveries per message).
//
// Reports throughput, send-to-delivery latency (p50/p99 over every (message, polling queue)
// delivery of messages sent after the warm-up), deliveries against the expected count, errors,
// CPU used by the server and by this load generator, load averages, and as the reference the bare
// better-sqlite3 insert rate on this machine. The server runs as a child process (the real CLI
// through tsx; its startup and the setup are not measured), so the load generator does not share
// its event loop, but both share the machine's cores.
//
// --slow-bot adds an outgoing webhook bot whose endpoint (served by this process) answers after
// --slow-bot-delay-ms: every --slow-bot-every-th message mentions it, so the server keeps calls to
// it in flight and posts its late answers throughout. The delivery figures are still those of the
// other clients' messages; compare them with a run without the option.
// The server's memory: RSS once set up (before the load), at its peak, and after `idle` seconds
// with the load stopped (issue #24: back within 1.3x of before); BENCH_HEAP_SNAPSHOTS=DIR also
// writes heap snapshots before and after (bench/support/server-memory.ts, heap-summary.ts).
// Writes bench/.out/server-load.json (realistic) or bench/.out/server-load-all.json (all), with
// a -slow-bot suffix under --slow-bot.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { cpus, availableParallelism, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import Database from 'better-sqlite3';
import { createServer, request } from 'node:http';
import type { AddressInfo } from 'node:net';
import { ApiClient } from '../../test/support/client';
import { startServerProcess } from '../support/server-process';
import { writeBenchFigures } from '../support/output';
import { check, createAccounts } from '../support/accounts';
import { Histogram, longPoll, sendAgent } from '../support/http-load';
import {
  deleteQueues,
  heapSnapshot,
  idleRss,
  memoryFigures,
  rssMb,
} from '../support/server-memory';

const { values } = parseArgs({
  options: {
    duration: { type: 'string', default: '30' },
    rate: { type: 'string', default: '1000' },
    senders: { type: 'string', default: '50' },
    pollers: { type: 'string', default: '200' },
    warmup: { type: 'string', default: '3' },
    fanout: { type: 'string', default: 'realistic' },
    channels: { type: 'string', default: '20' },
    subscriptions: { type: 'string', default: '2' },
    'slow-bot': { type: 'boolean', default: false },
    'slow-bot-every': { type: 'string', default: '100' },
    'slow-bot-delay-ms': { type: 'string', default: '5000' },
    idle: { type: 'string', default: '60' },
  },
});
const DURATION_S = Number(values.duration);
const RATE = Number(values.rate);
const SENDERS = Number(values.senders);
const POLLERS = Number(values.pollers);
const WARMUP_S = Number(values.warmup);
const FANOUT = values.fanout === 'all' ? 'all' : 'realistic';
if (values.fanout !== FANOUT) throw new Error(`--fanout must be realistic or all`);
const CHANNELS = Number(values.channels);
const SUBSCRIPTIONS = Number(values.subscriptions);
const SLOW_BOT = values['slow-bot'] === true;
const SLOW_BOT_EVERY = Number(values['slow-bot-every']);
const SLOW_BOT_DELAY_MS = Number(values['slow-bot-delay-ms']);
const SLOW_BOT_NAME = 'Slow Bot';
const IDLE_S = Number(values.idle);

/** The slow bot's endpoint: answers every call after SLOW_BOT_DELAY_MS; counts calls. */
async function startSlowEndpoint(): Promise<{ url: string; calls: () => number; close(): void }> {
  let calls = 0;
  const server = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      calls += 1;
      setTimeout(() => {
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ content: 'a slow answer' }));
      }, SLOW_BOT_DELAY_MS);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/slow`,
    calls: () => calls,
    close: () => {
      server.closeAllConnections();
      server.close();
    },
  };
}

/** POST /messages with a prebuilt form body; resolves with the HTTP status (body discarded). */
function sendMessage(
  baseUrl: string,
  authorization: string,
  channel: string,
  topic: string,
  content: string,
): Promise<number> {
  const body = `type=stream&to=${encodeURIComponent(channel)}&topic=${encodeURIComponent(topic)}&content=${encodeURIComponent(content)}`;
  return new Promise((resolve, reject) => {
    const req = request(
      `${baseUrl}/api/v1/messages`,
      {
        method: 'POST',
        agent: sendAgent,
        headers: {
          authorization,
          'content-type': 'application/x-www-form-urlencoded',
          'content-length': Buffer.byteLength(body),
        },
      },
      (res) => {
        res.resume();
        res.on('end', () => resolve(res.statusCode ?? 0));
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    req.end(body);
  });
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

interface Poller {
  authorization: string;
  queueId: string;
  lastEventId: number;
}

/** CPU seconds (user + system) used so far by a process, from /proc (Linux); NaN elsewhere. */
function processCpuSeconds(pid: number): number {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // Fields after the parenthesised command name; utime and stime are the 14th and 15th overall.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[11]) + Number(fields[12])) / CLOCK_TICKS_PER_S;
  } catch {
    return NaN;
  }
}
const CLOCK_TICKS_PER_S = 100;

/**
 * Channel memberships of account i. `all`: everyone in one channel. `realistic`: each account in
 * SUBSCRIPTIONS of CHANNELS channels, spread evenly (step 7 is coprime with the default 20
 * channels, so the channels of one account are distinct and every channel gets the same share).
 */
function channelsOf(i: number): number[] {
  if (FANOUT === 'all') return [0];
  const channels = new Set<number>();
  for (let j = 0; channels.size < Math.min(SUBSCRIPTIONS, CHANNELS); j++) {
    channels.add((i + j * 7) % CHANNELS);
  }
  return [...channels];
}

async function main(): Promise<void> {
  const dataDir = mkdtempSync(join(tmpdir(), 'tributary-server-load-'));
  const { child, url } = await startServerProcess(dataDir);
  const slowEndpoint = SLOW_BOT ? await startSlowEndpoint() : null;
  const errors: Record<string, number> = {};
  const countError = (kind: string) => (errors[kind] = (errors[kind] ?? 0) + 1);
  try {
    const creds = JSON.parse(readFileSync(join(dataDir, 'demo-credentials.json'), 'utf8')) as {
      users: Array<{ email: string; api_key: string; role: number }>;
    };
    const ownerCred = creds.users.find((u) => u.role === 100)!;
    const owner = new ApiClient(() => url, { email: ownerCred.email, apiKey: ownerCred.api_key });

    // Setup: SENDERS sending accounts then POLLERS polling accounts (one queue each), subscribed
    // per channelsOf.
    const accounts = await createAccounts(owner, SENDERS + POLLERS, 'load');
    const channelCount = FANOUT === 'all' ? 1 : CHANNELS;
    const members: number[][] = Array.from({ length: channelCount }, () => []);
    accounts.forEach((account, i) => {
      for (const c of channelsOf(i)) members[c].push(account.id);
    });
    for (let c = 0; c < channelCount; c++) {
      check(
        await owner.post('/users/me/subscriptions', {
          subscriptions: [{ name: channelName(c) }],
          principals: members[c],
        }),
        'subscribe',
      );
    }
    const senders = accounts.slice(0, SENDERS).map((account, i) => ({
      ...account,
      channels: channelsOf(i),
    }));
    const pollerChannels = accounts.slice(SENDERS).map((_, i) => channelsOf(SENDERS + i));
    // Deliveries a message to channel c must produce: one per polling account subscribed to c.
    const pollersIn = new Array<number>(channelCount).fill(0);
    for (const channels of pollerChannels) for (const c of channels) pollersIn[c] += 1;
    const recipientsIn = members.map((m) => m.length);
    if (slowEndpoint) {
      check(
        await owner.post('/bots', {
          full_name: SLOW_BOT_NAME,
          short_name: 'slow',
          bot_type: 3,
          payload_url: JSON.stringify(slowEndpoint.url),
        }),
        'POST /bots',
      );
    }

    const probe = await sendMessage(
      url,
      senders[0].authorization,
      channelName(0),
      'probe',
      'probe',
    );
    if (probe === 404) {
      console.log('POST /messages is not available on this server yet: nothing to measure.');
      writeResult({ skipped: 'POST /messages not implemented' });
      return;
    }
    if (probe !== 200) throw new Error(`POST /messages failed: ${probe}`);

    // Pollers: message events only, raw content.
    const pollers: Poller[] = await Promise.all(
      accounts.slice(SENDERS).map(async (account) => {
        const client = new ApiClient(() => url, null);
        const reg = await client.post(
          '/register',
          { event_types: ['message'], apply_markdown: false },
          { headers: { authorization: account.authorization } },
        );
        check(reg, 'POST /register');
        return {
          authorization: account.authorization,
          queueId: reg.body.queue_id as string,
          lastEventId: reg.body.last_event_id as number,
        };
      }),
    );

    const rssBefore = rssMb(child.pid!).rss_mb;
    await heapSnapshot(child, `${resultName()}-before`);

    // sentAt[seq]: when message seq was handed to the socket layer; measured[seq]: sent after
    // the warm-up (only those count in throughput and latency).
    const sentAt: number[] = [];
    const channelOfSeq: number[] = [];
    let warmupEndSeq = Infinity;
    const latency = new Histogram();
    let delivered = 0;
    let pollResponses = 0;
    let polledEvents = 0;
    let running = true;
    // Poll loops run until `running` is cleared; their last polls are abandoned at exit.
    void Promise.all(
      pollers.map(async (poller) => {
        while (running) {
          const res = await longPoll(
            url,
            poller.authorization,
            poller.queueId,
            poller.lastEventId,
          ).catch(() => null);
          const now = performance.now();
          if (res?.status === 200 && warmupEndSeq !== Infinity) {
            pollResponses += 1;
            polledEvents += res.body.events.length;
          }
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
            const content = event.message.content;
            if (!content.startsWith('load ')) continue;
            const seq = parseInt(content.slice(5), 10);
            if (seq < warmupEndSeq) continue;
            const start = sentAt[seq];
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
    let deliveriesExpected = 0;
    let rowsWritten = 0;
    const inFlight = new Array<boolean>(SENDERS).fill(false);
    const backlog: number[][] = Array.from({ length: SENDERS }, () => []);
    const sendNext = (s: number) => {
      const seq = backlog[s].shift();
      if (seq === undefined) return;
      inFlight[s] = true;
      const sender = senders[s];
      const channel = sender.channels[Math.floor(seq / SENDERS) % sender.channels.length];
      channelOfSeq[seq] = channel;
      sentAt[seq] = performance.now();
      sent += 1;
      sendMessage(
        url,
        sender.authorization,
        channelName(channel),
        `topic ${seq % 10}`,
        slowEndpoint && seq % SLOW_BOT_EVERY === 0
          ? `load ${seq} @**${SLOW_BOT_NAME}** are you there?`
          : `load ${seq}`,
      )
        .then(
          (status) => {
            if (status !== 200) return countError(`messages ${status}`);
            if (seq < warmupEndSeq) return;
            acknowledged += 1;
            deliveriesExpected += pollersIn[channel];
            rowsWritten += recipientsIn[channel];
          },
          () => countError('messages network'),
        )
        .finally(() => {
          inFlight[s] = false;
          sendNext(s);
        });
    };
    const loadBefore = loadavg();
    let measureStart = 0;
    let serverCpuStart = 0;
    let generatorCpuStart = process.cpuUsage();
    const started = performance.now();
    await new Promise<void>((resolve) => {
      const timer = setInterval(() => {
        const elapsed = (performance.now() - started) / 1000;
        if (elapsed >= WARMUP_S && warmupEndSeq === Infinity) {
          warmupEndSeq = sequence;
          measureStart = performance.now();
          serverCpuStart = processCpuSeconds(child.pid!);
          generatorCpuStart = process.cpuUsage();
        }
        if (elapsed >= WARMUP_S + DURATION_S) {
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
    const sendSeconds = (performance.now() - measureStart) / 1000;
    const serverCpu = processCpuSeconds(child.pid!) - serverCpuStart;
    const generatorCpuUs = process.cpuUsage(generatorCpuStart);
    const loadAfter = loadavg();
    // Let in-flight deliveries land, then stop the pollers (their last polls end with a heartbeat
    // or when the server stops).
    await new Promise((resolve) => setTimeout(resolve, 2000));
    running = false;
    // Sends still waiting in the backlog are dropped and those in flight awaited: from here the
    // server is idle, and its memory is watched coming back.
    for (const queued of backlog) queued.length = 0;
    while (inFlight.some(Boolean)) await new Promise((resolve) => setTimeout(resolve, 100));
    await deleteQueues(url, pollers);
    const peakRss = rssMb(child.pid!).peak_rss_mb;
    console.log(`idle ${IDLE_S} s for the server's memory to come back...`);
    const serverMemory = memoryFigures(rssBefore, peakRss, await idleRss(child.pid!, IDLE_S));
    const heapAfter = await heapSnapshot(child, `${resultName()}-after`);
    if (heapAfter) console.log(`heap snapshots: ${heapAfter.replace('-after', '-{before,after}')}`);

    const bare = bareInsertRate();
    const result = {
      config: {
        duration_s: DURATION_S,
        warmup_s: WARMUP_S,
        offered_rate: RATE,
        senders: SENDERS,
        pollers: POLLERS,
        fanout: FANOUT,
        channels: channelCount,
        subscriptions_per_user: FANOUT === 'all' ? 1 : Math.min(SUBSCRIPTIONS, CHANNELS),
        recipients_per_message_avg: average(recipientsIn),
        polled_queues_per_message_avg: average(pollersIn),
        slow_bot: SLOW_BOT
          ? { mention_every: SLOW_BOT_EVERY, answer_delay_ms: SLOW_BOT_DELAY_MS }
          : null,
      },
      // Calls the slow bot's endpoint received over the whole run (warm-up included).
      slow_bot_calls: slowEndpoint?.calls() ?? null,
      messages_offered: sequence - warmupEndSeq,
      messages_sent: sent,
      messages_acknowledged: acknowledged,
      send_throughput_per_s: acknowledged / sendSeconds,
      user_message_rows_per_s: rowsWritten / sendSeconds,
      deliveries: delivered,
      deliveries_expected: deliveriesExpected,
      delivery_ratio: deliveriesExpected ? delivered / deliveriesExpected : 0,
      delivery_throughput_per_s: delivered / sendSeconds,
      // Long-poll responses the server wrote (each a request to parse and authenticate, and a
      // response to write): with its delivery figure this says how well events are batched.
      poll_responses_per_s: pollResponses / sendSeconds,
      events_per_poll_response: pollResponses ? polledEvents / pollResponses : 0,
      latency_ms: {
        p50: latency.percentile(50),
        p90: latency.percentile(90),
        p99: latency.percentile(99),
        max: latency.max,
      },
      errors,
      // CPU seconds per wall second over the measured window (2.0 = both cores busy).
      server_cpu_per_s: serverCpu / sendSeconds,
      // The machine-independent figure to compare across runs: server CPU per stored message
      // (with its deliveries and polls). Under 1 ms is needed for 1,000/s on one core.
      server_cpu_ms_per_message: acknowledged ? (serverCpu * 1000) / acknowledged : NaN,
      generator_cpu_per_s: (generatorCpuUs.user + generatorCpuUs.system) / 1e6 / sendSeconds,
      load_average_before: loadBefore,
      load_average_after: loadAfter,
      bare_sqlite_inserts_per_s: bare,
      server_vs_bare_ratio: acknowledged / sendSeconds / bare,
      server_memory: serverMemory,
    };
    console.log(JSON.stringify(result, null, 2));
    writeResult(result);
  } finally {
    slowEndpoint?.close();
    child.kill('SIGTERM');
    await new Promise((resolve) => child.once('exit', resolve));
    rmSync(dataDir, { recursive: true, force: true });
  }
}

function average(values: number[]): number {
  return values.length ? values.reduce((a, b) => a + b, 0) / values.length : 0;
}

function channelName(index: number): string {
  return `load-${index}`;
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
  const name = resultName();
  writeBenchFigures(name, { name, machine, ...result });
}

function resultName(): string {
  return `${FANOUT === 'all' ? 'server-load-all' : 'server-load'}${SLOW_BOT ? '-slow-bot' : ''}`;
}

main().then(
  () => process.exit(0),
  (error: unknown) => {
    console.error(error);
    process.exit(1);
  },
);
