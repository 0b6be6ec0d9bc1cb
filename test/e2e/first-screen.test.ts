// The first screen, end to end: a launch keeps what its chat shows; the next launch of the same data
// folder, in a fresh browser profile, shows that screen before the app has even loaded its script
// (held back here, so the moment is certain), carried in the page itself (no request for it), then
// the app's own list replaces it; a launch that opens another view gets none, and a page without
// the launch's page token (a reload) asks the host for it.
import { existsSync, readFileSync, statSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { Page, Route } from 'playwright-core';
import { appSession, realmClient } from './support/app';
import { messageWithText, openTopic } from './support/ui';
import { firstScreenPath } from '../../electron/first-screen/first-screen-store';
import { encodePng } from '../../server/seed/png';

// Launches resume the last one's port and secret, as `npm start` does: the same origin, so the
// browser's cache is the one the page had before.
const session = appSession('owner', { openPage: false, resumeLastLaunch: true });

/** Holds the app's own script (not the early one) until `release` is called. */
async function holdAppScript(page: Page): Promise<() => Promise<void>> {
  const held: Route[] = [];
  let releasing = false;
  await page.route(/\/assets\/app-[^/]*\.js$/, (route) =>
    releasing ? route.continue() : void held.push(route),
  );
  return async () => {
    releasing = true;
    await Promise.all(held.map((route) => route.continue()));
  };
}

/** A new browser profile (its page is the session's), the app's script held. */
async function openHeld(): Promise<{ page: Page; release: () => Promise<void> }> {
  await session.closePage();
  const context = await session.browser.newContext({ viewport: { width: 1280, height: 860 } });
  await context.addInitScript("localStorage.setItem('tributary.welcomeDismissed', 'true')");
  const page = await context.newPage();
  session.page = page;
  const release = await holdAppScript(page);
  return { page, release };
}

describe('the first screen', () => {
  it('shows the last screen before the app, then the live list takes over', async () => {
    const { realm, app } = session;
    const owner = realmClient(realm, 'owner');
    const topic = 'first screen';
    const texts = ['a quince on the first screen', 'a medlar on the first screen'];
    // A realm picture for the copy to hold.
    const form = new FormData();
    const png = encodePng(64, 48, (x, y) => [(x * 4) % 255, (y * 5) % 255, 90, 255]);
    form.append('file', new Blob([new Uint8Array(png)], { type: 'image/png' }), 'pear.png');
    const uploaded = await owner.multipart('/user_uploads', form);
    expect(uploaded.status, uploaded.text).toBe(200);
    await owner.post('/messages', {
      type: 'stream',
      to: 'general',
      topic,
      content: `[pear.png](${uploaded.body.url as string})`,
    });
    for (const content of texts)
      await owner.post('/messages', { type: 'stream', to: 'general', topic, content });

    let page = await session.openPage();
    await openTopic(page, 'general', topic);
    await messageWithText(page, texts[1]!).waitFor();
    // The screen is kept once it settles; sealed: its words are not on disk in clear.
    const kept = firstScreenPath(app.dataDir, app.accountId);
    await expect.poll(() => existsSync(kept), { timeout: 20_000 }).toBe(true);
    expect(readFileSync(kept, 'utf8')).not.toContain('quince');

    await session.closePage();
    await app.stopHost();
    await app.startHost();
    const held = await openHeld();
    page = held.page;
    const asked: string[] = [];
    page.on('request', (request) => {
      if (request.url().includes('/first-screen?')) asked.push(request.url());
    });
    await page.goto(app.url, { waitUntil: 'commit' });
    const overlay = page.locator('#first-screen');
    await overlay.getByText(texts[0]!).waitFor();
    await overlay.getByText(texts[1]!).waitFor();
    // Its realm pictures are not asked for before the app's handshake sets the media cookie (in a
    // new profile none is cached): each would fail with a 401.
    expect(await overlay.locator('img').count()).toBeGreaterThan(0);
    await page.waitForFunction(() =>
      [...document.querySelectorAll<HTMLImageElement>('#first-screen img')].every(
        (i) => i.complete,
      ),
    );
    const refused = await page.evaluate(() =>
      performance
        .getEntriesByType('resource')
        .map((e) => e as PerformanceResourceTiming)
        // A cache-only look that misses is listed too, with status 0.
        .filter((e) => new URL(e.name).pathname.startsWith('/media/') && e.responseStatus >= 400)
        .map((e) => `${e.responseStatus} ${e.name}`),
    );
    expect(refused).toEqual([]);
    // Before the app: its script has not even arrived; the copy has no test ids.
    expect(await page.getByTestId('message').count()).toBe(0);
    expect(await overlay.getAttribute('aria-hidden')).toBe('true');
    expect(
      await page.evaluate(
        () => performance.getEntriesByName('tributary:first-screen-shown').length,
      ),
    ).toBe(1);
    // It came in the page: the early script asked for nothing, and took the launch's one-time
    // token out of the address bar (the bridge's secret stays in the fragment for the app).
    expect(asked).toEqual([]);
    expect(new URL(page.url()).search).toBe('');
    expect(new URL(page.url()).hash).toMatch(/^#secret=/);

    await held.release();
    await overlay.waitFor({ state: 'detached' });
    for (const text of texts) await expect.poll(() => messageWithText(page, text).count()).toBe(1);
    await expect.poll(() => page.getByText(texts[0]!).count()).toBe(1);
  });

  it('shows a realm picture the browser has kept, from its cache', async () => {
    const { app } = session;
    await session.closePage();
    const context = await session.browser.newContext({ viewport: { width: 1280, height: 860 } });
    await context.addInitScript("localStorage.setItem('tributary.welcomeDismissed', 'true')");
    let page = await context.newPage();
    session.page = page;
    await page.goto(app.url);
    await openTopic(page, 'general', 'first screen');
    const picture = page.locator('[data-testid="message"] img[src*="pear.png"]').first();
    await expect.poll(() => picture.evaluate((i: HTMLImageElement) => i.naturalWidth)).toBe(64);
    // Main keeps this screen (the picture loaded) before the page goes: a copy taken earlier, or a
    // save still in flight when the page closed, would leave the next launch another screen.
    const pictureShownAt = Date.now();
    const keptFile = firstScreenPath(app.dataDir, app.accountId);
    await expect
      .poll(() => existsSync(keptFile) && statSync(keptFile).mtimeMs >= pictureShownAt, {
        timeout: 20_000,
      })
      .toBe(true);
    await page.close();

    await app.stopHost();
    await app.startHost();
    page = await context.newPage();
    session.page = page;
    // The app's script held through CDP, not page.route: Playwright turns the HTTP cache off for a
    // page with routes, and this test is about that cache.
    const cdp = await context.newCDPSession(page);
    const held: string[] = [];
    let releasing = false;
    cdp.on('Fetch.requestPaused', ({ requestId }: { requestId: string }) => {
      if (releasing) void cdp.send('Fetch.continueRequest', { requestId });
      else held.push(requestId);
    });
    await cdp.send('Fetch.enable', { patterns: [{ urlPattern: '*/assets/app-*.js' }] });
    const release = async () => {
      releasing = true;
      await Promise.all(held.map((requestId) => cdp.send('Fetch.continueRequest', { requestId })));
    };
    await page.goto(app.url, { waitUntil: 'commit' });
    const kept = page.locator('#first-screen img').first();
    await kept.waitFor({ state: 'attached' });
    await expect
      .poll(
        () =>
          kept.evaluate((i: HTMLImageElement) => i.naturalWidth > 0 && i.style.visibility === ''),
        { timeout: 15_000 },
      )
      .toBe(true);
    expect(await page.getByTestId('message').count()).toBe(0);
    await release();
    await page.locator('#first-screen').waitFor({ state: 'detached' });
  });

  it('shows the screen from the host when the page does not carry it (a reload)', async () => {
    const { app } = session;
    // The last test's launch: its page token is used.
    const { page, release } = await openHeld();
    const answered = page.waitForResponse((response) => response.url().includes('/first-screen?'));
    await page.goto(app.url, { waitUntil: 'commit' });
    expect((await answered).status()).toBe(200);
    await page.locator('#first-screen').getByText('a medlar on the first screen').waitFor();
    expect(await page.getByTestId('message').count()).toBe(0);
    await release();
    await page.locator('#first-screen').waitFor({ state: 'detached' });
  });
  it('shows none for a launch that opens another view, with the screens in the page or asked for', async () => {
    const { app } = session;
    await session.closePage();
    await app.stopHost();
    await app.startHost();
    let { page, release } = await openHeld();
    const asked: string[] = [];
    const watch = (p: Page) =>
      p.on('request', (request) => {
        if (request.url().includes('/first-screen?')) asked.push(request.url());
      });
    watch(page);
    // The page carries the account's screens; none is for the Inbox.
    await page.goto(`${app.url}&view=inbox`, { waitUntil: 'commit' });
    await page.waitForFunction(() => document.readyState !== 'loading');
    expect(asked).toEqual([]);
    expect(await page.locator('#first-screen').count()).toBe(0);
    await release();
    await page.getByRole('region', { name: 'Inbox' }).waitFor();
    expect(await page.locator('#first-screen').count()).toBe(0);

    // The same address again: its token is used, so the page carries nothing and the early script
    // asks the host, which has nothing for Recent conversations either (the Inbox above may have
    // been kept by now).
    ({ page, release } = await openHeld());
    watch(page);
    const answered = page.waitForResponse((response) => response.url().includes('/first-screen?'));
    await page.goto(`${app.url}&view=recent`, { waitUntil: 'commit' });
    expect((await answered).status()).toBe(204);
    expect(await page.locator('#first-screen').count()).toBe(0);
    await release();
  });
});
