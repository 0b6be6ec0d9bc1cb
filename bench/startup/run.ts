// Start-up benchmark (npm run bench:startup): `npm start -- --browser --no-open --port 0 --data DIR`
// (run as `node scripts/launch.mjs ...`, what the npm script runs) to the first message on screen in
// Chromium, on a warm install (the build is made once before timing). Budgets (issue #24): a first
// launch under 1.2 s, a returning one under 800 ms. Each launch reports two figures: the first
// screen (the last screen of the launch before, shown by the page's early script while the app
// loads: renderer/first-screen.ts; on a first launch, the one the build made of the demo:
// docs/first-screen.md) and live (the app's own first message). Each launch's page stays open
// until main has kept its own screen for the next one.
// Three cases: a fresh data folder (first launch: the local realm is created and seeded), the same
// folder again in a fresh browser profile (a returning user, the page fetched anew), and the same
// folder a third time in the first launch's browser profile (a returning user whose browser kept
// the app's files and page storage, as a person's does). Before each run's three launches, the
// in-run reference (bench/startup/floor.ts): a bare server and a one-row page launched and timed the
// same way, the least any launch costs on this machine at this load. Prints the figures, each case's
// distance above that floor, and writes bench/.out/startup.json.
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import { join } from 'node:path';
import type { Browser, BrowserContext } from 'playwright-core';
import { buildAll } from '../../scripts/build';
import { launchChromium } from '../../test/support/chromium';
import { writeBenchFigures } from '../support/output';
import { timeFloorLaunch, type FloorLaunch } from './floor';
import { median, timeLaunch, TIMEOUT_MS } from './launch-process';
import { firstScreenShownAt, waitUntilScreenKept } from './first-screen';

const RUNS = Number(process.env.BENCH_RUNS ?? 3);
/**
 * BENCH_FIRST_ONLY=1: first launches only (the reference, then a fresh data folder, each run), for
 * alternating two trees quickly (BENCH_APP=DIR launches another built tree: launch-process.ts).
 */
const FIRST_ONLY = process.env.BENCH_FIRST_ONLY === '1';
/**
 * BENCH_RETURNING_ONLY=1: returning launches only (the reference, then the two returning cases,
 * each run), all on one data folder and browser profile whose first launch is made once, untimed:
 * more returning launches in the same minutes, for alternating two trees.
 */
const RETURNING_ONLY = process.env.BENCH_RETURNING_ONLY === '1';

interface Launch {
  /** Process spawned -> "Tributary is running at URL" printed. */
  toUrlMs: number;
  /** URL printed -> first message visible in the page (the app's own: live). */
  toFirstMessageMs: number;
  /** Process spawned -> the app's own first message (live). */
  totalMs: number;
  /** Process spawned -> the first screen shown (null: none was). */
  firstScreenMs: number | null;
  /**
   * Process spawned -> the account live (its register answered and applied: the connection banner
   * gone). A first launch that shows the build's seed first (docs/first-screen.md) shows its first
   * message before this; one that waits for the register shows both at once.
   */
  connectedMs: number;
}

async function launch(
  browser: Browser,
  dataDir: string,
  keptContext?: BrowserContext,
): Promise<Launch> {
  const timed = await timeLaunch(
    browser,
    dataDir,
    async (page) => {
      await page.locator('[data-testid=message]').first().waitFor({ timeout: TIMEOUT_MS });
      const liveAt = performance.now();
      const liveEpoch = Date.now();
      await page
        .locator('[data-testid=connection-banner]')
        .waitFor({ state: 'detached', timeout: TIMEOUT_MS });
      const connectedAt = performance.now();
      const firstScreenAt = await firstScreenShownAt(page);
      // The page's own copy, not the build's that a first launch starts with (kept at its sign-in).
      await waitUntilScreenKept(dataDir, liveEpoch);
      return { liveAt, firstScreenAt, connectedAt };
    },
    undefined,
    // The bar is the first message on screen: All messages, not the Inbox that a new user's
    // web_home_view (the public default) opens on.
    '&view=all',
    keptContext,
  );
  const { liveAt, firstScreenAt, connectedAt } = timed.seen;
  const sinceUrl = (at: number) => timed.toUrlMs + at - timed.urlAt;
  return {
    toUrlMs: timed.toUrlMs,
    toFirstMessageMs: liveAt - timed.urlAt,
    totalMs: sinceUrl(liveAt),
    firstScreenMs: firstScreenAt === null ? null : sinceUrl(firstScreenAt),
    connectedMs: sinceUrl(connectedAt),
  };
}

const round = (n: number) => Math.round(n);

