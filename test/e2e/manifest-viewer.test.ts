// The manifest viewer end to end in browser mode: the real host (main-process services, the built
// renderer, the WebSocket bridge and the audio route) in Debian's Chromium. A manifest is handed over
// as a launch request, exactly as `npm start -- path/to/manifest.json` does.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium, type Browser, type Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { FileVault } from '../../electron/accounts/vault';
import { startBrowserHost, type BrowserHost } from '../../electron/host/host';
import { buildAll } from '../../scripts/build';
import { CHROMIUM, CHROMIUM_ARGS } from './support/app';
import { FIXTURES } from '../manifest/support/fixtures';

const root = fileURLToPath(new URL('../..', import.meta.url));
const WEEKLY = join(FIXTURES, 'weekly-planning', 'manifest.json');
const REENCODED = join(FIXTURES, 'weekly-planning-reencoded', 'manifest.json');
const WEEKLY_AUDIO = join(FIXTURES, 'weekly-planning', 'recording.opus');

describe('meeting manifest viewer in browser mode', () => {
  let dataDir: string;
  let host: BrowserHost;
  let browser: Browser;
  let page: Page | null = null;

  beforeAll(async () => {
    await buildAll();
    dataDir = mkdtempSync(join(tmpdir(), 'tributary-e2e-manifest-'));
    host = await startBrowserHost({
      dataDir,
      vault: new FileVault(dataDir),
      rendererDir: join(root, 'dist/renderer'),
    });
    browser = await chromium.launch({
      executablePath: CHROMIUM,
      args: [...CHROMIUM_ARGS, '--autoplay-policy=no-user-gesture-required'],
    });
  });

  afterEach(async () => {
    await page?.context().close();
    page = null;
  });

  afterAll(async () => {
    await browser?.close();
    await host?.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  /** Opens the app with a manifest waiting as a launch request (the command-line path). */
  async function openWithManifest(path: string, audioStatuses: number[] = []): Promise<Page> {
    host.services.requestOpenManifest(path);
    const context = await browser.newContext();
    page = await context.newPage();
    page.on('pageerror', (error) => console.error('page error:', error.message));
    page.on('response', (response) => {
      if (response.url().includes('/media/meeting-audio/')) audioStatuses.push(response.status());
    });
    await page.goto(host.url);
    await page.getByRole('heading', { name: 'Weekly planning' }).waitFor();
    return page;
  }

  // The node project has no DOM types: the page is reached through locators only.
  const ACTIVE_CUE = '.manifest-cue[aria-current="true"]';
  const activeCueText = async (p: Page) => (await p.locator(ACTIVE_CUE).textContent()) ?? '';
  const waitForActiveCue = (p: Page, hasText: string, timeout: number) =>
    p.locator(ACTIVE_CUE, { hasText }).waitFor({ timeout });

  it('opens weekly-planning verified, plays it, and the highlighted cue advances', async () => {
    const audioResponses: number[] = [];
    const p = await openWithManifest(WEEKLY, audioResponses);
    await expect(p.getByTestId('integrity-summary').textContent()).resolves.toMatch(/^Verified/);
    expect(await p.getByTestId('playback-refused').count()).toBe(0);

    const audio = p.getByTestId('manifest-audio');
    await audio.waitFor();
    await audio.evaluate((element: unknown) => (element as { play(): Promise<void> }).play());

    // The human-corrected transcript is shown; its first cue (0.5 s) lights up, then the second (5.8 s).
    await waitForActiveCue(p, 'Welcome to the weekly planning meeting', 15_000);
    expect(await activeCueText(p)).toContain('Ana');
    await waitForActiveCue(p, 'desktop client', 20_000);
    expect(await activeCueText(p)).toContain('Ben');
    const playedMs = await audio.evaluate(
      (element: unknown) => (element as { currentTime: number }).currentTime * 1000,
    );
    expect(playedMs).toBeGreaterThanOrEqual(5797);

    // Clicking a cue seeks the audio there; the audio is fetched with byte ranges.
    await p.locator('.manifest-cue').nth(3).click();
    await waitForActiveCue(p, 'settings screens', 10_000);
    expect(audioResponses.length).toBeGreaterThan(0);
    expect(audioResponses.every((status) => status === 206 || status === 200)).toBe(true);
    expect(audioResponses).toContain(206);
  });

  it('opens weekly-planning-reencoded and refuses playback: opusAudioSha256 differs', async () => {
    const p = await openWithManifest(REENCODED);
    const summary = await p.getByTestId('integrity-summary').textContent();
    expect(summary).toContain('The audio does not match this manifest: opusAudioSha256 differs.');
    const refused = await p.getByTestId('playback-refused').textContent();
    expect(refused).toContain('Playback is available only for verified audio');
    expect(refused).toContain('opusAudioSha256 differs');
    expect(await p.locator('audio').count()).toBe(0);
    // Cues are shown but are not seek points.
    expect(await p.locator('.manifest-cue').count()).toBe(4);
    expect(
      await p
        .getByRole('button', { name: /Play from/ })
        .first()
        .isDisabled(),
    ).toBe(true);
  });

  it('re-checks the re-encoded manifest against a dropped recording: the original verifies', async () => {
    const p = await openWithManifest(REENCODED);
    await p.getByTestId('playback-refused').waitFor();
    // A real drop carries a File; the page streams it to main over the bridge (browser mode).
    const base64 = readFileSync(WEEKLY_AUDIO).toString('base64');
    await p.evaluate(`(() => {
      const raw = atob(${JSON.stringify(base64)});
      const bytes = new Uint8Array(raw.length);
      for (let i = 0; i < raw.length; i++) bytes[i] = raw.charCodeAt(i);
      const data = new DataTransfer();
      data.items.add(new File([bytes], 'recording.opus', { type: 'audio/ogg' }));
      document.querySelector('.manifest-viewer').dispatchEvent(
        new DragEvent('drop', { dataTransfer: data, bubbles: true, cancelable: true }),
      );
    })()`);
    await p.getByTestId('manifest-audio').waitFor({ timeout: 15_000 });
    expect(await p.getByTestId('integrity-summary').textContent()).toMatch(/^Verified/);
    expect(await p.getByTestId('playback-refused').count()).toBe(0);
  });
});
