// Message content in Chromium as a person sees it: emoji pictures instead of `:name:`, math typeset
// with the MathML copy hidden, a spoiler closed until clicked, code coloured by token, a global
// time in the reader's zone and format, and a mention of the reader highlighted. Screenshots of
// the conversation in the light and dark themes are left in test-results/.
//
// Every message is rendered by the local realm server from the sender's Markdown (the inputs of the
// public server's own test cases, ../shared/fixtures/zulip-markdown, which the server renders exactly
// as the public server does: test/server/markdown-conformance.test.ts), except one: a message
// captured from a public server at feature level 372 (emoji, bold, inline math, a mention), stored
// as that server rendered it, to show that its HTML, as it arrives from a real deployment, renders
// the same way.
import { mkdirSync, readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Locator, Page } from 'playwright-core';
import { launchChromium, openApp, pageErrors, startApp, startRealm } from './support/app';
import type { App, Realm } from './support/app';
import { messageWithText, openTopic } from './support/ui';
import { ApiClient } from '../support/client';

const cases = (
  JSON.parse(
    readFileSync('../shared/fixtures/zulip-markdown/markdown_test_cases.json', 'utf8'),
  ) as { regular_tests: { name: string; input: string }[] }
).regular_tests;
const serverInput = (name: string) => cases.find((c) => c.name === name)!.input;
/** A message captured from a public server (feature level 372): emoji, bold, inline math, a mention. */
const capturedHtml = (
  JSON.parse(readFileSync('../shared/fixtures/zulip-server/events-fl372.json', 'utf8')) as {
    events: { type: string; message?: { id: number; content: string } }[];
  }
).events.find((e) => e.type === 'message' && e.message?.id === 122)!.message!.content;

// What the code passed to page.evaluate uses of the page (the e2e tests compile without DOM types).
interface PageElement {
  className: string;
  append(child: PageElement): void;
  remove(): void;
}
declare const document: {
  fonts: Iterable<{ family: string; status: string }> & { ready: Promise<unknown> };
  createElement(tag: string): PageElement;
  body: PageElement;
  documentElement: { dataset: Record<string, string | undefined> };
};
declare function getComputedStyle(element: PageElement): {
  getPropertyValue(property: string): string;
  backgroundColor: string;
};
declare const navigator: { clipboard: { readText(): Promise<string> } };

const TOPIC = 'rich content';
const SCREENSHOTS = 'test-results';

let realm: Realm;
let app: App;
let browser: Browser;
let page: Page;

/**
 * Sends as Emma to #general > rich content; with `publicHtml` (a message captured from a public
 * server), stores that as its rendering.
 */
async function sendAsEmma(content: string, publicHtml?: string): Promise<number> {
  const emma = realm.user('emma');
  const client = new ApiClient(() => realm.url, { email: emma.email, apiKey: emma.api_key });
  const sent = await client.post('/messages', {
    type: 'stream',
    to: 'general',
    topic: TOPIC,
    content,
  });
  expect(sent.status).toBe(200);
  const id = sent.body.id as number;
  if (publicHtml !== undefined) {
    realm.server.db
      .prepare('UPDATE messages SET rendered_content = ? WHERE id = ?')
      .run(publicHtml, id);
    const stored = await client.get(`/messages/${id}`);
    expect((stored.body.message as { content: string }).content).toBe(publicHtml);
  }
  return id;
}

/** A computed style property of the first element matching `selector` inside `scope`. */
function styleOf(scope: Locator, selector: string, property: string): Promise<string> {
  return scope
    .locator(selector)
    .first()
    .evaluate(
      (el, p) => getComputedStyle(el as unknown as PageElement).getPropertyValue(p),
      property,
    );
}

beforeAll(async () => {
  realm = await startRealm();
  await sendAsEmma(':smile: :heart: hello @**Olivia Owner**');
  await sendAsEmma(serverInput('tex_fenced_math'));
  await sendAsEmma(serverInput('spoilers_fenced_spoiler'));
  await sendAsEmma(serverInput('codeblock_hilite_python'));
  await sendAsEmma('```\nplain code from the local server\n```');
  await sendAsEmma(serverInput('timestamp_backend_markdown_only'));
  await sendAsEmma('A message with :smile:, **bold**, $$x^2$$ and @**King Hamlet**', capturedHtml);
  app = await startApp(realm, 'owner');
  browser = await launchChromium();
  // The reader is in New York, reading in US English; the copy button may write the clipboard.
  page = await openApp(browser, app, {
    timezoneId: 'America/New_York',
    locale: 'en-US',
    colorScheme: 'light',
    permissions: ['clipboard-read', 'clipboard-write'],
  });
  await openTopic(page, 'general', TOPIC);
  await page.locator('.content .katex').first().waitFor();
});

afterAll(async () => {
  await browser?.close();
  await app?.close();
  await realm?.close();
});

