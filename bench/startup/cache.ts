// Returning launch from the local cache (npm run bench:startup-cache): `npm start -- --browser
// --no-open --port 0 --data DIR` to the last open conversation's messages on screen in Chromium, with
// the account's server answering slowly (every request delayed 5 s) or down (connection refused), so
// the figure is what the cache alone gives. For comparison, the same launch with the cache deleted and
// the server answering at once (the app then opens All messages and waits for the server).
// The server is a real local realm server process behind a small proxy that delays or refuses.
// Each launch reports two figures after the page's navigation: the first screen (the last screen of
// the launch before, shown by the page's early script: renderer/first-screen.ts; the slow-server
// launch of each round has none, its data folder being new) and live (the app's own messages). Each
// page stays open until main has kept its screen for the next launch.
// Prints the figures and writes bench/.out/startup-cache.json. BENCH_TRACE=1 adds each run's bridge
// round trips and long tasks (as bench:startup-trace shows them); BENCH_PROFILE=DIR also writes a
// CPU profile of each page's start.
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import { join } from 'node:path';
import type { Browser, CDPSession } from 'playwright-core';
import { buildAll } from '../../scripts/build';
import { launchChromium } from '../../test/support/chromium';
import { startFaultProxy } from '../../test/main/support/fault-proxy';
import { MainServices } from '../../electron/services';
import { FileVault } from '../../electron/accounts/vault';
import { PushHub } from '../../electron/push-hub';
import { cachePath } from '../../electron/cache/cache-service';
import { deleteCacheFiles } from '../../electron/cache/account-cache';
import type { NarrowTerm } from '../../shared/narrow';
import { writeBenchFigures } from '../support/output';
import { startServerProcess } from '../support/server-process';
import { median, stop, timeLaunch, TIMEOUT_MS } from './launch-process';
import { waitUntilScreenKept } from './first-screen';
import {
  cdpTimeOrigin,
  observePage,
  printRoundTrips,
  recordFrames,
  roundTrips,
  type BridgeTrace,
  type RecordedFrames,
} from './page-trace';

const RUNS = Number(process.env.BENCH_RUNS ?? 3);
const PROFILE_DIR = process.env.BENCH_PROFILE;
const TRACE = !!process.env.BENCH_TRACE || !!PROFILE_DIR;
const SLOW_SERVER_MS = 5_000;
const TOPIC = 'bench cache start';
const LAST_TEXT = 'the last message of the bench topic';

/** Milestones in the page, in ms since its navigation started (the page's own clock). */
interface PageMilestones {
  /** The HTML's response ended. */
  htmlMs: number;
  /** DOMContentLoaded ended: the app's module script has run. */
  scriptMs: number;
  /** The account's state is in the store and rendered (the sidebar's channels are on screen). */
  stateMs: number;
  /** The awaited message is on screen. */
  messagesMs: number;
  /** The first screen was shown (null: none was). */
  firstScreenMs: number | null;
}

/**
 * Runs in the page from its first script on: notes when the sidebar's lists and the message with
 * the awaited text first appear, so the figures do not include the driver's polling. A string, not a
 * function: tsx would add helpers to a function's source that the page does not have.
 */
const recordMilestones = (text: string) => `(() => {
  const text = ${JSON.stringify(text)};
  const marks = (window.__milestones = {});
  const check = () => {
    if (marks.stateMs === undefined && document.querySelector('nav h2, [role=navigation] h2'))
      marks.stateMs = performance.now();
    if (marks.messagesMs === undefined) {
      for (const row of document.querySelectorAll('[data-testid=message]')) {
        if ((row.textContent || '').includes(text)) {
          marks.messagesMs = performance.now();
          break;
        }
      }
    }
  };
  new MutationObserver(check).observe(document, { childList: true, subtree: true });
})();`;

interface Launch {
  toUrlMs: number;
  /** URL printed -> the last conversation's newest message visible. */
  toMessagesMs: number;
  totalMs: number;
  /** The page said it showed saved messages when they appeared (the server had not answered). */
  fromCache: boolean;
  page: PageMilestones;
  /** With BENCH_TRACE: the bridge's round trips and the page's long tasks. */
  trace?: BridgeTrace & { longTasks: Array<{ startMs: number; durationMs: number }> };
}

