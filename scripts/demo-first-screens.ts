// The first screens a first launch of the demo shows (docs/first-screen.md, "A first launch from the
// build's seed"): made by the build, once per demo template and page, from the real app. The built
// `npm start` is run on a fresh data folder (a first launch, copying the template), its page is
// opened in headless Chromium (found as the tests find it: test/support/chromium.ts) for each view a
// first launch opens, at the window the start-up bench opens, and once the live app shows the view
// connected, the page is told it is hidden: the app's own capture (features/first-screen/capture.ts)
// hands main its copy, main's store cleans and seals it, and it is read back from that store, clean. Its
// times are moved back to the template's own (the launch's copy had moved them to its day), so a
// first launch's main moves them by exactly the shift it moves the seed by. Without Chromium the
// build says so in one line and keeps a note instead, so the next build does not try again until
// the template or the page changes; a first launch then shows no first screen, as before.
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import { join } from 'node:path';
import type { Browser } from 'playwright-core';
import { DEMO_FIRST_SCREENS_FILE, type DemoFirstScreens } from '../shared/demo-seed';
import type { FirstScreenLaunchKey } from '../shared/ipc/first-screen-view';
import { readTemplateStamp } from '../server/seed/template-stamp';

/**
 * The views a first launch opens and the window it opens them in: `npm start` without a view (the
 * demo owner's home view, the Inbox) and `#view=all` (what bench:startup opens), at Playwright's
 * default window, 1,280 × 720 (the widest layout band: the early script shows a copy only in its
 * own band, renderer/first-screen.ts).
 */
const VIEWS: ReadonlyArray<{ key: FirstScreenLaunchKey; view: string; ready: string }> = [
  { key: 'view=inbox', view: 'inbox', ready: '.view.inbox' },
  { key: 'view=all', view: 'narrow:', ready: '[data-testid="message"]' },
];
const WINDOW = { width: 1280, height: 720 };
const TIMEOUT_MS = 60_000;
/** Set in the launch this runs: its own build check must not make the screens again. */
export const NO_FIRST_SCREENS_ENV = 'TRIBUTARY_BUILD_NO_FIRST_SCREENS';

function rendererPage(root: string): string {
  return join(root, 'dist/renderer/index.html');
}

/**
 * Whether the screens beside the template were made of it and of the page as they are (or noted
 * as not made for them): by time, as the build's other outputs, two stats on a warm start.
 */
export function demoFirstScreensFresh(root: string, templateDir: string): boolean {
  if (process.env[NO_FIRST_SCREENS_ENV]) return true;
  const made = statSync(join(templateDir, DEMO_FIRST_SCREENS_FILE), { throwIfNoEntry: false });
  const page = statSync(rendererPage(root), { throwIfNoEntry: false });
  const stamp = statSync(join(templateDir, 'template.json'), { throwIfNoEntry: false });
  // No template or page: nothing to make them of (the build makes those first).
  if (!page || !stamp) return true;
  return !!made && made.mtimeMs >= page.mtimeMs && made.mtimeMs >= stamp.mtimeMs;
}

