// Render benchmark (npm run bench:render): the real MessageList on a narrow of 10,000 messages, in
// Debian's Chromium through playwright-core. Measures time to first paint, message nodes in the DOM,
// and frame times while scrolling from the bottom to the top (bars: first paint < 50 ms, < 150
// message nodes, 60 fps). Prints the figures and writes bench/.out/render.json.
//
// First paint is from the page's open() (performance mark bench:render, the list mounting) to the
// first frame painted after its commit (bench:painted): in wall time in a page without the tracer,
// and in main-thread CPU time from a Chromium trace of another page (robust to other load on the
// machine), with that CPU time by trace event.
// The page is loaded, settled and left idle for a second (SETTLE_MS) before the trace starts, so
// neither Playwright's own script evaluation nor Chromium's work after the load is in the window. Three situations (page/main.tsx): "app" (the app shell painted, the
// sanitizer warmed at idle as the app does; the bar's figure), "switch" (another narrow's list was
// on screen) and "cold" (nothing rendered before in the page).
// A fourth, "rich" (?mode=app&content=rich), repeats the app situation, scroll included, with every
// message carrying server-rendered rich content (rich-content.ts: emoji, math, highlighted code,
// spoilers, quotes, times, mentions, an image preview): the rich-content bar.
import { mkdirSync, readFileSync, writeFileSync, existsSync } from 'node:fs';
import { createServer } from 'node:http';
import { extname, join, normalize } from 'node:path';
import os from 'node:os';
import { fileURLToPath } from 'node:url';
import { build } from 'vite';
import react from '@vitejs/plugin-react';
import { emojiSprites } from '../../scripts/vite-emoji-sprites';
import type { Browser, Page } from 'playwright-core';
import { launchChromium } from '../../test/support/chromium';
import { writeBenchFigures } from '../support/output';
import {
  mainThreadBreakdown,
  mainThreadCpuMs,
  traced,
  type TraceEvent,
} from '../support/main-thread-trace';
import { renderRichBodies } from './rich-content';

// Code passed to page.evaluate runs in the page; this Node-side file has no DOM types.
declare const window: Record<string, unknown>;

const root = fileURLToPath(new URL('../..', import.meta.url));
const pageDir = join(root, 'bench/render/page');
const outDir = join(root, 'bench/.out/render-page');
const SCROLL_PX_PER_FRAME = 1200;
const RUNS = Number(process.env.BENCH_RUNS ?? 5);
/** BENCH_PROFILE=1: one extra page load under the V8 sampling profiler (its figures are not
 * counted, the profiler slows the page), written to bench/.out/render.cpuprofile and summarised
 * by self time. BENCH_TRACE=1: the first run's Chromium trace of the load goes to
 * bench/.out/render-trace.json. */
const PROFILE = process.env.BENCH_PROFILE === '1';
const SAMPLING_US = 100;

const TYPES: Record<string, string> = {
  '.html': 'text/html',
  '.js': 'text/javascript',
  '.css': 'text/css',
  '.map': 'application/json',
  '.png': 'image/png',
  '.woff2': 'font/woff2',
  '.woff': 'font/woff',
  '.ttf': 'font/ttf',
};

function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? 0;
}

function markTs(events: TraceEvent[], name: string): number | undefined {
  return events.find((e) => e.name === name)?.ts;
}

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number; columnNumber: number };
}
interface CpuProfile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
  startTime: number;
}

/** The functions with the most self time in a V8 CPU profile (ms, by sample intervals). */
function topSelfTime(
  profile: CpuProfile,
  from = -Infinity,
  to = Infinity,
  limit = 25,
): Array<{ fn: string; ms: number }> {
  const byNode = new Map(profile.nodes.map((n) => [n.id, n]));
  const selfUs = new Map<string, number>();
  let at = profile.startTime;
  profile.samples.forEach((id, i) => {
    at += profile.timeDeltas[i] ?? 0;
    if (at < from || at > to) return;
    const node = byNode.get(id);
    if (!node) return;
    const f = node.callFrame;
    const fn = `${f.functionName || '(anonymous)'} ${f.url.split('/').pop()}:${f.lineNumber + 1}:${f.columnNumber + 1}`;
    // A gap much longer than the sampling interval is time the thread was not running (other
    // processes had the core): counted as one interval, not charged to the function sampled.
    const weight = Math.min(profile.timeDeltas[i] ?? 0, 2 * SAMPLING_US);
    selfUs.set(fn, (selfUs.get(fn) ?? 0) + weight);
  });
  return [...selfUs.entries()]
    .sort((a, b) => b[1] - a[1])
    .slice(0, limit)
    .map(([fn, us]) => ({ fn, ms: Math.round(us / 100) / 10 }));
}