async function main() {
  await buildAll(); // warm install: building is not part of the timing
  const browser = await launchChromium();
  const fresh: Launch[] = [];
  const returning: Launch[] = [];
  const sameBrowser: Launch[] = [];
  const floor: FloorLaunch[] = [];
  const dirs: string[] = [];
  try {
    if (RETURNING_ONLY) {
      const dir = mkdtempSync(join(os.tmpdir(), 'tributary-startup-'));
      dirs.push(dir);
      const kept = await browser.newContext();
      try {
        await launch(browser, dir, kept); // the first launch: not timed
        for (let i = 0; i < RUNS; i++) {
          floor.push(await timeFloorLaunch(browser));
          returning.push(await launch(browser, dir));
          sameBrowser.push(await launch(browser, dir, kept));
        }
      } finally {
        await kept.close();
      }
    }
    for (let i = 0; i < (RETURNING_ONLY ? 0 : RUNS); i++) {
      const dir = mkdtempSync(join(os.tmpdir(), 'tributary-startup-'));
      dirs.push(dir);
      floor.push(await timeFloorLaunch(browser));
      const kept = await browser.newContext();
      try {
        fresh.push(await launch(browser, dir, kept));
        if (FIRST_ONLY) continue;
        returning.push(await launch(browser, dir));
        sameBrowser.push(await launch(browser, dir, kept));
      } finally {
        await kept.close();
      }
    }
  } finally {
    await browser.close();
    for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
  }
  const shown = (runs: Launch[]) =>
    runs.flatMap((r) => (r.firstScreenMs === null ? [] : [r.firstScreenMs]));
  const summary = (runs: Launch[]) => ({
    firstScreenMs: shown(runs).length ? round(median(shown(runs))) : null,
    firstScreenShown: `${shown(runs).length} of ${runs.length}`,
    totalMs: round(median(runs.map((r) => r.totalMs))),
    toUrlMs: round(median(runs.map((r) => r.toUrlMs))),
    toFirstMessageMs: round(median(runs.map((r) => r.toFirstMessageMs))),
    connectedMs: round(median(runs.map((r) => r.connectedMs))),
  });
  const figuresOf = (runs: Launch[]) => ({
    median: summary(runs),
    runs: runs.map((r) => ({
      firstScreenMs: r.firstScreenMs === null ? null : round(r.firstScreenMs),
      totalMs: round(r.totalMs),
      toUrlMs: round(r.toUrlMs),
      toFirstMessageMs: round(r.toFirstMessageMs),
      connectedMs: round(r.connectedMs),
    })),
  });
  const result = {
    benchmark: 'startup',
    date: new Date().toISOString(),
    machine: {
      nproc: os.cpus().length,
      cpu: os.cpus()[0]?.model ?? 'unknown',
      loadavg: os.loadavg(),
    },
    budgetMs: { firstLaunch: 1200, returning: 800 },
    floor: {
      median: {
        totalMs: round(median(floor.map((r) => r.totalMs))),
        toUrlMs: round(median(floor.map((r) => r.toUrlMs))),
        toFirstMessageMs: round(median(floor.map((r) => r.toFirstMessageMs))),
        navigationToMessageMs: round(median(floor.map((r) => r.navigationToMessageMs))),
      },
      runs: floor.map((r) => round(r.totalMs)),
    },
    fresh: figuresOf(fresh),
    returning: figuresOf(returning),
    returningSameBrowser: figuresOf(sameBrowser),
  };
  console.log(
    `start-up benchmark — ${result.machine.nproc} cores, ${result.machine.cpu}, load ${result.machine.loadavg.map((l) => l.toFixed(1)).join(' ')}, ${result.date}`,
  );
  const f = result.floor.median;
  console.log(
    `in-run reference, a bare server and a one-row page launched the same way: median ${f.totalMs} ms (process to URL ${f.toUrlMs} ms, page to the row ${f.toFirstMessageMs} ms, of which navigation to the row ${f.navigationToMessageMs} ms); runs ${result.floor.runs.join(', ')} ms`,
  );
  const cases = [
    ['first launch (fresh data)', result.fresh, result.budgetMs.firstLaunch],
    ['returning launch', result.returning, result.budgetMs.returning],
    [
      'returning launch, same browser profile',
      result.returningSameBrowser,
      result.budgetMs.returning,
    ],
  ] as const;
  const timed = FIRST_ONLY ? cases.slice(0, 1) : RETURNING_ONLY ? cases.slice(1) : cases;
  for (const [name, data, budget] of timed) {
    const m = data.median;
    const firstScreen =
      m.firstScreenMs === null
        ? `first screen: none shown`
        : `first screen: median ${m.firstScreenMs} ms (shown ${m.firstScreenShown}; runs ${data.runs.map((r) => r.firstScreenMs ?? '-').join(', ')} ms; budget < ${budget} ms)`;
    console.log(
      `${name}: ${firstScreen}; live: median ${m.totalMs} ms to the app's first message, ${m.totalMs - f.totalMs} ms above the reference (process to URL ${m.toUrlMs} ms, page to first message ${m.toFirstMessageMs} ms); runs ${data.runs.map((r) => r.totalMs).join(', ')} ms; budget < ${budget} ms; account connected (register answered and applied): median ${m.connectedMs} ms, runs ${data.runs.map((r) => r.connectedMs).join(', ')} ms`,
    );
  }
  writeBenchFigures('startup', result);
}

await main();
