// The start-up benches' in-run reference (bench/startup/floor-server.mjs): a bare server and a one-row
// page, launched and opened exactly as the app's launch is timed (spawn -> printed URL -> a new
// browser context and page -> the first `[data-testid=message]` on screen). Run between the app's
// launches so that both see the same load; a budget below this figure cannot be met on the machine.
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import type { Browser } from 'playwright-core';
import { stop, TIMEOUT_MS, waitForUrl } from './launch-process';

const floorServer = join(fileURLToPath(new URL('.', import.meta.url)), 'floor-server.mjs');

export interface FloorLaunch {
  /** Process spawned -> URL printed. */
  toUrlMs: number;
  /** URL printed -> the row on screen (a fresh browser context and page, navigation, the script). */
  toFirstMessageMs: number;
  /** Navigation start -> the row on screen, in the page's own clock. */
  navigationToMessageMs: number;
  totalMs: number;
}

export async function timeFloorLaunch(browser: Browser): Promise<FloorLaunch> {
  const t0 = performance.now();
  const child = spawn(process.execPath, [floorServer], { stdio: ['ignore', 'pipe', 'pipe'] });
  try {
    const url = await waitForUrl(child);
    const t1 = performance.now();
    const context = await browser.newContext();
    try {
      const page = await context.newPage();
      await page.goto(url);
      await page.locator('[data-testid=message]').first().waitFor({ timeout: TIMEOUT_MS });
      const t2 = performance.now();
      // The row is added by the module script, which runs before DOMContentLoaded ends.
      // (A string: this module's `performance` is Node's, not the page's.)
      const navigationToMessageMs = await page.evaluate<number>(
        "performance.getEntriesByType('navigation')[0].domContentLoadedEventStart",
      );
      return {
        toUrlMs: t1 - t0,
        toFirstMessageMs: t2 - t1,
        navigationToMessageMs,
        totalMs: t2 - t0,
      };
    } finally {
      await context.close();
    }
  } finally {
    await stop(child);
  }
}
