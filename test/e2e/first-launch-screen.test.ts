// A first `npm start` shows a first screen (docs/first-screen.md, "A first launch from the build's
// seed"): the demo as the build's run of the real app showed it, before the app's own script has
// even arrived (held back here, so the moment is certain); then the live app replaces it, and every
// time the copy showed is the one the live app shows for the same moment (the realm's copy moved
// the demo's dates to this launch's day, and the copy's with them).
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import type { Browser, Page, Route } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildAll } from '../../scripts/build';
import { launchChromium } from '../support/chromium';

const root = fileURLToPath(new URL('../..', import.meta.url));

/** Each shown time in `scope` (a message's clock or a day) by its moment, and its words. */
function timesIn(page: Page, scope: string): Promise<Array<[string, string]>> {
  return page.$$eval(`${scope} .sender-line > time, ${scope} time.recipient-date`, (times) =>
    times.map((time) => [
      `${time.className === 'recipient-date' ? 'day' : 'clock'} ${time.getAttribute('datetime')}`,
      time.textContent ?? '',
    ]),
  );
}

/** The page's Date, moved on (as text: run in the page before its own scripts). */
const DATE_AHEAD = `{
  const Real = Date;
  globalThis.Date = class extends Real {
    constructor(...args) {
      if (args.length) super(...args);
      else super(Real.now() + AHEAD_MS);
    }
    static now() {
      return Real.now() + AHEAD_MS;
    }
  };
}`;

describe('a first npm start', () => {
  let child: ChildProcess;
  let dataDir: string;
  let url: string;
  let browser: Browser;

  beforeAll(async () => {
    await buildAll();
    dataDir = mkdtempSync(join(tmpdir(), 'tributary-first-launch-screen-'));
    child = spawn(
      process.execPath,
      ['scripts/launch.mjs', '--browser', '--no-open', '--port', '0', '--data', dataDir],
      { cwd: root, stdio: ['ignore', 'pipe', 'inherit'] },
    );
    url = await new Promise<string>((resolve, reject) => {
      createInterface({ input: child.stdout! }).on('line', (line) => {
        const found = /^Tributary is running at (\S+)$/.exec(line);
        if (found) resolve(found[1]!);
      });
      child.once('exit', (code) => reject(new Error(`launcher exited with ${code}`)));
    });
    browser = await launchChromium();
  }, 300_000);

  afterAll(async () => {
    await browser?.close();
    if (child && child.exitCode === null) {
      child.kill('SIGTERM');
      await new Promise((resolve) => child.once('exit', resolve));
    }
    rmSync(dataDir, { recursive: true, force: true });
  });

  /**
   * A fresh profile at the bench's window, the app's own script (not the early one) held; the
   * page's Date `aheadMs` later than this one's (its timers and frames run as they do: Playwright's
   * clock stops the frames the early script waits for).
   */
  async function openHeld(fragment: string, aheadMs = 0) {
    const context = await browser.newContext({ viewport: { width: 1280, height: 720 } });
    if (aheadMs) await context.addInitScript(DATE_AHEAD.replaceAll('AHEAD_MS', String(aheadMs)));
    const page = await context.newPage();
    const held: Route[] = [];
    let releasing = false;
    await page.route(/\/assets\/app-[^/]*\.js$/, (route) =>
      releasing ? route.continue() : void held.push(route),
    );
    await page.goto(`${url}${fragment}`, { waitUntil: 'commit' });
    const release = async () => {
      releasing = true;
      await Promise.all(held.map((route) => route.continue()));
    };
    return { context, page, release };
  }

  it(
    'shows the Inbox the build made of the demo before the app runs',
    { timeout: 60_000 },
    async () => {
      const { context, page } = await openHeld('');
      const overlay = page.locator('#first-screen');
      await overlay.locator('.view.inbox').waitFor();
      expect(await overlay.getAttribute('data-view')).toBe('inbox');
      expect(await page.getByTestId('message').count()).toBe(0);
      await context.close();
    },
  );

  it(
    'shows All messages before the app runs, then the live app replaces it with the same times',
    { timeout: 90_000 },
    async () => {
      // Days on, the build's "Today" and "Friday" are other days: the copy must say them as of now.
      const { context, page, release } = await openHeld('&view=all', 2 * 86_400_000 + 3_600_000);
      const overlay = page.locator('#first-screen');
      await overlay.locator('.sender-line > time').first().waitFor();
      // Before the app: its script has not even arrived.
      expect(await page.getByTestId('message').count()).toBe(0);
      await expect
        .poll(() =>
          page.evaluate(() => performance.getEntriesByName('tributary:first-screen-shown').length),
        )
        .toBe(1);
      const copied = await timesIn(page, '#first-screen');
      expect(copied.length).toBeGreaterThan(3);

      await release();
      await overlay.waitFor({ state: 'detached' });
      await page.getByTestId('message').first().waitFor();
      // The live list renders its rows over a few frames, and then scrolls to the first unread
      // message: compare within one reading of it, taken once it shows some of the copy's moments.
      let shared: Array<[string, string]> = [];
      let live = new Map<string, string>();
      await expect
        .poll(
          async () => {
            live = new Map(await timesIn(page, '#root'));
            shared = copied.filter(([at]) => live.has(at));
            return shared.length;
          },
          { timeout: 15_000 },
        )
        .toBeGreaterThan(3);
      // The same moments (moved to this launch's day as the realm's were), in the same words.
      for (const [at, words] of shared) expect([at, words]).toEqual([at, live.get(at)]);
      await context.close();
    },
  );
});