/** Signs in through the proxy, fills a topic, opens it as the renderer does, and closes the app. */
async function prepareDataDir(dataDir: string, site: string, realmDir: string): Promise<void> {
  const credentials = JSON.parse(readFileSync(join(realmDir, 'demo-credentials.json'), 'utf8')) as {
    users: { email: string; api_key: string }[];
  };
  const owner = credentials.users.find((u) => u.email.startsWith('owner@'))!;
  const services = new MainServices({
    dataDir,
    vault: new FileVault(dataDir),
    push: new PushHub().push,
    appInfo: { runtime: 'browser', version: 'bench', platform: process.platform },
    openExternal: () => undefined,
  });
  const { id: accountId } = await services.addAccount({
    site,
    email: owner.email,
    apiKey: owner.api_key,
  });
  const session = services.session(accountId);
  for (let i = 0; i < 200 && !session.isOnline(); i++) await new Promise((r) => setTimeout(r, 50));
  const general = session.register!.subscriptions.find((s) => s.name === 'general')!;
  for (let i = 0; i < 40; i++) {
    await services.handlers.sendMessage({
      accountId,
      message: {
        type: 'channel',
        to: general.stream_id,
        topic: TOPIC,
        content: i === 39 ? LAST_TEXT : `message ${i} of the bench topic, with **some** text`,
      },
    });
  }
  const narrow: NarrowTerm[] = [
    { operator: 'channel', operand: general.stream_id },
    { operator: 'topic', operand: TOPIC },
  ];
  // The renderer's first page of a conversation.
  await services.handlers.getMessages({
    accountId,
    narrow,
    anchor: 'first_unread',
    numBefore: 50,
    numAfter: 50,
    includeAnchor: true,
  });
  await services.handlers.rememberOpenNarrow({ accountId, narrow });
  await services.stop();
}

async function launch(
  browser: Browser,
  dataDir: string,
  waitFor: string,
  fragment = '',
  label = 'launch',
): Promise<Launch> {
  let cdp: CDPSession | undefined;
  let frames: RecordedFrames | undefined;
  const started = Date.now();
  const timed = await timeLaunch(
    browser,
    dataDir,
    async (page) => {
      await page
        .getByTestId('message')
        .filter({ hasText: waitFor })
        .first()
        .waitFor({ timeout: TIMEOUT_MS });
      const liveAt = performance.now();
      const banner = (await page.getByTestId('connection-banner').allTextContents()).join(' ');
      const milestones = await page.evaluate(`(() => {
        const [nav] = performance.getEntriesByType('navigation');
        return {
          ...window.__milestones,
          htmlMs: nav.responseEnd,
          scriptMs: nav.domContentLoadedEventEnd,
          firstScreenMs:
            performance.getEntriesByName('tributary:first-screen-shown')[0]?.startTime ?? null,
        };
      })()`);
      await waitUntilScreenKept(dataDir, started);
      let trace: Launch['trace'];
      if (cdp && frames) {
        if (PROFILE_DIR) {
          const { profile } = await cdp.send('Profiler.stop');
          mkdirSync(PROFILE_DIR, { recursive: true });
          writeFileSync(join(PROFILE_DIR, `cache-${label}.cpuprofile`), JSON.stringify(profile));
        }
        const longTasks = (await page.evaluate('window.__startTrace.longTasks')) as NonNullable<
          Launch['trace']
        >['longTasks'];
        trace = { ...roundTrips(frames, await cdpTimeOrigin(cdp, page)), longTasks };
      }
      return { banner, milestones: milestones as PageMilestones, trace, liveAt };
    },
    async (page) => {
      await page.addInitScript(recordMilestones(waitFor));
      if (!TRACE) return;
      cdp = await page.context().newCDPSession(page);
      frames = recordFrames(cdp);
      await cdp.send('Network.enable');
      if (PROFILE_DIR) {
        await cdp.send('Profiler.enable');
        await cdp.send('Profiler.setSamplingInterval', { interval: 200 });
        await cdp.send('Profiler.start');
      }
      await page.addInitScript(observePage);
    },
    fragment,
  );
  return {
    toUrlMs: timed.toUrlMs,
    // Not the time `ready` took: it waits for the screen to be kept after the messages showed.
    toMessagesMs: timed.seen.liveAt - timed.urlAt,
    totalMs: timed.toUrlMs + timed.seen.liveAt - timed.urlAt,
    fromCache: /saved on this computer/.test(timed.seen.banner),
    page: timed.seen.milestones,
    trace: timed.seen.trace,
  };
}

const round = (n: number) => Math.round(n);
const shownAt = (runs: Launch[]) =>
  runs.flatMap((r) => (r.page.firstScreenMs === null ? [] : [r.page.firstScreenMs]));
const summary = (runs: Launch[]) => ({
  median: {
    firstScreenMs: shownAt(runs).length ? round(median(shownAt(runs))) : null,
    firstScreenShown: `${shownAt(runs).length} of ${runs.length}`,
    totalMs: round(median(runs.map((r) => r.totalMs))),
    toUrlMs: round(median(runs.map((r) => r.toUrlMs))),
    toMessagesMs: round(median(runs.map((r) => r.toMessagesMs))),
    pageMessagesMs: round(median(runs.map((r) => r.page.messagesMs))),
  },
  runs: runs.map((r) => ({
    totalMs: round(r.totalMs),
    toUrlMs: round(r.toUrlMs),
    toMessagesMs: round(r.toMessagesMs),
    fromCache: r.fromCache,
    page: {
      htmlMs: round(r.page.htmlMs),
      scriptMs: round(r.page.scriptMs),
      stateMs: round(r.page.stateMs),
      messagesMs: round(r.page.messagesMs),
      firstScreenMs: r.page.firstScreenMs === null ? null : round(r.page.firstScreenMs),
    },
    trace: r.trace,
  })),
});

