// Images in messages as a person meets them, in Chromium against browser mode and the real realm:
// upload two pictures and send them, see their server thumbnails, open the
// viewer, step through, zoom, close with Esc and land back on the picture; a picture from another
// host that loads only when clicked; an uploaded video playing through the media route and one from
// another host behind its placeholder.
//
// "Another host" is a second HTTP server on 127.0.0.1 with its own port: the app loads through its
// media route only realm paths and URLs of the account's own origin (scheme, host AND port), so an
// image at http://127.0.0.1:<other port>/ is foreign to it exactly as one on another machine is.
import { createServer, type Server } from 'node:http';
import { mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Locator, Page } from 'playwright-core';
import {
  launchChromium,
  openApp,
  pageErrors,
  startApp,
  startRealm,
  type App,
  type Realm,
} from './support/app';
import { composeBox, messageWithText, openTopic, send } from './support/ui';
import { ApiClient } from '../support/client';
import { encodePng } from '../../server/seed/png';

/** Screenshots of what a person sees at each step, for looking at (not compared). */
const SHOTS = join(tmpdir(), 'tributary-e2e-screenshots');

let realm: Realm;
let app: App;
let browser: Browser;
let page: Page;
let otherHost: Server;
let otherUrl: string;
const otherRequests: string[] = [];

const sunrise = encodePng(1200, 800, (x, y) => [
  255,
  120 + Math.floor((y / 800) * 100),
  x % 60,
  255,
]);
const harbour = encodePng(900, 1200, (x, y) => [
  20,
  60 + Math.floor((x / 900) * 120),
  160 + (y % 80),
  255,
]);
/** A short webm made in the page (MediaRecorder over a canvas) by the video test. */
let clip = Buffer.alloc(0);
const cat = encodePng(64, 48, (x, y) => [(x * 4) % 255, (y * 5) % 255, 90, 255]);

beforeAll(async () => {
  mkdirSync(SHOTS, { recursive: true });
  otherHost = createServer((req, res) => {
    otherRequests.push(req.url ?? '');
    const [type, body] = req.url === '/clip.webm' ? ['video/webm', clip] : ['image/png', cat];
    res.writeHead(200, { 'content-type': type, 'content-length': body.length });
    res.end(body);
  });
  await new Promise<void>((resolve) => otherHost.listen(0, '127.0.0.1', resolve));
  const address = otherHost.address();
  otherUrl = `http://127.0.0.1:${typeof address === 'object' && address?.port}`;
  realm = await startRealm();
  app = await startApp(realm, 'owner');
  browser = await launchChromium();
  page = await openApp(browser, app);
});

afterAll(async () => {
  await browser?.close();
  await app?.close();
  await realm?.close();
  await new Promise((resolve) => otherHost?.close(resolve));
});

const naturalWidth = (image: Locator) =>
  image.evaluate((el) => (el as unknown as { naturalWidth: number }).naturalWidth);
const focusedLinkTitle = () =>
  page.evaluate(() => {
    const doc = (globalThis as unknown as { document: { activeElement: unknown } }).document;
    const active = doc.activeElement as {
      tagName: string;
      getAttribute(name: string): string | null;
    } | null;
    return active?.tagName === 'A' ? active.getAttribute('title') : null;
  });

function apiClient(key: string): ApiClient {
  const user = realm.user(key);
  return new ApiClient(() => realm.url, { email: user.email, apiKey: user.api_key });
}