type BenchPage = {
  open(): Promise<number>;
  commitMs(): number;
  messageNodes(): number;
  /** Whether the first painted frame had the list's last message at the bottom of its viewport. */
  endInView(): boolean;
  /** Whether the first painted frame had rows from the top of the list's viewport down. */
  filled(): boolean;
  /** Message nodes in the first painted frame. */
  firstFrameNodes(): number;
  domNodes(): number;
  scrollHeight(): number;
  scrollToTop(px: number): Promise<number[]>;
  maxNodes(): number;
};

/**
 * Idle time between the page being ready and open(), as a person clicks a channel in an app that
 * has finished starting: Chromium's own work after a page load (compiling the code that ran,
 * collecting its garbage) runs on both cores for a few hundred milliseconds and otherwise takes
 * turns with the list's first paint. BENCH_SETTLE=ms to change it (0: open at once).
 */
const SETTLE_MS = Number(process.env.BENCH_SETTLE ?? 1000);

/** The rich-content situation's message bodies, rendered by the real local server in main(). */
let richBodies: string[] = [];

/** Loads the page in a mode and waits until it is ready to open the list (outside any trace). */
async function loadPage(browser: Browser, url: string): Promise<Page> {
  const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
  if (url.includes('content=rich'))
    await page.addInitScript((bodies) => {
      (window as unknown as { benchRichBodies: string[] }).benchRichBodies = bodies;
    }, richBodies);
  await page.goto(url);
  await page.waitForFunction(() => 'bench' in window);
  if (SETTLE_MS > 0) await page.waitForTimeout(SETTLE_MS);
  return page;
}

/** Opens the list under a Chromium trace: first paint wall ms, main-thread CPU ms and breakdown. */
async function openTraced(page: Page) {
  const { value: ms, events } = await traced(page, () =>
    page.evaluate(() => (window as unknown as { bench: BenchPage }).bench.open()),
  );
  const from = markTs(events, 'bench:render');
  const to = markTs(events, 'bench:painted');
  return {
    ms: Math.round(ms * 10) / 10,
    cpuMs: Math.round(mainThreadCpuMs(events, from, to) * 10) / 10,
    breakdown: mainThreadBreakdown(events, from ?? -Infinity, to ?? Infinity),
    events,
  };
}

/**
 * First paint of one situation, from two fresh pages: the wall time from a page opened without the
 * tracer (which slows the page by about 10% here), and the main-thread CPU time, its breakdown and
 * the trace from a page opened under it. The untraced page stays open for further measurements.
 */
async function openMeasured(browser: Browser, url: string) {
  const tracedPage = await loadPage(browser, url);
  const traced = await openTraced(tracedPage);
  await tracedPage.close();
  const page = await loadPage(browser, url);
  const ms = await page.evaluate(() => (window as unknown as { bench: BenchPage }).bench.open());
  const frame = await page.evaluate(() => {
    const b = (window as unknown as { bench: BenchPage }).bench;
    return { nodes: b.firstFrameNodes(), endInView: b.endInView(), filled: b.filled() };
  });
  return {
    ms: Math.round(ms * 10) / 10,
    tracedMs: traced.ms,
    cpuMs: traced.cpuMs,
    breakdown: traced.breakdown,
    events: traced.events,
    frame,
    page,
  };
}

