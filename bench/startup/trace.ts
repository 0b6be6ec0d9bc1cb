// Where a launch's page time goes, in figures the machine's load does not stretch (npm run
// bench:startup-trace): one `npm start -- --browser` launch of each kind (first, then returning on
// the same data folder), and for each, from the page's navigation to its first message on screen:
// - the bridge's round trips (method, sent and answered in the page's clock, and how many were
//   still waiting when each was sent: a chain of awaited calls shows as one waiting at a time);
// - what the page fetched before the first message (scripts, styles, images: bytes and order);
// - the main thread's CPU (Chromium's own ScriptDuration, RecalcStyle, Layout, TaskDuration), and
//   the long tasks;
// - with BENCH_PROFILE=DIR, a CPU profile of the page's start for DevTools.
// - the launcher's and the realm process's moments (TRIBUTARY_TIMING=1, set here): the realm's fork,
//   its bundle loaded, its seed, its listen, main's addAccount steps and first register, on the
//   page's clock (negative: before navigation), which is where a first launch's time goes;
// A launch shows a first screen (a returning one the launch before's, kept by main; a first one the
// build's of the demo: renderer/first-screen.ts, docs/first-screen.md) before the app's own first
// message: both are reported, after navigation. Each page stays open until main has kept its own
// screen for the next launch.
// Prints a summary and writes bench/.out/startup-trace.json.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import { join } from 'node:path';
import type { Browser, CDPSession, Page } from 'playwright-core';
import { buildAll } from '../../scripts/build';
import { launchChromium } from '../../test/support/chromium';
import { writeBenchFigures } from '../support/output';
import { timeLaunch, TIMEOUT_MS } from './launch-process';
import { waitUntilScreenKept } from './first-screen';
import {
  cdpTimeOrigin,
  observePage,
  recordFrames,
  roundTrips,
  type BridgeTrace,
  type RecordedFrames,
} from './page-trace';

const PROFILE_DIR = process.env.BENCH_PROFILE;
// The launcher and the realm's process inherit it: they print their moments (electron/timing.ts).
process.env.TRIBUTARY_TIMING = '1';

interface Fetched {
  url: string;
  type: string;
  startMs: number;
  endMs: number;
  bytes: number;
}

interface PageTrace extends BridgeTrace {
  /**
   * The launcher: spawned -> URL printed (wall), and its CPU time by then; when the host took the
   * socket over (early-listener.mjs), after the page was told to navigate (negative: before), and
   * how many requests had waited for it.
   */
  launcher: {
    toUrlMs: number;
    toUrlCpuMs?: number;
    handOverAfterNavigationMs?: number;
    waitingAtHandOver?: number;
  };
  /** The launcher's and the realm's moments (`tributary-timing`), ms after navigation start. */
  moments: Record<string, number>;
  /** Navigation start -> first message on screen (the page's clock): the app's own (live). */
  firstMessageMs: number;
  /** Navigation start -> the first screen shown, if one was (the page's clock). */
  firstScreenMs?: number;
  /** The page's own HTML: when it was asked for and arrived, and when its parse ended. */
  document: {
    requestStartMs: number;
    responseStartMs: number;
    responseEndMs: number;
    domInteractiveMs: number;
  };
  domContentLoadedMs: number;
  marks: Record<string, number>;
  fetched: Fetched[];
  cpu: Record<string, number>;
  longTasks: Array<{ startMs: number; durationMs: number }>;
}