describe('rich message content in Chromium', () => {
  it('shows emoji as pictures from the bundled sheet, never as :name: text', async () => {
    const message = messageWithText(page, 'hello');
    const smile = message.locator('.content span.emoji').first();
    await expect(smile.getAttribute('class')).resolves.toMatch(/^emoji emoji-[0-9a-f]+$/);
    // The sheet's positions load after the first render (lib/emoji-sheet.ts); then it is drawn.
    await expect
      .poll(() => styleOf(message, '.content span.emoji', 'background-image'))
      .toMatch(/^url\(".*\/assets\/32-[^"]+\.png"\)$/);
    const image = await styleOf(message, '.content span.emoji', 'background-image');
    // The name is there for copying, but not to be seen: transparent, outside the emoji's box.
    expect(await styleOf(message, '.content span.emoji', 'color')).toBe('rgba(0, 0, 0, 0)');
    const box = (await smile.boundingBox())!;
    expect(box.width).toBeGreaterThan(10);
    expect(box.width).toBeLessThan(30);
    // The text is pushed out of the emoji's box and clipped there.
    const indent = await styleOf(message, '.content span.emoji', 'text-indent');
    expect(parseFloat(indent)).toBeGreaterThanOrEqual(box.width);
    expect(await styleOf(message, '.content span.emoji', 'overflow-x')).toBe('hidden');
    expect(await styleOf(message, '.content span.emoji', 'background-position')).not.toBe('0% 0%');
    // The sheet is the app's own file, served from its bundle (no network fetch elsewhere).
    const status = await page.evaluate(
      (url) => fetch(url).then((r) => `${r.status} ${r.headers.get('content-type')}`),
      image.slice(5, -2),
    );
    expect(status).toBe('200 image/png');
  });

  it('follows the emojiset setting: twitter pictures, or the :name: as text', async () => {
    const owner = realm.user('owner');
    const client = new ApiClient(() => realm.url, { email: owner.email, apiKey: owner.api_key });
    const message = messageWithText(page, 'hello');
    const google = await styleOf(message, '.content span.emoji', 'background-image');
    expect((await client.patch('/settings', { emojiset: 'twitter' })).status).toBe(200);
    await expect
      .poll(() => styleOf(message, '.content span.emoji', 'background-image'))
      .not.toBe(google);
    expect((await client.patch('/settings', { emojiset: 'text' })).status).toBe(200);
    await expect
      .poll(() => styleOf(message, '.content span.emoji', 'background-image'))
      .toBe('none');
    const smile = message.locator('.content span.emoji').first();
    expect(await styleOf(message, '.content span.emoji', 'color')).not.toBe('rgba(0, 0, 0, 0)');
    expect(await smile.innerText()).toMatch(/^:[a-z_]+:$/);
    await message.screenshot({ path: `${SCREENSHOTS}/rich-content-emojiset-text.png` });
    expect((await client.patch('/settings', { emojiset: 'google' })).status).toBe(200);
    await expect
      .poll(() => styleOf(message, '.content span.emoji', 'background-image'))
      .toBe(google);
  });

  it("reacts from the picker (the public server's names) and shows the reaction's picture", async () => {
    const message = messageWithText(page, 'hello');
    await message.hover();
    await message.getByRole('button', { name: 'Add reaction' }).click();
    const picker = page.getByRole('dialog', { name: 'Emoji picker' });
    // Every category's first emoji is a picture, not a glyph left to the system's fonts.
    const tab = picker.getByRole('toolbar', { name: 'Emoji categories' }).locator('span.emoji');
    await tab.first().waitFor();
    expect(await tab.count()).toBe(10);
    await picker.screenshot({ path: `${SCREENSHOTS}/rich-content-picker.png` });
    await picker.getByRole('searchbox', { name: 'Search emoji' }).fill('thumbs_up');
    await picker.getByRole('button', { name: '+1', exact: true }).click();
    const chip = message.getByRole('button', { name: /^\+1: 1/ });
    await chip.waitFor();
    expect(await chip.locator('span.emoji').getAttribute('class')).toBe('emoji emoji-1f44d');
    expect(await styleOf(chip, 'span.emoji', 'background-image')).toMatch(/\.png"\)$/);
  });

  it('typesets math with KaTeX fonts, its MathML copy hidden but kept for screen readers', async () => {
    const message = page
      .getByTestId('message')
      .filter({ has: page.locator('.katex') })
      .first();
    const math = message.locator('.katex').first();
    const mathml = math.locator('.katex-mathml');
    expect(await mathml.count()).toBe(1);
    const hidden = (await mathml.boundingBox())!;
    expect(hidden.width * hidden.height).toBeLessThanOrEqual(1);
    expect(await math.locator('.katex-html').isVisible()).toBe(true);
    // KaTeX's fonts are loaded from the bundle and used.
    const fonts = await page.evaluate(async () => {
      await document.fonts.ready;
      return [...document.fonts].filter((f) => f.family.includes('KaTeX') && f.status === 'loaded')
        .length;
    });
    expect(fonts).toBeGreaterThan(0);
    expect(await styleOf(message, '.katex .mathnormal', 'font-family')).toMatch(/KaTeX_Math/);
    // Inline math in a sentence (the captured message) sits on the text's line, its copy hidden.
    const inline = messageWithText(page, 'A message with').locator('.katex');
    expect(
      await inline
        .locator('.katex-mathml')
        .evaluate((el) =>
          getComputedStyle(el as unknown as PageElement).getPropertyValue('position'),
        ),
    ).toBe('absolute');
    const line = (await messageWithText(page, 'A message with')
      .locator('.content p')
      .boundingBox())!;
    const formula = (await inline.locator('.katex-html').boundingBox())!;
    expect(formula.height).toBeLessThan(line.height * 1.5);
  });

  it('keeps a spoiler closed until its header is clicked, and opens it by keyboard too', async () => {
    const block = page.locator('.spoiler-block').first();
    const header = block.locator('.spoiler-header');
    const hidden = block.locator('.spoiler-content');
    expect(await header.innerText()).toBe('header');
    expect(await hidden.isVisible()).toBe(false);
    await header.click();
    expect(await hidden.isVisible()).toBe(true);
    expect(await hidden.innerText()).toBe('content');
    expect(await header.getAttribute('aria-expanded')).toBe('true');
    await header.click();
    expect(await hidden.isVisible()).toBe(false);
    await header.focus();
    await page.keyboard.press('Enter');
    expect(await hidden.isVisible()).toBe(true);
    await page.keyboard.press(' ');
    expect(await hidden.isVisible()).toBe(false);
  });

  it('colours code by token, shows the language, and copies a block', async () => {
    const block = page.locator('.codehilite[data-code-language="Python"]');
    const plain = await styleOf(block, 'code', 'color');
    const keyword = await styleOf(block, '.k', 'color');
    const fn = await styleOf(block, '.nf', 'color');
    const number = await styleOf(block, '.mi', 'color');
    expect(new Set([plain, keyword, fn, number]).size).toBe(4);
    expect(await block.locator('.code-language').innerText()).toBe('Python');
    // The local server's own (unhighlighted) block gets the copy button too.
    const local = page
      .locator('.codehilite')
      .filter({ hasText: 'plain code from the local server' });
    await local.hover();
    await local.getByRole('button', { name: 'Copy code' }).click();
    await expect
      .poll(() => page.evaluate(() => navigator.clipboard.readText()))
      .toBe('plain code from the local server\n');
  });

  it("shows a global time in the reader's zone and format, the full date on hover", async () => {
    const time = page.locator('.content time').first();
    // 22:30 UTC is 6:30 PM in New York (summer time).
    // (Chromium's Intl writes a narrow no-break space before PM.)
    expect((await time.innerText()).replace(/\u202f/g, ' ')).toBe('Mon, Jun 5, 2017, 6:30 PM');
    expect(await time.getAttribute('title')).toMatch(/June 5, 2017.*6:30:00\sPM/);
  });

  it('highlights a mention of the reader and marks its message', async () => {
    const message = messageWithText(page, 'hello');
    await expect(message.getAttribute('class')).resolves.toContain('mentioned');
    const mention = await styleOf(message, '.user-mention', 'background-color');
    expect(mention).not.toBe('rgba(0, 0, 0, 0)');
    // Not the plain chip every mention gets: the reader's own colour.
    const plainChip = await page.evaluate(() => {
      const span = document.createElement('span');
      span.className = 'user-mention';
      const content = document.createElement('div');
      content.className = 'content';
      content.append(span);
      document.body.append(content);
      const color = getComputedStyle(span).backgroundColor;
      content.remove();
      return color;
    });
    expect(mention).not.toBe(plainChip);
  });

  it('looks right in the light and the dark theme (screenshots)', async () => {
    mkdirSync(SCREENSHOTS, { recursive: true });
    const list = page.locator('.message-list');
    await page.locator('.spoiler-header').first().click();
    await list.screenshot({ path: `${SCREENSHOTS}/rich-content-light.png` });
    await messageWithText(page, 'hello').screenshot({
      path: `${SCREENSHOTS}/rich-content-emoji.png`,
    });
    const lightKeyword = await styleOf(page.locator('.codehilite').first(), '.k', 'color');
    await page.emulateMedia({ colorScheme: 'dark' });
    await expect
      .poll(() => page.evaluate(() => document.documentElement.dataset.theme))
      .toBe('dark');
    const block = page.locator('.codehilite[data-code-language="Python"]');
    const darkKeyword = await styleOf(block, '.k', 'color');
    expect(darkKeyword).not.toBe(lightKeyword);
    expect(darkKeyword).not.toBe(await styleOf(block, 'code', 'color'));
    await list.screenshot({ path: `${SCREENSHOTS}/rich-content-dark.png` });
    expect(pageErrors).toEqual([]);
  });
});