function accountIdOf(dataDir: string): string {
  const file = JSON.parse(readFileSync(join(dataDir, 'accounts.json'), 'utf8')) as {
    accounts: { id: string }[];
  };
  return file.accounts[0].id;
}

async function main() {
  await buildAll(); // warm install: building is not part of the timing
  const work = mkdtempSync(join(os.tmpdir(), 'tributary-startup-cache-'));
  const realmDir = join(work, 'realm');
  const dataDir = join(work, 'app');
  const realm = await startServerProcess(realmDir);
  const proxy = await startFaultProxy(() => realm.url);
  const browser = await launchChromium();
  const slow: Launch[] = [];
  const down: Launch[] = [];
  const noCache: Launch[] = [];
  try {
    await prepareDataDir(dataDir, proxy.url, realmDir);
    for (let i = 0; i < RUNS; i++) {
      proxy.inject({ path: '*', action: { delayMs: SLOW_SERVER_MS }, times: 1_000_000 });
      slow.push(await launch(browser, dataDir, LAST_TEXT, '', `slow-${i}`));
      proxy.clearRules();
      await proxy.refuseConnections();
      down.push(await launch(browser, dataDir, LAST_TEXT, '', `down-${i}`));
      await proxy.acceptConnections();
      // Without a cache the app opens once the server has answered: All messages, asked for by
      // fragment (a new user's home view is the Inbox, which shows no message).
      deleteCacheFiles(cachePath(dataDir, accountIdOf(dataDir)));
      noCache.push(await launch(browser, dataDir, '', '&view=all', `no-cache-${i}`));
      // The next round starts again with the conversation open and cached.
      rmSync(dataDir, { recursive: true, force: true });
      await prepareDataDir(dataDir, proxy.url, realmDir);
    }
  } finally {
    await browser.close();
    await proxy.close();
    await stop(realm.child);
    rmSync(work, { recursive: true, force: true });
  }
  const result = {
    benchmark: 'startup-cache',
    date: new Date().toISOString(),
    machine: {
      nproc: os.cpus().length,
      cpu: os.cpus()[0]?.model ?? 'unknown',
      loadavg: os.loadavg(),
    },
    // Issue #24: from the cache, after navigation.
    budgetMs: { afterNavigation: 600 },
    serverSlow: summary(slow),
    serverDown: summary(down),
    noCacheServerUp: summary(noCache),
  };
  console.log(
    `start-up from the cache — ${result.machine.nproc} cores, ${result.machine.cpu}, load ${result.machine.loadavg.map((l) => l.toFixed(1)).join(' ')}, ${result.date}`,
  );
  for (const [name, data] of [
    [`server slow (${SLOW_SERVER_MS} ms per request), from the cache`, result.serverSlow],
    ['server down, from the cache', result.serverDown],
    ['no cache, server answering', result.noCacheServerUp],
  ] as const) {
    const m = data.median;
    const budget = result.budgetMs.afterNavigation;
    const firstScreen =
      m.firstScreenMs === null
        ? 'first screen: none shown'
        : `first screen: ${m.firstScreenMs} ms after the page's navigation started (median, shown ${m.firstScreenShown}; budget < ${budget} ms)`;
    console.log(
      `${name}: ${firstScreen}; live: messages on screen ${m.pageMessagesMs} ms after the page's navigation started (median; budget < ${budget} ms; the driver saw them after ${m.toMessagesMs} ms; process to URL ${m.toUrlMs} ms; total ${m.totalMs} ms)`,
    );
    for (const r of data.runs) {
      console.log(
        `  run: HTML ${r.page.htmlMs} ms, ${r.page.firstScreenMs === null ? 'no first screen' : `first screen ${r.page.firstScreenMs} ms`}, app script run ${r.page.scriptMs} ms, account state on screen ${r.page.stateMs} ms, messages ${r.page.messagesMs} ms${r.fromCache ? ' (banner: saved messages)' : ''}`,
      );
      if (r.trace) {
        printRoundTrips(r.trace, r.page.messagesMs);
        const long = r.trace.longTasks.filter((l) => l.startMs < r.page.messagesMs);
        console.log(
          `     long tasks: ${long.map((l) => `${round(l.startMs)}+${round(l.durationMs)}`).join(', ')}`,
        );
      }
    }
  }
  writeBenchFigures('startup-cache', result);
}

await main();