async function traceLaunch(browser: Browser, dataDir: string, label: string): Promise<PageTrace> {
  let cdp!: CDPSession;
  let frames!: RecordedFrames;
  const timed = await timeLaunch(
    browser,
    dataDir,
    async (page: Page) => {
      await page.locator('[data-testid=message]').first().waitFor({ timeout: TIMEOUT_MS });
      // Let the frame holding the message paint, then read everything.
      await page.evaluate(
        () => new Promise((resolve) => requestAnimationFrame(() => setTimeout(resolve, 0))),
      );
      const profile = (await cdp.send('Profiler.stop')).profile;
      const metrics = await cdp.send('Performance.getMetrics');
      const inPage = await page.evaluate(() => {
        const nav = performance.getEntriesByType('navigation')[0] as PerformanceNavigationTiming;
        const trace = (window as unknown as { __startTrace: Record<string, unknown> }).__startTrace;
        return {
          document: {
            requestStartMs: Math.round(nav.requestStart),
            responseStartMs: Math.round(nav.responseStart),
            responseEndMs: Math.round(nav.responseEnd),
            domInteractiveMs: Math.round(nav.domInteractive),
          },
          domContentLoadedMs: nav.domContentLoadedEventEnd,
          firstMessageMs: trace.firstMessageMs as number,
          longTasks: trace.longTasks as PageTrace['longTasks'],
          marks: Object.fromEntries(
            performance.getEntriesByType('mark').map((m) => [m.name, Math.round(m.startTime)]),
          ),
          fetched: performance.getEntriesByType('resource').map((e) => {
            const r = e as PerformanceResourceTiming;
            return {
              url: r.name.replace(/^https?:\/\/[^/]+/, ''),
              type: r.initiatorType,
              startMs: Math.round(r.startTime),
              endMs: Math.round(r.responseEnd),
              bytes: r.encodedBodySize,
            };
          }),
        };
      });
      // The page's navigation start on the system clock, through one round trip (its own
      // timeOrigin can be off the system clock in a browser that has run a while).
      const asked = Date.now();
      const pageNow = await page.evaluate(() => performance.now());
      const navigationEpoch = (asked + Date.now()) / 2 - pageNow;
      const timeOriginS = await cdpTimeOrigin(cdp, page);
      const cpu: Record<string, number> = {};
      for (const m of metrics.metrics)
        if (/Duration$|^JSHeapUsedSize$|^Nodes$/.test(m.name))
          cpu[m.name] = /Duration$/.test(m.name) ? Math.round(m.value * 1000) : m.value;
      if (PROFILE_DIR) {
        mkdirSync(PROFILE_DIR, { recursive: true });
        writeFileSync(join(PROFILE_DIR, `startup-${label}.cpuprofile`), JSON.stringify(profile));
      }
      // The page's own copy, not the one a first launch starts with (written at its sign-in).
      await waitUntilScreenKept(dataDir, asked);
      return {
        ...inPage,
        navigationEpoch,
        firstScreenMs: inPage.marks['tributary:first-screen-shown'],
        ...roundTrips(frames, timeOriginS),
        cpu,
      };
    },
    async (page) => {
      cdp = await page.context().newCDPSession(page);
      frames = recordFrames(cdp);
      await cdp.send('Network.enable');
      await cdp.send('Performance.enable', { timeDomain: 'threadTicks' });
      await cdp.send('Profiler.enable');
      await cdp.send('Profiler.setSamplingInterval', { interval: 200 });
      await cdp.send('Profiler.start');
      await page.addInitScript(observePage);
    },
    '&view=all',
  );
  const { navigationEpoch, ...seen } = timed.seen;
  const moments = Object.fromEntries(
    Object.entries(timed.timings)
      .map(([name, at]) => [name, Math.round(at - navigationEpoch)] as const)
      .sort((a, b) => a[1] - b[1]),
  );
  return {
    launcher: {
      toUrlMs: Math.round(timed.toUrlMs),
      toUrlCpuMs: timed.toUrlCpuMs,
      // The launcher's clock starts a few ms after the spawn: a few ms early, if anything.
      handOverAfterNavigationMs:
        timed.handOver && Math.round(timed.handOver.atMs - timed.toNavigationMs),
      waitingAtHandOver: timed.handOver?.waiting,
    },
    moments,
    ...seen,
  };
}

function summarize(label: string, t: PageTrace): void {
  const firstScreen =
    t.firstScreenMs === undefined ? 'no first screen' : `first screen ${t.firstScreenMs} ms`;
  console.log(
    `\n== ${label}: ${firstScreen}, live first message ${Math.round(t.firstMessageMs)} ms after navigation`,
  );
  console.log(
    `   launcher: URL after ${t.launcher.toUrlMs} ms, ${t.launcher.toUrlCpuMs ?? '?'} ms of CPU; host took the socket over ${t.launcher.handOverAfterNavigationMs ?? '?'} ms after navigation (${t.launcher.waitingAtHandOver ?? '?'} waiting)`,
  );
  console.log(
    `   launcher and realm (ms after navigation): ${Object.entries(t.moments)
      .map(([name, ms]) => `${name} ${ms}`)
      .join(', ')}`,
  );
  const d = t.document;
  console.log(
    `   HTML asked ${d.requestStartMs}, first byte ${d.responseStartMs}, whole ${d.responseEndMs}, parsed ${d.domInteractiveMs} ms`,
  );
  console.log(`   DOMContentLoaded ${Math.round(t.domContentLoadedMs)} ms; marks`, t.marks);
  console.log(`   main thread CPU (ms):`, t.cpu);
  const before = t.fetched.filter((f) => f.startMs < t.firstMessageMs);
  const bytes = (type: string) =>
    before.filter((f) => f.type === type).reduce((sum, f) => sum + f.bytes, 0);
  console.log(
    `   fetched before the first message: ${before.length} files; script ${bytes('script')} B, css ${bytes('link') + bytes('css')} B, images ${bytes('img') + bytes('css')} B`,
  );
  for (const f of t.fetched)
    console.log(
      `     ${String(f.startMs).padStart(5)}–${String(f.endMs).padEnd(5)} ${f.type.padEnd(8)} ${String(f.bytes).padStart(8)} ${f.url}`,
    );
  const early = t.roundTrips.filter((r) => r.sentMs < t.firstMessageMs);
  console.log(`   bridge socket: handshake sent ${t.socket.askedMs}, open ${t.socket.openMs} ms`);
  console.log(`   bridge calls sent before the first message: ${early.length}`);
  for (const r of t.roundTrips)
    console.log(
      `     ${String(r.sentMs).padStart(7)} → ${String(r.answeredMs ?? '-').padEnd(7)} ${r.method} (in flight ${r.inFlight})`,
    );
  for (const p of t.pushes.filter((p) => p.ms < t.firstMessageMs + 200))
    console.log(`     push ${p.channel} at ${p.ms} (${p.bytes} B)`);
  const long = t.longTasks.filter((l) => l.startMs < t.firstMessageMs);
  console.log(
    `   long tasks before the first message: ${long.map((l) => `${Math.round(l.startMs)}+${Math.round(l.durationMs)}`).join(', ')}`,
  );
}

