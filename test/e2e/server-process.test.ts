// The local realm server runs in its own process, which `npm start` supervises (browser mode, the
// real launcher): killed mid-session, the window says so, the launcher starts it again on the same
// port, and a message that was in flight when it died is delivered from the outbox, once. A
// server that cannot start is said in the window with its reason and a Retry, and the remote
// account opens regardless.
import type { ChildProcess } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiClient } from '../support/client';
import { startBrowserMode, stopBrowserMode } from '../main/support/browser-start';
import { CHROMIUM, launchChromium, startApp, startRealm } from './support/app';
import { messageWithText, openTopic, send } from './support/ui';
import { existsSync } from 'node:fs';

/** The realm server's process id and URL, from the launcher's line. */
function realmProcess(lines: string[]): { pid: number; url: string } {
  for (const line of [...lines].reverse()) {
    const found = /^local realm server listening on (\S+) \(process (\d+)\)$/.exec(line);
    if (found) return { url: found[1], pid: Number(found[2]) };
  }
  throw new Error(`no realm server line in:\n${lines.join('\n')}`);
}

const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

/** Every text the local server's banner showed from now on (a restart may be quick). */
async function recordRealmBanner(page: Page): Promise<() => Promise<string[]>> {
  await page.evaluate(() => {
    const seen: string[] = [];
    (window as unknown as { __realmBanner: string[] }).__realmBanner = seen;
    new MutationObserver(() => {
      const text = document.querySelector('[data-testid=local-realm-banner]')?.textContent;
      if (text && seen.at(-1) !== text) seen.push(text);
    }).observe(document.body, { subtree: true, childList: true, characterData: true });
  });
  return () =>
    page.evaluate(() => (window as unknown as { __realmBanner: string[] }).__realmBanner);
}

describe.skipIf(!existsSync(CHROMIUM))('the local realm server in its own process', () => {
  let browser: Browser;
  const dirs: string[] = [];
  const launchers: ChildProcess[] = [];
  const tempDir = (prefix: string) => {
    const dir = mkdtempSync(join(tmpdir(), prefix));
    dirs.push(dir);
    return dir;
  };

  beforeAll(async () => {
    browser = await launchChromium();
  }, 60_000);

  afterAll(async () => {
    await browser?.close();
    for (const child of launchers) await stopBrowserMode(child);
    for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
  });

  it('is restarted when it dies, and the outbox delivers what was in flight', async () => {
    const dataDir = tempDir('tributary-e2e-process-');
    const { child, lines, appUrl } = await startBrowserMode(dataDir, []);
    launchers.push(child);
    const first = realmProcess(lines);
    const owner = (
      JSON.parse(readFileSync(join(dataDir, 'local-realm', 'demo-credentials.json'), 'utf8')) as {
        users: Array<{ email: string; api_key: string; role: number; is_bot: boolean }>;
      }
    ).users.find((u) => u.role === 100 && !u.is_bot)!;
    const client = new ApiClient(() => first.url, { email: owner.email, apiKey: owner.api_key });
    const copies = async (content: string) => {
      const res = await client.get('/messages', {
        anchor: 'newest',
        num_before: 50,
        num_after: 0,
        narrow: [{ operator: 'topic', operand: 'process restart' }],
        apply_markdown: false,
      });
      return (res.body.messages as Array<{ content: string }>).filter((m) => m.content === content)
        .length;
    };

    const page = await (await browser.newContext()).newPage();
    await page.goto(appUrl.href);
    await page.getByRole('navigation', { name: 'Conversations' }).waitFor();
    await openTopic(page, 'general', 'process restart');
    await send(page, 'before it died');
    await messageWithText(page, 'before it died').waitFor();
    const bannerTexts = await recordRealmBanner(page);

    // Frozen first, so the send below is in flight (sent, unanswered) when the process dies.
    process.kill(first.pid, 'SIGSTOP');
    await send(page, 'in flight when it died');
    await expect.poll(() => page.getByRole('textbox', { name: 'Message' }).inputValue()).toBe('');
    process.kill(first.pid, 'SIGKILL');
    // Gone once the launcher has reaped it, on its own event loop: under a full run, past a second.
    await expect.poll(() => alive(first.pid), { timeout: 10_000 }).toBe(false);

    // Started again by the launcher, as another process on the same port (the account's URL).
    await expect.poll(() => realmProcess(lines).pid, { timeout: 30_000 }).not.toBe(first.pid);
    const second = realmProcess(lines);
    expect(second.url).toBe(first.url);
    await expect.poll(() => copies('in flight when it died'), { timeout: 30_000 }).toBe(1);
    expect(await bannerTexts()).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/The local server stopped unexpectedly \(SIGKILL\)\. Restarting it/),
      ]),
    );
    await expect.poll(() => page.getByTestId('local-realm-banner').count()).toBe(0);
    await expect.poll(() => page.getByTestId('connection-banner').count()).toBe(0);
    await expect.poll(() => messageWithText(page, 'in flight when it died').count()).toBe(1);
    expect(await copies('in flight when it died')).toBe(1);
    expect(await copies('before it died')).toBe(1);
    expect(JSON.parse(readFileSync(join(dataDir, 'local-realm', 'port.json'), 'utf8'))).toEqual({
      port: Number(new URL(first.url).port),
    });

    // Stopped with the app.
    await stopBrowserMode(child);
    expect(alive(second.pid)).toBe(false);
  }, 120_000);

  it('says why it could not start, with a Retry, and opens the remote account regardless', async () => {
    const remote = await startRealm();
    try {
      // A data folder with an account on another server, and a local realm that cannot open.
      const app = await startApp(remote, 'owner');
      const dataDir = app.dataDir;
      await app.stopHost();
      const database = join(dataDir, 'local-realm', 'realm.sqlite3');
      mkdirSync(database, { recursive: true });

      const { child, appUrl } = await startBrowserMode(dataDir, []);
      launchers.push(child);
      const page = await (await browser.newContext()).newPage();
      await page.goto(appUrl.href);
      const banner = page.getByTestId('local-realm-banner');
      await expect
        .poll(() => banner.textContent())
        .toMatch(/The local server is not running: its data folder cannot be opened/);
      // The remote account opened: its channels are listed.
      await page.getByRole('navigation', { name: 'Conversations' }).waitFor();
      await openTopic(page, 'general', 'remote works');
      await send(page, 'sent to the remote server');
      await messageWithText(page, 'sent to the remote server').waitFor();

      // Fixed, then Retry: it starts and the banner goes.
      rmSync(database, { recursive: true });
      await banner.getByRole('button', { name: 'Retry' }).click();
      await expect.poll(() => banner.count(), { timeout: 30_000 }).toBe(0);
      expect(existsSync(database)).toBe(true);
      await stopBrowserMode(child);
      await app.close();
    } finally {
      await remote.close();
    }
  }, 120_000);
});