/** open() to first paint under the sampling profiler; writes the profile and prints self times. */
async function profileFirstPaint(browser: Browser, url: string) {
  const page = await loadPage(browser, url);
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Profiler.enable');
  await cdp.send('Profiler.setSamplingInterval', { interval: SAMPLING_US });
  await cdp.send('Profiler.start');
  // Traced too, for the marks' timestamps (same clock as the profile's) to cut it to the window.
  const { events } = await openTraced(page);
  const { profile } = (await cdp.send('Profiler.stop')) as unknown as { profile: CpuProfile };
  const from = markTs(events, 'bench:render');
  const to = markTs(events, 'bench:painted');
  await page.close();
  mkdirSync(join(root, 'bench/.out'), { recursive: true });
  // The window (profile clock, µs) rides along for tools that cut the profile to it.
  writeFileSync(
    join(root, 'bench/.out/render.cpuprofile'),
    JSON.stringify({ ...profile, benchWindow: { from, to } }),
  );
  console.log(
    `CPU profile of ${url.split('?')[1]} from open() to first paint (self time, sampling profiler on; window ${from === undefined || to === undefined ? 'unknown: whole load' : `${((to - from) / 1000).toFixed(1)} ms`}):`,
  );
  for (const { fn, ms } of topSelfTime(profile, from, to))
    console.log(`  ${ms.toFixed(1).padStart(7)} ms  ${fn}`);
}

function median(values: number[]): number {
  return percentile(values, 50);
}

/** What an opened list shows and how it scrolls: node counts, then frames scrolling to the top. */
async function measureOpenList(page: Page) {
  await page.waitForTimeout(300);
  const counts = await page.evaluate(() => {
    const b = (window as unknown as { bench: BenchPage }).bench;
    return {
      commitMs: b.commitMs(),
      endInView: b.endInView(),
      filled: b.filled(),
      firstFrameNodes: b.firstFrameNodes(),
      messageNodes: b.messageNodes(),
      domNodes: b.domNodes(),
      scrollHeight: b.scrollHeight(),
    };
  });
  const scroll = await traced(page, () =>
    page.evaluate(
      (px) => (window as unknown as { bench: BenchPage }).bench.scrollToTop(px),
      SCROLL_PX_PER_FRAME,
    ),
  );
  const frames = scroll.value;
  const scrollCpuMsPerFrame = mainThreadCpuMs(scroll.events) / Math.max(frames.length, 1);
  const maxNodes = await page.evaluate(() =>
    (window as unknown as { bench: BenchPage }).bench.maxNodes(),
  );
  const mean = frames.reduce((a, b) => a + b, 0) / Math.max(frames.length, 1);
  return {
    scrollCpuMsPerFrame: Math.round(scrollCpuMsPerFrame * 100) / 100,
    commitMs: Math.round(counts.commitMs * 10) / 10,
    endInView: counts.endInView,
    filled: counts.filled,
    firstFrameNodes: counts.firstFrameNodes,
    messageNodes: counts.messageNodes,
    maxMessageNodesWhileScrolling: maxNodes,
    domNodes: counts.domNodes,
    frames: frames.length,
    frameMsMedian: Math.round(median(frames) * 10) / 10,
    frameMsP95: Math.round(percentile(frames, 95) * 10) / 10,
    frameMsMax: Math.round(Math.max(...frames) * 10) / 10,
    fps: Math.round((1000 / mean) * 10) / 10,
    scrollHeightPx: counts.scrollHeight,
  };
}