export async function makeDemoFirstScreens(root: string, templateDir: string): Promise<void> {
  const stamp = readTemplateStamp(templateDir);
  if (!stamp) return;
  const page = statSync(rendererPage(root));
  const file = join(templateDir, DEMO_FIRST_SCREENS_FILE);
  const keep = (made: Omit<DemoFirstScreens, 'stamp' | 'renderer'>) =>
    writeFileSync(
      file,
      JSON.stringify({
        stamp,
        renderer: { size: page.size, mtimeMs: page.mtimeMs },
        ...made,
      } satisfies DemoFirstScreens),
    );
  let chromium: typeof import('../test/support/chromium');
  try {
    chromium = await import('../test/support/chromium');
    if (!existsSync(chromium.CHROMIUM)) throw new Error(`no Chromium at ${chromium.CHROMIUM}`);
  } catch (error) {
    return skipped(error);
  }
  const dataDir = mkdtempSync(join(os.tmpdir(), 'tributary-first-screens-'));
  // The launch and the browser start together: each takes a second or more on this machine.
  const launch = spawn(
    process.execPath,
    [join(root, 'scripts/launch.mjs'), '--browser', '--no-open', '--port', '0', '--data', dataDir],
    {
      cwd: root,
      env: { ...process.env, [NO_FIRST_SCREENS_ENV]: '1' },
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  const browser = chromium.launchChromium().catch((error: unknown) => error as Error);
  try {
    const url = await signedIn(launch, dataDir);
    const opened = await browser;
    if (opened instanceof Error) throw opened;
    // Both views load at once; each is then copied in turn (main keeps one copy at a time).
    const pages = await Promise.all(VIEWS.map((view) => shown(opened, url, view)));
    const screens: DemoFirstScreens['screens'] = [];
    for (const [index, view] of VIEWS.entries())
      screens.push(await copied(pages[index]!, dataDir, view));
    // The launch's copy moved the template's dates to its own day: back to the template's.
    const shift = (await copiedAt(dataDir)) - stamp.seededAt;
    const { shiftFirstScreenTimes } = await import('../electron/first-screen/sanitize-screen');
    for (const { screen } of screens) screen.html = shiftFirstScreenTimes(screen.html, -shift);
    keep({ screens });
  } catch (error) {
    skipped(error);
  } finally {
    await browser.then((opened) => (opened instanceof Error ? undefined : opened.close()));
    await stop(launch);
    rmSync(dataDir, { recursive: true, force: true });
  }

  function skipped(error: unknown): void {
    const reason = (error instanceof Error ? error.message : String(error)).split('\n')[0]!;
    console.log(`The demo's first screens are not made (${reason}): a first launch shows none.`);
    keep({ screens: [], skipped: reason });
  }
}

/** The launch's URL once it has signed in to the demo as its owner (its account is stored). */
async function signedIn(child: ChildProcess, dataDir: string): Promise<string> {
  let output = '';
  let exited: number | null | undefined;
  child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.once('exit', (code) => (exited = code));
  for (const end = Date.now() + TIMEOUT_MS; Date.now() < end;) {
    const url = /Tributary is running at (\S+)/.exec(output)?.[1];
    if (url && accountId(dataDir)) return url;
    if (exited !== undefined)
      throw new Error(`the launch exited with ${exited}: ${output.trim().split('\n').pop()}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`the launch did not sign in: ${JSON.stringify(output.slice(-600))}`);
}

function accountId(dataDir: string): string | null {
  try {
    const accounts = JSON.parse(readFileSync(join(dataDir, 'accounts.json'), 'utf8')) as {
      activeAccountId: string | null;
    };
    return accounts.activeAccountId;
  } catch {
    return null;
  }
}

/** The day the launch's realm copy moved the template's dates to (its realm's creation). */
async function copiedAt(dataDir: string): Promise<number> {
  // Loaded here: the build's warm check, in the launcher's bundle, never needs the driver.
  const { default: Database } = await import('better-sqlite3');
  const db = new Database(join(dataDir, 'local-realm', 'realm.sqlite3'), { readonly: true });
  try {
    const created = db.prepare('SELECT date_created FROM realm WHERE id = 1').get() as {
      date_created: number;
    };
    return created.date_created;
  } finally {
    db.close();
  }
}

/** Resolves once the page has not changed for 300 ms. */
const HELD_STILL = `new Promise((resolve) => {
  let quiet;
  const observer = new MutationObserver(() => settle());
  const settle = () => {
    clearTimeout(quiet);
    quiet = setTimeout(() => (observer.disconnect(), resolve()), 300);
  };
  observer.observe(document.body, { subtree: true, childList: true, attributes: true });
  settle();
})`;
/** What a hidden page is told: the capture's own moment to copy the screen. */
const HIDDEN = `Object.defineProperty(document, 'visibilityState', { value: 'hidden', configurable: true });
document.dispatchEvent(new Event('visibilitychange'));`;

/**
 * A page of the view in a fresh profile (as a first launch's browser has), once the live app shows
 * it connected and has held still. Its browser closes it.
 */
async function shown(browser: Browser, url: string, { key, ready }: (typeof VIEWS)[number]) {
  const context = await browser.newContext({ viewport: WINDOW });
  const page = await context.newPage();
  const since = Date.now();
  await page.goto(`${url}&${key}`);
  await page.locator(ready).first().waitFor({ timeout: TIMEOUT_MS });
  await page.locator('[data-testid=connection-banner]').waitFor({
    state: 'detached',
    timeout: TIMEOUT_MS,
  });
  await page.locator('#first-screen').waitFor({ state: 'detached', timeout: TIMEOUT_MS });
  // As text: this module's functions are transpiled with helpers the page does not have.
  await page.evaluate(HELD_STILL);
  return { page, since };
}

/** Tells the page it is hidden (the capture's own moment to copy) and takes main's kept copy. */
async function copied(
  { page, since }: Awaited<ReturnType<typeof shown>>,
  dataDir: string,
  { key, view }: (typeof VIEWS)[number],
): Promise<DemoFirstScreens['screens'][number]> {
  await page.evaluate(HIDDEN);
  for (const end = Date.now() + TIMEOUT_MS; Date.now() < end;) {
    const kept = await keptScreen(dataDir, key, since);
    if (kept?.screen.view.startsWith(view)) return kept;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`the app kept no screen of ${key}`);
}

/** The screen main's store keeps for `key` (written after `since`), with every launch it is for. */
async function keptScreen(
  dataDir: string,
  key: FirstScreenLaunchKey,
  since: number,
): Promise<DemoFirstScreens['screens'][number] | null> {
  const id = accountId(dataDir);
  const [{ FirstScreenStore, firstScreenPath }, { FileVault }, { FIRST_SCREEN_LAUNCH_KEYS }] =
    await Promise.all([
      import('../electron/first-screen/first-screen-store'),
      import('../electron/accounts/vault'),
      import('../shared/ipc/first-screen-view'),
    ]);
  if (
    !id ||
    (statSync(firstScreenPath(dataDir, id), { throwIfNoEntry: false })?.mtimeMs ?? 0) < since
  )
    return null;
  const store = new FirstScreenStore({
    dataDir,
    vault: new FileVault(dataDir),
    activeAccountId: () => id,
    known: () => true,
  });
  const screen = store.take(key);
  if (!screen) return null;
  const keys = FIRST_SCREEN_LAUNCH_KEYS.filter((k) => store.take(k)?.html === screen.html);
  return { keys, screen };
}

async function stop(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), 5_000);
  await exited;
  clearTimeout(timer);
}
