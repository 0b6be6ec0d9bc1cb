// The first screen in the start-up benches: when the last screen of the previous launch appeared in
// the page (renderer/first-screen.ts marks it just before the frame that shows it), on the bench's
// clock; and waiting, before a launch's page closes, until main has kept the screen for the next
// launch, as it does after a person has had the chat in front of them for a few seconds.
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'playwright-core';

/** When the page showed the first screen, as this process's performance.now(); null: it did not. */
export async function firstScreenShownAt(page: Page): Promise<number | null> {
  const shown = await page.evaluate(() => {
    const mark = performance.getEntriesByName('tributary:first-screen-shown')[0];
    return mark ? performance.timeOrigin + mark.startTime : null;
  });
  return shown === null ? null : shown - performance.timeOrigin;
}

/** The newest time any account of `dataDir` kept a first screen (ms since the epoch), or 0. */
function keptAt(dataDir: string): number {
  const accounts = join(dataDir, 'accounts');
  if (!existsSync(accounts)) return 0;
  let newest = 0;
  for (const id of readdirSync(accounts)) {
    const file = join(accounts, id, 'first-screen.json');
    if (existsSync(file)) newest = Math.max(newest, statSync(file).mtimeMs);
  }
  return newest;
}

/**
 * Waits (up to `timeoutMs`) until main has kept a first screen written after `sinceEpochMs`: the
 * page copies its screen once it has held still for a while (features/first-screen/capture.ts).
 */
export async function waitUntilScreenKept(
  dataDir: string,
  sinceEpochMs: number,
  timeoutMs = 20_000,
): Promise<boolean> {
  for (const end = Date.now() + timeoutMs; Date.now() < end;) {
    if (keptAt(dataDir) >= sinceEpochMs) return true;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return false;
}