async function main() {
  richBodies = await renderRichBodies();
  await build({
    root: pageDir,
    base: './',
    logLevel: 'warn',
    plugins: [react(), emojiSprites()],
    // Profiling reads function names, so that bundle is not minified (its runs' figures are then
    // not comparable with ordinary runs).
    build: { outDir, emptyOutDir: true, sourcemap: false, minify: !PROFILE },
  });
  const server = createServer((req, res) => {
    const path = normalize(decodeURIComponent((req.url ?? '/').split('?')[0])).replace(
      /^(\.\.[/\\])+/,
      '',
    );
    const file = join(outDir, path === '/' ? 'index.html' : path);
    if (!file.startsWith(outDir) || !existsSync(file)) {
      res.writeHead(404).end();
      return;
    }
    res.writeHead(200, { 'content-type': TYPES[extname(file)] ?? 'application/octet-stream' });
    res.end(readFileSync(file));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as { port: number }).port;

  const browser = await launchChromium();
  const runs: Array<{
    /** From open() to the first painted frame, in a page without the tracer (the bar's figure). */
    firstPaintMs: number;
    /** The same in the traced page (the tracer's own cost included). */
    firstPaintTracedMs: number;
    /** Main-thread CPU time from render() to first paint (robust to other load on the machine). */
    firstPaintCpuMs: number;
    /** That CPU time by trace event (self time), largest first. */
    firstPaintBreakdown: Array<{ name: string; ms: number }>;
    /** The same in a fresh page: the list is its first React render and first text (mode=cold). */
    coldFirstPaintMs: number;
    coldFirstPaintTracedMs: number;
    coldFirstPaintCpuMs: number;
    coldFirstPaintBreakdown: Array<{ name: string; ms: number }>;
    /** The same replacing another narrow's list on screen (mode=switch). */
    switchFirstPaintMs: number;
    switchFirstPaintTracedMs: number;
    switchFirstPaintCpuMs: number;
    switchFirstPaintBreakdown: Array<{ name: string; ms: number }>;
    /** Main-thread CPU ms per frame while scrolling; 60 fps needs under 16.7. */
    scrollCpuMsPerFrame: number;
    /** From render() to React's commit of the first frame (the rest of first paint is the browser). */
    commitMs: number;
    /** The first painted frame had the last message at the bottom of the viewport. */
    endInView: boolean;
    /** The first painted frame had rows from the top of the viewport down (no gap). */
    filled: boolean;
    /** Message nodes in the first painted frame. */
    firstFrameNodes: number;
    messageNodes: number;
    maxMessageNodesWhileScrolling: number;
    domNodes: number;
    frames: number;
    frameMsMedian: number;
    frameMsP95: number;
    frameMsMax: number;
    fps: number;
    scrollHeightPx: number;
    /** The app-shell situation again with rich content in every message (the rich-content bar). */
    rich: Awaited<ReturnType<typeof measureOpenList>> & {
      firstPaintMs: number;
      firstPaintTracedMs: number;
      firstPaintCpuMs: number;
      firstPaintBreakdown: Array<{ name: string; ms: number }>;
    };
  }> = [];
  let heapMB: number | null = null;
  try {
    const url = `http://127.0.0.1:${port}/`;
    if (PROFILE) await profileFirstPaint(browser, `${url}?mode=${process.env.BENCH_MODE ?? 'app'}`);
    // BENCH_QUICK=N: N more first paints of BENCH_MODE (app by default) printed, nothing written; for
    // trying a change.
    for (let i = 0; i < Number(process.env.BENCH_QUICK ?? 0); i++) {
      const { ms, tracedMs, cpuMs, breakdown, events, frame, page } = await openMeasured(
        browser,
        `${url}?mode=${process.env.BENCH_MODE ?? 'app'}`,
      );
      await page.close();
      if (process.env.BENCH_TRACE === '1' && i === 0)
        writeBenchFigures('render-trace', { traceEvents: events });
      console.log(
        `quick ${i + 1}: ${ms} ms wall (${tracedMs} traced), ${cpuMs} ms CPU, ${frame.nodes} message nodes in it, ${frame.endInView ? 'last message at the bottom' : 'LAST MESSAGE NOT AT THE BOTTOM'}, ${frame.filled ? 'viewport filled' : 'GAP ABOVE THE FIRST ROW'} in the first frame: ${breakdown.map((e) => `${e.name} ${e.ms}`).join(', ')}`,
      );
    }
    for (let i = 0; i < RUNS; i++) {
      // The same list opened in a fresh page with nothing rendered before (see page/main.tsx).
      const cold = await openMeasured(browser, `${url}?mode=cold`);
      await cold.page.close();
      const switched = await openMeasured(browser, `${url}?mode=switch`);
      await switched.page.close();

      const load = await openMeasured(browser, `${url}?mode=app`);
      const page = load.page;
      // BENCH_TRACE=1: the first run's trace of open() to first paint, for DevTools or Perfetto.
      if (process.env.BENCH_TRACE === '1' && i === 0)
        writeBenchFigures('render-trace', { traceEvents: load.events });
      const list = await measureOpenList(page);
      // The same list when every message carries rich content rendered by the real server.
      const richLoad = await openMeasured(browser, `${url}?mode=app&content=rich`);
      const richList = await measureOpenList(richLoad.page);
      await richLoad.page.close();
      runs.push({
        firstPaintMs: load.ms,
        firstPaintTracedMs: load.tracedMs,
        firstPaintCpuMs: load.cpuMs,
        firstPaintBreakdown: load.breakdown,
        coldFirstPaintMs: cold.ms,
        coldFirstPaintTracedMs: cold.tracedMs,
        coldFirstPaintCpuMs: cold.cpuMs,
        coldFirstPaintBreakdown: cold.breakdown,
        switchFirstPaintMs: switched.ms,
        switchFirstPaintTracedMs: switched.tracedMs,
        switchFirstPaintCpuMs: switched.cpuMs,
        switchFirstPaintBreakdown: switched.breakdown,
        ...list,
        rich: {
          firstPaintMs: richLoad.ms,
          firstPaintTracedMs: richLoad.tracedMs,
          firstPaintCpuMs: richLoad.cpuMs,
          firstPaintBreakdown: richLoad.breakdown,
          ...richList,
        },
      });
      await page.close();
    }
    // Memory bar: the renderer's JS heap holding 50,000 messages (after a forced GC, as DevTools does).
    if (RUNS > 0) heapMB = await heapWithMessages(browser, url, 50_000);
  } finally {
    await browser.close();
    server.close();
  }
  const result = {
    benchmark: 'render',
    date: new Date().toISOString(),
    machine: {
      nproc: os.cpus().length,
      cpu: os.cpus()[0]?.model ?? 'unknown',
      platform: process.platform,
      loadavg: os.loadavg(),
    },
    messages: 10_000,
    scrollPxPerFrame: SCROLL_PX_PER_FRAME,
    bars: { firstPaintMs: 50, messageNodes: 150, fps: 60 },
    median: {
      firstPaintMs: median(runs.map((r) => r.firstPaintMs)),
      firstPaintTracedMs: median(runs.map((r) => r.firstPaintTracedMs)),
      firstPaintCpuMs: median(runs.map((r) => r.firstPaintCpuMs)),
      coldFirstPaintMs: median(runs.map((r) => r.coldFirstPaintMs)),
      coldFirstPaintCpuMs: median(runs.map((r) => r.coldFirstPaintCpuMs)),
      switchFirstPaintMs: median(runs.map((r) => r.switchFirstPaintMs)),
      switchFirstPaintCpuMs: median(runs.map((r) => r.switchFirstPaintCpuMs)),
      scrollCpuMsPerFrame: median(runs.map((r) => r.scrollCpuMsPerFrame)),
      maxMessageNodes: Math.max(...runs.map((r) => r.maxMessageNodesWhileScrolling)),
      frameMsP95: median(runs.map((r) => r.frameMsP95)),
      fps: median(runs.map((r) => r.fps)),
      rich: {
        firstPaintMs: median(runs.map((r) => r.rich.firstPaintMs)),
        firstPaintCpuMs: median(runs.map((r) => r.rich.firstPaintCpuMs)),
        scrollCpuMsPerFrame: median(runs.map((r) => r.rich.scrollCpuMsPerFrame)),
        maxMessageNodes: Math.max(...runs.map((r) => r.rich.maxMessageNodesWhileScrolling)),
        frameMsP95: median(runs.map((r) => r.rich.frameMsP95)),
        fps: median(runs.map((r) => r.rich.fps)),
        endInView: runs.every((r) => r.rich.endInView),
        filled: runs.every((r) => r.rich.filled),
      },
    },
    richBodies: richBodies.length,
    heapWith50kMessagesMB: heapMB,
    heapBarMB: 200,
    runs,
  };
  console.log(
    `render benchmark — ${result.machine.nproc} cores, ${result.machine.cpu}, load ${result.machine.loadavg.map((l) => l.toFixed(1)).join(' ')}, ${result.date}`,
  );
  for (const [i, r] of runs.entries()) {
    console.log(
      `run ${i + 1}: app shell: first paint ${r.firstPaintMs} ms wall (${r.firstPaintTracedMs} traced), ${r.firstPaintCpuMs} ms main-thread CPU (React commit at ${r.commitMs} ms; ${r.firstFrameNodes} message nodes in that frame, ${r.endInView ? 'last message at the bottom' : 'LAST MESSAGE NOT AT THE BOTTOM'}, ${r.filled ? 'viewport filled' : 'GAP ABOVE THE FIRST ROW'}), ${r.messageNodes} message nodes after it (max ${r.maxMessageNodesWhileScrolling} while scrolling, ${r.domNodes} DOM nodes), ` +
        `${r.frames} frames bottom→top: median ${r.frameMsMedian} ms, p95 ${r.frameMsP95} ms, max ${r.frameMsMax} ms, ${r.fps} fps; main-thread CPU ${r.scrollCpuMsPerFrame} ms per frame`,
    );
    const byEvent = (b: Array<{ name: string; ms: number }>) =>
      b.map((e) => `${e.name} ${e.ms}`).join(', ');
    console.log(`  app shell: first paint CPU by trace event: ${byEvent(r.firstPaintBreakdown)}`);
    console.log(
      `  switch from another narrow: first paint ${r.switchFirstPaintMs} ms wall (${r.switchFirstPaintTracedMs} traced), ${r.switchFirstPaintCpuMs} ms CPU: ${byEvent(r.switchFirstPaintBreakdown)}`,
    );
    console.log(
      `  rich content: first paint ${r.rich.firstPaintMs} ms wall (${r.rich.firstPaintTracedMs} traced), ${r.rich.firstPaintCpuMs} ms CPU (${r.rich.firstFrameNodes} message nodes, ${r.rich.endInView ? 'last message at the bottom' : 'LAST MESSAGE NOT AT THE BOTTOM'}, ${r.rich.filled ? 'viewport filled' : 'GAP ABOVE THE FIRST ROW'}), max ${r.rich.maxMessageNodesWhileScrolling} message nodes while scrolling (${r.rich.domNodes} DOM nodes), ${r.rich.frames} frames: p95 ${r.rich.frameMsP95} ms, ${r.rich.fps} fps, ${r.rich.scrollCpuMsPerFrame} ms CPU per frame: ${byEvent(r.rich.firstPaintBreakdown)}`,
    );
    console.log(
      `  cold page (nothing rendered before): first paint ${r.coldFirstPaintMs} ms wall (${r.coldFirstPaintTracedMs} traced), ${r.coldFirstPaintCpuMs} ms CPU: ${byEvent(r.coldFirstPaintBreakdown)}`,
    );
  }
  console.log(
    `median: first paint ${result.median.firstPaintMs} ms wall / ${result.median.firstPaintCpuMs} ms CPU (bar < 50; that is the app shell painted; switching from another narrow ${result.median.switchFirstPaintMs} ms wall / ${result.median.switchFirstPaintCpuMs} ms CPU; cold page ${result.median.coldFirstPaintMs} ms wall / ${result.median.coldFirstPaintCpuMs} ms CPU), CPU per scroll frame ${result.median.scrollCpuMsPerFrame} ms (60 fps needs < 16.7), max message nodes ${result.median.maxMessageNodes} (bar < 150), ${result.median.fps} fps (bar 60), p95 frame ${result.median.frameMsP95} ms`,
  );
  console.log(
    `rich content median: first paint ${result.median.rich.firstPaintMs} ms wall / ${result.median.rich.firstPaintCpuMs} ms CPU (bar < 50), max message nodes ${result.median.rich.maxMessageNodes} (bar < 150), ${result.median.rich.fps} fps (bar 60), p95 frame ${result.median.rich.frameMsP95} ms, CPU per scroll frame ${result.median.rich.scrollCpuMsPerFrame} ms`,
  );
  console.log(`renderer JS heap holding 50,000 messages: ${heapMB} MB (bar < 200 MB)`);
  if (runs.length === 0) return; // BENCH_RUNS=0: profile only
  writeBenchFigures('render', result);
}

async function heapWithMessages(browser: Browser, url: string, messages: number): Promise<number> {
  const page = await loadPage(browser, `${url}?mode=app&messages=${messages}`);
  await page.evaluate(() => (window as unknown as { bench: BenchPage }).bench.open());
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('HeapProfiler.collectGarbage');
  const { usedSize } = await cdp.send('Runtime.getHeapUsage');
  await page.close();
  return Math.round((usedSize / 1024 / 1024) * 10) / 10;
}

await main();