describe('images in messages', () => {
  it('uploads and sends pictures, shows their thumbnails, and opens them in the viewer', async () => {
    await openTopic(page, 'general', 'e2e images');
    const compose = await composeBox(page);
    for (const [name, buffer] of [
      ['sunrise.png', sunrise],
      ['harbour.png', harbour],
    ] as const) {
      await page.locator('input[type=file]').setInputFiles({ name, mimeType: 'image/png', buffer });
      await expect
        .poll(() => compose.inputValue(), { timeout: 30_000 })
        .toContain(`[${name}](/user_uploads/`);
    }
    // The compose box's plain links: the server previews each uploaded picture as its thumbnail.
    await send(page, await compose.inputValue());
    const thumbnails = messageWithText(page, 'sunrise.png').locator('.message_inline_image img');
    await expect.poll(() => thumbnails.count(), { timeout: 15_000 }).toBe(2);
    const [first, second] = await thumbnails.all();
    expect(await first.getAttribute('src')).toMatch(
      /^\/media\/[^/]+\/user_uploads\/thumbnail\/.*\/sunrise\.png\/840x560\.webp$/,
    );
    // The webp thumbnails: 840x560 for the landscape picture, 420x560 for the portrait one.
    await expect.poll(() => naturalWidth(first), { timeout: 15_000 }).toBe(840);
    await expect.poll(() => naturalWidth(second), { timeout: 15_000 }).toBe(420);
    // Shown 10em tall, as wide as their shape makes them (the box was reserved before loading).
    const box = await first.boundingBox();
    const fontSize = await first.evaluate((el) =>
      Number.parseFloat(
        (
          globalThis as unknown as { getComputedStyle(e: unknown): { fontSize: string } }
        ).getComputedStyle(el).fontSize,
      ),
    );
    expect(box!.height).toBeCloseTo(10 * fontSize, 0);
    expect(box!.width).toBeCloseTo(15 * fontSize, 0);
    await page.screenshot({ path: join(SHOTS, 'images-thumbnails.png') });

    // The viewer: the original, the sender and the place among the conversation's pictures.
    await first.click();
    const viewer = page.getByRole('dialog', { name: 'Image viewer: sunrise.png' });
    await viewer.waitFor();
    const original = viewer.getByRole('img', { name: 'sunrise.png' });
    await expect.poll(() => naturalWidth(original), { timeout: 15_000 }).toBe(1200);
    await viewer.getByText('Olivia Owner').waitFor();
    await viewer.getByText('1 of 2').waitFor();
    await page.screenshot({ path: join(SHOTS, 'images-viewer.png') });
    await viewer.getByRole('button', { name: 'Next image' }).click();
    await page.getByRole('dialog', { name: 'Image viewer: harbour.png' }).waitFor();
    await page.keyboard.press('ArrowLeft');
    await viewer.waitFor();
    await page.keyboard.press('+');
    await viewer.getByText('125%').waitFor();
    await page.keyboard.press('Escape');
    await viewer.waitFor({ state: 'detached' });
    expect(await focusedLinkTitle()).toBe('sunrise.png');
  });

  it('loads a picture from another host only when it is clicked', async () => {
    const client = apiClient('emma');
    const url = `${otherUrl}/cat.png`;
    const sent = await client.post('/messages', {
      type: 'stream',
      to: 'general',
      topic: 'e2e remote',
      content: `A cat: [cat.png](${url})`,
    });
    expect(sent.status, sent.text).toBe(200);
    // The server previews an image link from another host (no camo proxy here) with its own URL.
    await openTopic(page, 'general', 'e2e remote');
    const host = new URL(otherUrl).host;
    const placeholder = page.getByRole('link', { name: `Image from ${host}: click to load` });
    await placeholder.waitFor();
    const label = await placeholder.evaluate(
      (el) =>
        (
          globalThis as unknown as {
            getComputedStyle(e: unknown, pseudo: string): { content: string };
          }
        ).getComputedStyle(el, '::after').content,
    );
    expect(label).toBe(`"Image from ${host}: click to load"`);
    expect(otherRequests).toEqual([]);
    await page.screenshot({ path: join(SHOTS, 'images-remote-placeholder.png') });

    await placeholder.click();
    const image = messageWithText(page, 'A cat').locator('.message_inline_image img');
    await expect.poll(() => naturalWidth(image), { timeout: 15_000 }).toBe(64);
    expect(await image.getAttribute('src')).toMatch(/^blob:/);
    // Fetched once, by main (the page's own policy would have refused it).
    expect(otherRequests).toEqual(['/cat.png']);
    await page.screenshot({ path: join(SHOTS, 'images-remote-loaded.png') });
    // Once loaded, it opens in the viewer like any other, from the bytes already fetched.
    await image.click();
    const viewer = page.getByRole('dialog', { name: 'Image viewer: cat.png' });
    await expect
      .poll(() => naturalWidth(viewer.getByRole('img', { name: 'cat.png' })), { timeout: 15_000 })
      .toBe(64);
    await page.keyboard.press('Escape');
    await viewer.waitFor({ state: 'detached' });
    expect(otherRequests).toEqual(['/cat.png']);
  });

  it('plays an uploaded video through the media route, and one from another host on request', async () => {
    // Recorded in the page: 160x90, under a second.
    clip = Buffer.from(
      await page.evaluate<string>(`(async () => {
        const canvas = document.createElement('canvas');
        canvas.width = 160;
        canvas.height = 90;
        const context = canvas.getContext('2d');
        const recorder = new MediaRecorder(canvas.captureStream(25), { mimeType: 'video/webm' });
        const chunks = [];
        recorder.ondataavailable = (e) => chunks.push(e.data);
        const stopped = new Promise((resolve) => (recorder.onstop = resolve));
        let frame = 0;
        const paint = () => {
          context.fillStyle = 'hsl(' + frame++ * 30 + ', 80%, 50%)';
          context.fillRect(0, 0, 160, 90);
        };
        paint();
        const timer = setInterval(paint, 40);
        recorder.start();
        await new Promise((resolve) => setTimeout(resolve, 700));
        recorder.stop();
        await stopped;
        clearInterval(timer);
        const bytes = new Uint8Array(await new Blob(chunks).arrayBuffer());
        let text = '';
        for (const byte of bytes) text += String.fromCharCode(byte);
        return btoa(text);
      })()`),
      'base64',
    );
    expect(clip.length).toBeGreaterThan(100);
    const owner = apiClient('owner');
    const form = new FormData();
    form.append('file', new Blob([new Uint8Array(clip)], { type: 'video/webm' }), 'clip.webm');
    const uploaded = await owner.multipart('/user_uploads', form);
    expect(uploaded.status, uploaded.text).toBe(200);
    const href = uploaded.body.url as string;
    const remote = `${otherUrl}/clip.webm`;
    const sent = await owner.post('/messages', {
      type: 'stream',
      to: 'general',
      topic: 'e2e videos',
      content: `Two clips: [clip.webm](${href}) [theirs](${remote})`,
    });
    expect(sent.status, sent.text).toBe(200);
    otherRequests.length = 0;
    await openTopic(page, 'general', 'e2e videos');
    const videos = messageWithText(page, 'Two clips').locator('video');
    await expect.poll(() => videos.count(), { timeout: 15_000 }).toBe(2);
    const [own, theirs] = await videos.all();
    expect(await own.getAttribute('src')).toMatch(/^\/media\/[^/]+\/user_uploads\//);
    expect(await own.getAttribute('preload')).toBe('metadata');
    const videoWidth = (locator: Locator) =>
      locator.evaluate((el) => (el as unknown as { videoWidth: number }).videoWidth);
    await expect.poll(() => videoWidth(own), { timeout: 15_000 }).toBe(160);
    // Its own controls play it; its link goes nowhere.
    const url = page.url();
    // The play button of Chromium's controls, at the left of a video this small.
    await own.click({ position: { x: 24, y: 41 } });
    await expect
      .poll(
        () => own.evaluate((el) => (el as unknown as { played: { length: number } }).played.length),
        { timeout: 10_000 },
      )
      .toBeGreaterThan(0);
    expect(page.url()).toBe(url);
    expect(page.context().pages()).toHaveLength(1);

    const host = new URL(otherUrl).host;
    const placeholder = page.getByRole('link', { name: `Video from ${host}: click to load` });
    await placeholder.waitFor();
    expect(otherRequests).toEqual([]);
    await page.screenshot({ path: join(SHOTS, 'videos.png') });
    await placeholder.click();
    await expect.poll(() => videoWidth(theirs), { timeout: 15_000 }).toBe(160);
    expect(await theirs.getAttribute('src')).toMatch(/^blob:/);
    expect(otherRequests).toEqual(['/clip.webm']);
    await page.screenshot({ path: join(SHOTS, 'videos-loaded.png') });
    expect(pageErrors).toEqual([]);
  });
});
