// npm run bench:sync -- [--window 30] [--paced-window 120] [--rate 5] [--receivers 10]
//
// Background sync (issue #23) of the `--seed large` realm's recent history, as the app's main
// process does it: a real MainServices (this process) signed in as the realm's owner, whose
// account's OfflineSync (electron/sync/offline-sync.ts) fills a fresh cache from the local realm
// server (a child process, the real CLI) over HTTP. "Sync now" starts the pass (the person counts
// as idle either way; it skips only the wait for 10 s without input).
//
// Figures for the sync: wall time, this process's CPU time (process.cpuUsage: main, which does the
// syncing; the probe and the server run elsewhere), the requests sync made (topics and message
// pages; the account's event long-poll is left out), messages stored, the cache file's size.
// Figures beside it, each against the same measure in the same run with sync off:
//   - other people's delivery: a probe process (bench/sync/probe.ts) of `--receivers` clients
//     long-polling and a sender posting `--rate` group DMs a second; send -> poll answer, p50/p99;
//   - the main process's event-loop delay (perf_hooks.monitorEventLoopDelay), p99 and max: sync runs
//     in main, where the renderer's calls and pushes wait behind it. Not the page's frame time: the
//     renderer does no sync work (it receives a status push at most 4 times a second), and a
//     Chromium page of the large realm would add a third heavy process to the machine.
//
// Phases, in this order: off (main live, sync not started, `--window` s); unpaced (pageDelayMs 0,
// the whole pass: cost per message); paced, a fresh account on the default pacing (1 s between
// requests): its planning (every channel's topic list, until the first page is asked for), then
// `--paced-window` s of pages (its rate, from which the full pass's time follows); off again (sync
// turned off, `--window` s). The realm server's CPU (/proc, Linux) is reported for each phase.
// BENCH_LARGE_SCALE=F for a smaller realm.
// Prints the figures and writes bench/.out/sync.json.
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { fork, type ChildProcess } from 'node:child_process';
import { cpSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { availableParallelism, cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import type { OfflineStatus } from '../../shared/ipc/cache';
import { FileVault } from '../../electron/accounts/vault';
import { MainServices } from '../../electron/services';
import { PushHub } from '../../electron/push-hub';
import type { OfflineSyncOptions } from '../../electron/sync/offline-sync';
import { credentialsPath, type SeededCredential } from '../../server/seed/credentials';
import { ApiClient as BenchClient } from '../../test/support/client';
import { createAccounts } from '../support/accounts';
import { seededLargeRealm } from '../support/large-realm';
import { writeBenchFigures } from '../support/output';
import { startServerProcess } from '../support/server-process';
import type { PhaseDelivery, ProbeCommand, ProbeSetup } from './probe';

const { values } = parseArgs({
  options: {
    window: { type: 'string', default: '30' },
    'paced-window': { type: 'string', default: '120' },
    rate: { type: 'string', default: '5' },
    receivers: { type: 'string', default: '10' },
  },
});
const WINDOW_MS = Number(values.window) * 1000;
const PACED_WINDOW_MS = Number(values['paced-window']) * 1000;
/** Longest wait for a paced pass's first page (500 channels' topics at a second each, and more). */
const PLANNING_CAP_MS = 30 * 60_000;
const SCALE = Number(process.env.BENCH_LARGE_SCALE ?? '1');

const round = (n: number, digits = 1) => Math.round(n * 10 ** digits) / 10 ** digits;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** The requests main makes, by kind (the account's event long-poll is not sync's). */
const requests = { topics: 0, messages: 0, other: 0 };
const realFetch = globalThis.fetch;
globalThis.fetch = (input, init) => {
  const url = new URL(typeof input === 'string' || input instanceof URL ? input : input.url);
  if (/\/api\/v1\/users\/me\/\d+\/topics$/.test(url.pathname)) requests.topics += 1;
  else if (url.pathname === '/api/v1/messages' && (init?.method ?? 'GET') === 'GET')
    requests.messages += 1;
  else if (url.pathname !== '/api/v1/events') requests.other += 1;
  return realFetch(input, init);
};

/** The event-loop monitor's sampling interval; a sample counts its delay beyond it. */
const LOOP_RESOLUTION_MS = 10;
const loopDelayMs = (ns: number) => round(Math.max(0, ns / 1e6 - LOOP_RESOLUTION_MS), 2);

/** CPU seconds a process has used (Linux /proc/PID/stat: utime + stime, in clock ticks). */
function processCpuSeconds(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
  return (Number(fields[11]) + Number(fields[12])) / 100;
}

/** What one phase cost main (and the server): CPU, event-loop delay, requests; `stop()` ends it. */
function measure(serverPid: number) {
  const loop = monitorEventLoopDelay({ resolution: LOOP_RESOLUTION_MS });
  loop.enable();
  const cpu0 = process.cpuUsage();
  const server0 = processCpuSeconds(serverPid);
  const t0 = performance.now();
  const before = { ...requests };
  return () => {
    loop.disable();
    const cpu = process.cpuUsage(cpu0);
    const wallMs = performance.now() - t0;
    return {
      wall_s: round(wallMs / 1000, 2),
      cpu_s: round((cpu.user + cpu.system) / 1e6, 2),
      cpu_share: round((cpu.user + cpu.system) / 1000 / wallMs, 3),
      // The realm server's CPU in the same time (its share of the machine the others wait for).
      server_cpu_s: round(processCpuSeconds(serverPid) - server0, 2),
      requests: {
        topics: requests.topics - before.topics,
        messages: requests.messages - before.messages,
        other: requests.other - before.other,
      },
      loop_delay_ms: {
        p50: loopDelayMs(loop.percentile(50)),
        p99: loopDelayMs(loop.percentile(99)),
        max: loopDelayMs(loop.max),
      },
    };
  };
}

/** A main process on a fresh data folder, signed in to the realm as its owner, live. */
async function startMain(
  site: string,
  owner: SeededCredential,
  syncOptions: Partial<OfflineSyncOptions>,
) {
  const dataDir = mkdtempSync(join(tmpdir(), 'tributary-sync-main-'));
  const hub = new PushHub();
  const statuses: OfflineStatus[] = [];
  hub.subscribe((channel, payload) => {
    if (channel === 'offlineStatus') statuses.push(payload as OfflineStatus);
  });
  const services = new MainServices({
    appInfo: { runtime: 'browser', version: 'bench', platform: process.platform },
    openExternal: () => undefined,
    dataDir,
    vault: new FileVault(dataDir),
    push: hub.push,
    // No pass of its own: the bench starts it ("Sync now") once the reference is measured.
    syncOptions: { startDelayMs: 3_600_000, ...syncOptions },
  });
  const { id: accountId } = await services.addAccount({
    site,
    email: owner.email,
    apiKey: owner.api_key,
  });
  const session = services.session(accountId);
  for (let i = 0; !session.isOnline(); i++) {
    if (i > 1200) throw new Error('the account did not connect');
    await sleep(50);
  }
  return {
    services,
    accountId,
    status: () => services.handlers.offlineStatus({ accountId }) as OfflineStatus,
    /** Resolves when a pass has ended (idle after a sync), or rejects on a stop. */
    async passEnded(): Promise<OfflineStatus> {
      for (;;) {
        const last = statuses.at(-1);
        if (last?.state === 'idle' && last.lastSyncAt !== null) return last;
        if (
          last &&
          (last.state === 'error' || last.state === 'disk-full' || last.state === 'offline')
        )
          throw new Error(`sync stopped: ${last.state} ${last.error ?? ''}`);
        await sleep(100);
      }
    },
    async close() {
      await services.stop();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

function startProbe(setup: ProbeSetup) {
  const child: ChildProcess = fork(fileURLToPath(new URL('./probe.ts', import.meta.url)), {
    execArgv: ['--import', 'tsx'],
    env: { ...process.env, SYNC_PROBE_SETUP: JSON.stringify(setup) },
  });
  const ready = new Promise<void>((resolve, reject) => {
    child.once('message', () => resolve());
    child.once('exit', (code) => reject(new Error(`the probe exited with ${code}`)));
  });
  return {
    ready,
    phase: (phase: string) => child.send({ phase } satisfies ProbeCommand),
    report: () =>
      new Promise<Record<string, PhaseDelivery>>((resolve) => {
        child.once('message', (report) => resolve(report as Record<string, PhaseDelivery>));
        child.send({ report: true } satisfies ProbeCommand);
      }),
    kill: () => child.kill(),
  };
}

async function main(): Promise<void> {
  const realm = await seededLargeRealm(SCALE);
  const work = mkdtempSync(join(tmpdir(), 'tributary-sync-bench-'));
  const realmDir = join(work, 'realm');
  cpSync(realm.dir, realmDir, { recursive: true });
  rmSync(join(realmDir, 'port.json'), { force: true });
  const server = await startServerProcess(realmDir);
  let probe: ReturnType<typeof startProbe> | undefined;
  const mains: Array<Awaited<ReturnType<typeof startMain>>> = [];
  try {
    const { users } = JSON.parse(readFileSync(credentialsPath(realmDir), 'utf8')) as {
      users: SeededCredential[];
    };
    const owner = users.find((u) => u.role === 100 && !u.is_bot)!;
    const ownerClient = new BenchClient(() => server.url, {
      email: owner.email,
      apiKey: owner.api_key,
    });
    const [sender, ...receivers] = await createAccounts(
      ownerClient,
      1 + Number(values.receivers),
      'sync-probe-',
    );
    probe = startProbe({
      realmUrl: server.url,
      sender: sender.authorization,
      receivers,
      rate: Number(values.rate),
    });
    await probe.ready;

    console.log(
      `realm: --seed large at scale ${SCALE}; load average ${loadavg()
        .map((n) => round(n, 2))
        .join(' ')}`,
    );
    const unpacedMain = await startMain(server.url, owner, { pageDelayMs: 0 });
    mains.push(unpacedMain);
    probe.phase('warmup');
    await sleep(3_000);

    probe.phase('off');
    let stop = measure(server.child.pid!);
    await sleep(WINDOW_MS);
    const off = stop();
    console.log(`off: ${JSON.stringify(off)}`);

    probe.phase('unpaced');
    stop = measure(server.child.pid!);
    unpacedMain.services.handlers.syncOfflineNow({ accountId: unpacedMain.accountId });
    const synced = await unpacedMain.passEnded();
    const unpaced = {
      ...stop(),
      conversations: synced.conversationsSynced,
      messages_stored: synced.messages,
      cache_bytes: synced.bytes,
    };
    console.log(`unpaced: ${JSON.stringify(unpaced)}`);
    await unpacedMain.close();
    mains.length = 0;

    // The default pacing: a pass first lists every subscribed channel's topics (one request a
    // second), then fetches pages. Each part is measured on its own.
    const pacedMain = await startMain(server.url, owner, {});
    mains.push(pacedMain);
    probe.phase('paced-planning');
    stop = measure(server.child.pid!);
    pacedMain.services.handlers.syncOfflineNow({ accountId: pacedMain.accountId });
    const pagesBefore = requests.messages;
    for (let waited = 0; requests.messages === pagesBefore && waited < PLANNING_CAP_MS;) {
      await sleep(500);
      waited += 500;
    }
    const planning = stop();
    console.log(`paced, planning: ${JSON.stringify(planning)}`);
    probe.phase('paced-pages');
    stop = measure(server.child.pid!);
    await sleep(PACED_WINDOW_MS);
    const pacedStatus = pacedMain.status();
    const paced = { ...stop(), messages_stored: pacedStatus.messages, state: pacedStatus.state };
    console.log(`paced, pages: ${JSON.stringify(paced)}`);
    await pacedMain.services.handlers.setOfflineSettings({
      accountId: pacedMain.accountId,
      settings: { ...pacedStatus.settings, enabled: false },
    });

    probe.phase('off-after');
    stop = measure(server.child.pid!);
    await sleep(WINDOW_MS);
    const offAfter = stop();
    const delivery = await probe.report();

    const syncRequests = (r: { topics: number; messages: number }) => r.topics + r.messages;
    const pacedPerRequestS =
      (planning.wall_s + paced.wall_s) /
      Math.max(1, syncRequests(planning.requests) + syncRequests(paced.requests));
    const ratio = (a: number, b: number) => round(a / b, 2);
    const quietOff = Math.min(delivery.off.p99_ms, delivery['off-after'].p99_ms);
    const result = {
      name: 'sync',
      machine: {
        nproc: availableParallelism(),
        cpu: cpus()[0]?.model ?? 'unknown',
        date: new Date().toISOString(),
        node: process.version,
        load_average_at_end: loadavg().map((n) => round(n, 2)),
      },
      scale: SCALE,
      settings: { days: synced.settings.days, page_size: 100, probe: values },
      unpaced: {
        ...unpaced,
        cpu_ms_per_message: round((unpaced.cpu_s * 1000) / Math.max(1, unpaced.messages_stored), 3),
        bytes_per_message: Math.round(unpaced.cache_bytes / Math.max(1, unpaced.messages_stored)),
      },
      paced_planning: planning,
      paced: {
        ...paced,
        seconds_per_request: round(pacedPerRequestS, 2),
        // The full pass at this pace: the unpaced pass's requests, each as long as here.
        estimated_full_pass_s: Math.round(syncRequests(unpaced.requests) * pacedPerRequestS),
      },
      off,
      off_after: offAfter,
      delivery,
      // Against the quieter of the two sync-off windows: on a shared machine the load can swing
      // several times over between the first and the last (see docs/benchmarks.md).
      ratios: {
        quieter_off_p99_ms: quietOff,
        delivery_p99_unpaced: ratio(delivery.unpaced.p99_ms, quietOff),
        delivery_p99_paced_planning: ratio(delivery['paced-planning'].p99_ms, quietOff),
        delivery_p99_paced_pages: ratio(delivery['paced-pages'].p99_ms, quietOff),
        off_after_vs_off: ratio(delivery['off-after'].p99_ms, delivery.off.p99_ms),
      },
      // Beyond the 10 ms sampling, so near 0 when idle: side by side rather than as a ratio.
      loop_delay_p99_ms: {
        off: off.loop_delay_ms.p99,
        unpaced: unpaced.loop_delay_ms.p99,
        paced_planning: planning.loop_delay_ms.p99,
        paced_pages: paced.loop_delay_ms.p99,
        off_after: offAfter.loop_delay_ms.p99,
      },
    };
    console.log(`off again: ${JSON.stringify(offAfter)}`);
    console.log(`delivery: ${JSON.stringify(delivery)}`);
    console.log(`ratios: ${JSON.stringify(result.ratios)}`);
    console.log(`written to ${writeBenchFigures('sync', result)}`);
  } finally {
    for (const m of mains) await m.close().catch(() => undefined);
    probe?.kill();
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
