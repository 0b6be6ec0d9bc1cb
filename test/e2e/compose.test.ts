// Compose in Chromium as a person uses it: `@em` and Tab mentions Emma, `#gen` and Tab links
// #general (then Tab again for the channel itself, as in the public app), `:smi` and Tab an emoji;
// Preview shows the server's rendering of the mention and the emoji; Send delivers a message whose
// HTML (read by a second client over the API) has the mention; `?` shows the shortcut help.
import { mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { appSession, realmClient } from './support/app';
import { composeBox, messageWithText, openChannel, openTopic } from './support/ui';

const SHOTS = join(tmpdir(), 'tributary-e2e-screenshots');
mkdirSync(SHOTS, { recursive: true });

const session = appSession('owner');

describe('compose', () => {
  it('completes a mention, a channel and an emoji, previews, sends, and shows the help', async () => {
    const { page, realm } = session;
    await openTopic(page, 'general', 'compose typeahead');
    const box = await composeBox(page);
    await box.click();

    await page.keyboard.type('Hello @em');
    const people = page.getByRole('listbox', { name: 'People' });
    await people.getByRole('option', { name: 'Emma Member' }).waitFor();
    await page.screenshot({ path: join(SHOTS, 'compose-mention-list.png') });
    await page.keyboard.press('Tab');
    expect(await box.inputValue()).toBe('Hello @**Emma Member** ');

    await page.keyboard.type('see #gen');
    await page.getByRole('listbox', { name: 'Channels' }).getByRole('option').first().waitFor();
    await page.keyboard.press('Tab');
    expect(await box.inputValue()).toBe('Hello @**Emma Member** see #**general>');
    // The channel's topics follow, the channel itself first.
    const topics = page.getByRole('listbox', { name: 'Topics' });
    await topics.getByRole('option', { name: /link to channel/ }).waitFor();
    await page.screenshot({ path: join(SHOTS, 'compose-topic-list.png') });
    await page.keyboard.press('Tab');
    expect(await box.inputValue()).toBe('Hello @**Emma Member** see #**general** ');

    await page.keyboard.type(':smi');
    const emoji = page.getByRole('listbox', { name: 'Emoji' });
    const firstEmoji = emoji.getByRole('option').first();
    await firstEmoji.waitFor();
    // The option's text: the picture (its hidden name) and the name.
    const emojiName = (await firstEmoji.textContent())!.trim().split(/\s+/).at(-1)!;
    expect(emojiName).toMatch(/^:smi[a-z_]*:$/);
    await page.keyboard.press('Tab');
    const text = `Hello @**Emma Member** see #**general** ${emojiName} `;
    expect(await box.inputValue()).toBe(text);

    await page.getByRole('button', { name: 'Preview' }).click();
    const preview = page.getByRole('region', { name: 'Preview' });
    const mention = preview.locator('.user-mention');
    await mention.waitFor();
    expect(await mention.textContent()).toBe('@Emma Member');
    expect(await preview.locator('a.stream').textContent()).toBe('#general');
    const shown = preview.locator('span.emoji');
    expect(await shown.textContent()).toBe(emojiName);
    // A sprite cell from the bundled sheet, not the name as text.
    const box2 = await shown.boundingBox();
    expect(box2!.width).toBeGreaterThan(10);
    await page.screenshot({ path: join(SHOTS, 'compose-preview.png') });
    // Typing with the preview focused goes back to editing, and the key lands in the message.
    const area = (await preview.boundingBox())!;
    await preview.click({ position: { x: area.width - 20, y: area.height - 10 } });
    await page.keyboard.type('!');
    await expect.poll(() => preview.count()).toBe(0);
    expect(await box.inputValue()).toBe(`${text}!`);

    await page.getByRole('button', { name: 'Send', exact: true }).click();
    await messageWithText(page, 'Hello @Emma Member see #general').waitFor();
    const owner = realmClient(realm, 'owner');
    const emma = realm.user('emma');
    const res = await owner.get('/messages', {
      anchor: 'newest',
      num_before: 1,
      num_after: 0,
      narrow: JSON.stringify([{ operator: 'topic', operand: 'compose typeahead' }]),
    });
    const sent = res.body.messages.at(-1) as { content: string };
    expect(sent.content).toContain(
      `<span class="user-mention" data-user-id="${emma.user_id}">@Emma Member</span>`,
    );
    expect(sent.content).toContain('class="emoji');

    // `?` outside a text field opens the help; Esc closes it.
    await box.press('Escape');
    await page.keyboard.press('?');
    const help = page.getByRole('dialog', { name: 'Keyboard shortcuts' });
    await help.waitFor();
    await help.getByRole('region', { name: 'Composing messages' }).waitFor();
    await page.screenshot({ path: join(SHOTS, 'compose-shortcut-help.png') });
    await page.keyboard.press('Escape');
    await expect.poll(() => help.count()).toBe(0);
    await page.getByRole('heading', { name: '#general > compose typeahead' }).waitFor();
  });

  it('opens on a clicked message to reply in its conversation, not when text is selected', async () => {
    const { page, realm } = session;
    const sent = await realmClient(realm, 'emma').post('/messages', {
      type: 'stream',
      to: 'general',
      topic: 'click to reply',
      content: 'Click anywhere on this line to answer it',
    });
    expect(sent.status).toBe(200);
    await openChannel(page, 'general');
    // The newest message, at the end of the channel's feed.
    await page.getByRole('list', { name: 'Messages' }).focus();
    await page.keyboard.press('End');
    const text = messageWithText(page, 'Click anywhere on this line').locator('.content p');
    await text.waitFor();
    const box = page.getByRole('textbox', { name: 'Message' });
    await page.getByTestId('compose-reply').waitFor();

    // Selecting words to copy them ends with a click: no reply.
    const area = (await text.boundingBox())!;
    await page.mouse.move(area.x + 2, area.y + area.height / 2);
    await page.mouse.down();
    await page.mouse.move(area.x + area.width - 2, area.y + area.height / 2, { steps: 5 });
    await page.mouse.up();
    expect(await page.evaluate(() => getSelection()?.toString() ?? '')).toContain('Click');
    expect(await box.count()).toBe(0);

    // (A click inside the selected words keeps them selected until after the click: cleared first.)
    await page.evaluate(() => getSelection()?.removeAllRanges());
    // A plain click: compose opens on the message's topic, and the view stays the channel's.
    await text.click();
    await box.waitFor();
    expect(await page.getByRole('combobox', { name: 'Topic' }).inputValue()).toBe('click to reply');
    await page.getByRole('heading', { name: '#general', exact: true }).waitFor();
    await expect.poll(() => box.evaluate((el) => el === document.activeElement)).toBe(true);
    // Empty, Esc closes it again.
    await page.keyboard.press('Escape');
    await expect.poll(() => box.count()).toBe(0);
  });
});
