// What must survive: a draft across an app restart, typed text across a local-server restart (with
// recovery of the connection), and an upload shown with a progress bar until its link is inserted.
import { describe, expect, it } from 'vitest';
import { appSession } from './support/app';
import { composeBox, messageWithText, openTopic } from './support/ui';
import type { PageWindow } from './support/ui';

declare const window: PageWindow & { __bars?: BarState[] };
// The page globals the upload test evaluates (e2e code compiles without DOM types).
interface PageProgress {
  tagName: string;
  value: number;
  max: number;
  getAttribute(name: string): string | null;
  querySelectorAll(selector: string): ArrayLike<PageProgress>;
}
declare const document: { body: unknown };
declare class MutationObserver {
  constructor(
    callback: (
      records: Array<{ target: PageProgress; addedNodes: ArrayLike<PageProgress> }>,
    ) => void,
  );
  observe(target: unknown, options: object): void;
}

/** A progress bar as the page showed it, recorded on every change. */
interface BarState {
  name: string | null;
  value: number;
  max: number;
}

const session = appSession();

/** The message box as it is (a draft restored opens it; an empty box may be closed). */
const messageBox = () => session.page.getByRole('textbox', { name: 'Message' });

describe('resilience end to end', () => {
  it('keeps a draft across an app restart', async () => {
    let { page } = session;
    await openTopic(page, 'general', 'e2e drafts');
    await (await composeBox(page)).fill('Half-written thought that must not be lost');
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

    page = await session.relaunchApp();
    await openTopic(page, 'general', 'e2e drafts');
    await expect
      .poll(() => messageBox().inputValue(), { timeout: 10_000 })
      .toBe('Half-written thought that must not be lost');
    // The Drafts view lists it too.
    await page
      .getByRole('navigation', { name: 'Views' })
      .getByRole('button', { name: 'Drafts' })
      .click();
    await page.getByTestId('draft').filter({ hasText: 'Half-written thought' }).waitFor();
  });

  it('uploads a file with a progress bar and inserts its link', async () => {
    const { page } = session;
    await openTopic(page, 'general', 'e2e uploads');
    // Every state of the page's progress bars (<progress>, role progressbar, its value the
    // aria-valuenow), recorded as the DOM changes: the bar is gone once the upload is done.
    await page.evaluate(() => {
      const bars: BarState[] = [];
      window.__bars = bars;
      const record = (bar: PageProgress) =>
        bars.push({ name: bar.getAttribute('aria-label'), value: bar.value, max: bar.max });
      new MutationObserver((records) => {
        for (const { target, addedNodes } of records) {
          if (target.tagName === 'PROGRESS') record(target);
          for (const node of Array.from(addedNodes)) {
            if (node.tagName === 'PROGRESS') record(node);
            else if (node.querySelectorAll)
              Array.from(node.querySelectorAll('progress')).forEach(record);
          }
        }
      }).observe(document.body, {
        subtree: true,
        childList: true,
        attributes: true,
        attributeFilter: ['value', 'max'],
      });
    });
    const bytes = Buffer.alloc(3 * 1024 * 1024, 'tributary ');
    await composeBox(page);
    await page
      .locator('input[type=file]')
      .setInputFiles({ name: 'notes.txt', mimeType: 'text/plain', buffer: bytes });
    const bar = page.getByRole('progressbar', { name: 'Uploading notes.txt' });
    await bar.waitFor({ state: 'attached' });
    // The link is inserted where the user is typing, and the bar goes away.
    await expect
      .poll(() => messageBox().inputValue(), { timeout: 30_000 })
      .toMatch(/^\[notes\.txt\]\(\/user_uploads\/[^)]+\)/);
    await bar.waitFor({ state: 'detached' });
    const states = ((await page.evaluate(() => window.__bars)) ?? []).filter(
      (b) => b.name === 'Uploading notes.txt',
    );
    // The bar rose in steps towards the file's size, never going backwards, with partial states
    // shown on the way (its last step may be replaced by the link in the same render).
    const values = states.map((s) => s.value);
    expect([...values].sort((a, b) => a - b)).toEqual(values);
    expect(states.some((s) => s.max === bytes.length)).toBe(true);
    expect(states.some((s) => s.value > 0 && s.value < bytes.length)).toBe(true);
    expect(new Set(values).size).toBeGreaterThan(2);
    // Sending it puts a working link in the conversation.
    await page.getByRole('button', { name: 'Send', exact: true }).click();
    await messageWithText(page, 'notes.txt').getByRole('link', { name: 'notes.txt' }).waitFor();
  });

  it('recovers after the local server restarts, keeping the typed text', async () => {
    const { page, realm } = session;
    await openTopic(page, 'general', 'e2e restart');
    await (await composeBox(page)).fill('Typed while the server went away');
    await realm.stop();
    await page.getByTestId('connection-banner').waitFor({ timeout: 30_000 });
    await realm.restart();
    await page.getByTestId('connection-banner').waitFor({ state: 'detached', timeout: 60_000 });
    expect(await messageBox().inputValue()).toBe('Typed while the server went away');
    await page.getByRole('button', { name: 'Send', exact: true }).click();
    await messageWithText(page, 'Typed while the server went away').waitFor();
    expect(await page.getByTestId('outbox-message').count()).toBe(0);
  });
});