const RUNS = Number(process.env.BENCH_RUNS ?? 1);

/** The figures compared between trees and runs: CPU and bytes, which the load does not stretch. */
function figures(t: PageTrace) {
  const asked = t.fetched.find((f) => f.url.startsWith('/first-screen?'));
  const before = t.fetched.filter((f) => f.startMs < t.firstMessageMs);
  const bytes = (types: string[]) =>
    before.filter((f) => types.includes(f.type)).reduce((sum, f) => sum + f.bytes, 0);
  return {
    launcherCpuMs: t.launcher.toUrlCpuMs,
    handOverAfterNavigationMs: t.launcher.handOverAfterNavigationMs,
    waitingAtHandOver: t.launcher.waitingAtHandOver,
    pageCpuMs: t.cpu.TaskDuration,
    pageScriptMs: t.cpu.ScriptDuration,
    pageStyleLayoutMs: t.cpu.RecalcStyleDuration + t.cpu.LayoutDuration,
    domNodes: t.cpu.Nodes,
    scriptBytes: bytes(['script', 'other']),
    cssBytes: bytes(['link']),
    callsBeforeFirstMessage: t.roundTrips.filter((r) => r.sentMs < t.firstMessageMs).length,
    htmlFirstByteMs: t.document.responseStartMs,
    parsedMs: t.document.domInteractiveMs,
    firstScreenAskedMs: asked?.startMs,
    firstScreenAnsweredMs: asked?.endMs,
    domContentLoadedMs: Math.round(t.domContentLoadedMs),
    socketOpenMs: t.socket.openMs ?? undefined,
    firstCallMs: t.roundTrips[0]?.sentMs,
    snapshotAskedMs: t.roundTrips.find((r) => r.method === 'getSnapshot')?.sentMs,
    firstScreenMs: t.firstScreenMs,
    firstMessageMs: Math.round(t.firstMessageMs),
    ...Object.fromEntries(Object.entries(t.moments).map(([name, ms]) => [`at ${name}`, ms])),
  };
}

const median = (values: number[]) =>
  [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

async function main() {
  await buildAll();
  const browser = await launchChromium();
  const runs: Array<{ first: PageTrace; returning: PageTrace }> = [];
  try {
    for (let i = 0; i < RUNS; i++) {
      const dir = mkdtempSync(join(os.tmpdir(), 'tributary-startup-trace-'));
      try {
        const first = await traceLaunch(browser, dir, `first-${i}`);
        const returning = await traceLaunch(browser, dir, `returning-${i}`);
        runs.push({ first, returning });
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    }
  } finally {
    await browser.close();
  }
  const last = runs.at(-1)!;
  summarize('first launch', last.first);
  summarize('returning launch', last.returning);
  const table: Record<string, Record<string, number | undefined>> = {};
  for (const kind of ['first', 'returning'] as const) {
    const all: Array<Record<string, number | undefined>> = runs.map((r) => figures(r[kind]));
    const keys = [...new Set(all.flatMap((f) => Object.keys(f)))];
    for (const key of keys) {
      const values = all.map((f) => f[key]).filter((v): v is number => v !== undefined);
      table[`${kind}: ${key}`] = {
        median: values.length ? median(values) : undefined,
        ...Object.fromEntries(values.map((v, i) => [`run ${i + 1}`, v])),
      };
    }
  }
  console.log(
    `\nload ${os
      .loadavg()
      .map((l) => l.toFixed(1))
      .join(' ')}`,
  );
  console.table(table);
  writeBenchFigures('startup-trace', {
    benchmark: 'startup-trace',
    date: new Date().toISOString(),
    loadavg: os.loadavg(),
    figures: table,
    runs,
  });
}

await main();
