// The `npm start` process as the start-up benchmarks drive it: waiting for the URL it prints, and
// stopping it.
import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import type { Browser, BrowserContext, Page } from 'playwright-core';

const root = fileURLToPath(new URL('../..', import.meta.url));
/** The tree whose `npm start` is launched: BENCH_APP=DIR times another built tree (a scratch "before"). */
const appRoot = process.env.BENCH_APP ?? root;

export const TIMEOUT_MS = 60_000;

export function waitForUrl(child: ChildProcess): Promise<string> {
  return new Promise((resolve, reject) => {
    let output = '';
    const timer = setTimeout(
      () => reject(new Error(`no URL after ${TIMEOUT_MS} ms:\n${output}`)),
      TIMEOUT_MS,
    );
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      const match = /Tributary is running at (\S+)/.exec(output);
      if (match) {
        clearTimeout(timer);
        resolve(match[1]);
      }
    };
    child.stdout?.on('data', onData);
    child.stderr?.on('data', onData);
    child.on('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`npm start exited with ${code}:\n${output}`));
    });
  });
}

export async function stop(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGTERM');
  await Promise.race([exited, new Promise((r) => setTimeout(r, 5000))]);
  if (child.exitCode === null) child.kill('SIGKILL');
}

export const median = (values: number[]) =>
  [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

/**
 * CPU time (user + system) a process has used so far, from Linux's /proc (undefined elsewhere):
 * unlike wall-clock time, it does not stretch when other work shares the cores.
 */
export function processCpuMs(pid: number | undefined): number | undefined {
  try {
    // Fields after the command's closing parenthesis; utime and stime are the 12th and 13th.
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(')').at(-1)!.trim().split(' ');
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / 100;
  } catch {
    return undefined;
  }
}

export interface TimedLaunch<T> {
  /** Process spawned -> "Tributary is running at URL" printed. */
  toUrlMs: number;
  /** The launcher's CPU time when it printed the URL (Linux), in 10 ms ticks. */
  toUrlCpuMs?: number;
  /** URL printed -> `ready` resolved in the page. */
  toReadyMs: number;
  /** Process spawned -> the page told to navigate (the browser's new context and page made). */
  toNavigationMs: number;
  /** When the URL was printed, as this process's performance.now() (`ready` may time from it). */
  urlAt: number;
  /**
   * When the host took the early-bound socket over, on the launcher's own clock (ms since its
   * process started: a few ms after the spawn), and how many requests and upgrades had waited
   * for it; undefined when the launcher did not bind early or had not handed over by `ready`.
   */
  handOver?: { atMs: number; waiting: number };
  totalMs: number;
  /** What `ready` returned. */
  seen: T;
  /**
   * The launcher's and the realm process's `tributary-timing NAME EPOCH_MS` lines (printed when
   * TRIBUTARY_TIMING=1 is in this process's environment), the first of each name, and `spawned`.
   */
  timings: Record<string, number>;
}

/**
 * With BENCH_LAUNCHER_PROFILE=DIR, each launcher writes a V8 CPU profile of its whole run into DIR
 * (Node's --cpu-prof, which NODE_OPTIONS does not accept), for DevTools or a script.
 */
function launcherProfileArgs(): string[] {
  const dir = process.env.BENCH_LAUNCHER_PROFILE;
  return dir ? ['--cpu-prof', '--cpu-prof-dir', dir] : [];
}

/** `npm start -- --browser --no-open --port 0 --data DIR` (as `node scripts/launch.mjs`), timed. */
export async function timeLaunch<T>(
  browser: Browser,
  dataDir: string,
  ready: (page: Page) => Promise<T>,
  /** Runs on the new page before it loads the app (e.g. page.addInitScript). */
  beforeLoad?: (page: Page) => Promise<void>,
  /** Appended to the printed URL's fragment (e.g. `&view=all`). */
  fragment = '',
  /**
   * The browser profile to open the page in, kept open (its HTTP cache and page storage, as a
   * person's browser keeps them between launches); by default a fresh one, closed after.
   */
  keptContext?: BrowserContext,
): Promise<TimedLaunch<T>> {
  const t0 = performance.now();
  const timings: Record<string, number> = { spawned: Date.now() };
  const child = spawn(
    process.execPath,
    [
      ...launcherProfileArgs(),
      join(appRoot, 'scripts/launch.mjs'),
      ...['--browser', '--no-open', '--port', '0', '--data', dataDir],
    ],
    {
      cwd: appRoot,
      stdio: ['ignore', 'pipe', 'pipe'],
      env: { ...process.env, TRIBUTARY_LAUNCH_TIMES: '1' },
    },
  );
  let handOver: TimedLaunch<T>['handOver'];
  let errors = '';
  child.stderr?.on('data', (chunk: Buffer) => {
    errors += chunk.toString();
    const said = /tributary-launch: host took the socket over at (\d+) ms, (\d+) waiting/.exec(
      errors,
    );
    if (said) handOver ??= { atMs: Number(said[1]), waiting: Number(said[2]) };
  });
  child.stdout?.on('data', (chunk: Buffer) => {
    for (const [, name, at] of chunk.toString().matchAll(/tributary-timing (\S+) ([\d.]+)/g)) {
      timings[name] ??= Number(at);
    }
  });
  try {
    const url = await waitForUrl(child);
    const t1 = performance.now();
    timings.url ??= Date.now();
    const toUrlCpuMs = processCpuMs(child.pid);
    const context = keptContext ?? (await browser.newContext());
    const page = await context.newPage();
    await beforeLoad?.(page);
    const navigateAt = performance.now();
    await page.goto(`${url}${fragment}`);
    const seen = await ready(page);
    const t2 = performance.now();
    if (keptContext) await page.close();
    else await context.close();
    return {
      toUrlMs: t1 - t0,
      toUrlCpuMs,
      toReadyMs: t2 - t1,
      toNavigationMs: navigateAt - t0,
      urlAt: t1,
      totalMs: t2 - t0,
      handOver,
      seen,
      timings,
    };
  } finally {
    await stop(child);
  }
}
