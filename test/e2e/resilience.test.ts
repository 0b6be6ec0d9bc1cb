// What must survive: a draft across an app restart, typed text across a local-server restart (with
// recovery of the connection), and an upload reported with progress until its link is inserted.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { launchChromium, openApp, startApp, startRealm, type App, type Realm } from './support/app';
import { messageWithText, openTopic } from './support/ui';
import type { PageWindow } from './support/ui';

declare const window: PageWindow;

let realm: Realm;
let app: App;
let browser: Browser;
let page: Page;

beforeAll(async () => {
  realm = await startRealm();
  app = await startApp(realm, 'owner');
  browser = await launchChromium();
  page = await openApp(browser, app);
});

afterAll(async () => {
  await browser?.close();
  await app?.close();
  await realm?.close();
});

const composeBox = () => page.getByRole('textbox', { name: 'Message' });

describe('resilience end to end', () => {
  it('keeps a draft across an app restart', async () => {
    await openTopic(page, 'general', 'e2e drafts');
    await composeBox().fill('Half-written thought that must not be lost');
    // Saved by main as the user types (debounced): wait until it is on disk.
    await expect
      .poll(
        async () =>
          page.evaluate(async () => {
            const api = window.tributary;
            const accounts = await api.listAccounts({});
            const drafts = await api.listDrafts({ accountId: accounts.activeAccountId! });
            return drafts.map((d) => d.draft.content);
          }),
        { timeout: 10_000 },
      )
      .toContain('Half-written thought that must not be lost');

    await page.context().close();
    await app.restart();
    page = await openApp(browser, app);
    await openTopic(page, 'general', 'e2e drafts');
    await expect
      .poll(() => composeBox().inputValue(), { timeout: 10_000 })
      .toBe('Half-written thought that must not be lost');
    // The Drafts view lists it too.
    await page.getByRole('button', { name: /^Drafts/ }).click();
    await page.getByTestId('draft').filter({ hasText: 'Half-written thought' }).waitFor();
  });

  it('uploads a file with progress and inserts its link', async () => {
    await openTopic(page, 'general', 'e2e uploads');
    await page.evaluate(() => {
      const seen: unknown[] = [];
      window.__uploads = seen;
      window.tributary.on('uploadProgress', (p) => seen.push(p));
    });
    const bytes = Buffer.alloc(3 * 1024 * 1024, 'tributary ');
    await page
      .locator('input[type=file]')
      .setInputFiles({ name: 'notes.txt', mimeType: 'text/plain', buffer: bytes });
    await expect
      .poll(() => composeBox().inputValue(), { timeout: 30_000 })
      .toMatch(/\[notes\.txt\]\(\/user_uploads\/[^)]+\)/);
    const reports = (await page.evaluate(() => window.__uploads)) as Array<{
      state: string;
      loaded: number;
      total: number;
    }>;
    expect(reports.at(-1)).toMatchObject({ state: 'done', total: bytes.length });
    // Progress came in steps before completion, never going backwards.
    expect(reports.some((r) => r.state === 'uploading')).toBe(true);
    const loaded = reports.map((r) => r.loaded);
    expect([...loaded].sort((a, b) => a - b)).toEqual(loaded);
    // Sending it puts a working link in the conversation.
    await page.getByRole('button', { name: 'Send', exact: true }).click();
    await messageWithText(page, 'notes.txt').getByRole('link', { name: 'notes.txt' }).waitFor();
  });

  it('recovers after the local server restarts, keeping the typed text', async () => {
    await openTopic(page, 'general', 'e2e restart');
    await composeBox().fill('Typed while the server went away');
    await realm.stop();
    await page.getByTestId('connection-banner').waitFor({ timeout: 30_000 });
    await realm.restart();
    await page.getByTestId('connection-banner').waitFor({ state: 'detached', timeout: 60_000 });
    expect(await composeBox().inputValue()).toBe('Typed while the server went away');
    await page.getByRole('button', { name: 'Send', exact: true }).click();
    await messageWithText(page, 'Typed while the server went away').waitFor();
    expect(await page.getByTestId('outbox-message').count()).toBe(0);
  });
});
