import { it } from 'vitest';
import type { Page } from 'playwright-core';
import { startRealm, startApp, launchChromium, openApp, realmClient } from './support/app';
import { openTopic, messageWithText } from './support/ui';

const D = '/tmp/shots';
it('shots', async () => {
  const realm = await startRealm();
  const app = await startApp(realm, 'owner');
  const browser = await launchChromium();
  const emma = realmClient(realm, 'emma');
  const gen = (await emma.get('/get_stream_id', { stream: 'general' })).body.stream_id as number;
  const owner = realm.user('owner');
  const msgs = [
    'Good morning :smile: :heart: everyone',
    'Inline math: $$x^2 + y^2 = z^2$$ works',
    '```python\ndef hello(name):\n    return f"Hello {name}"  # a fairly long comment line to see whether the code block scrolls or wraps properly\n```',
    '```spoiler The ending\nThe butler did it.\n```',
    '/poll Lunch?\nPizza\nSushi',
    'Meeting at <time:2026-11-25T10:00:00Z> in the big room',
    `Hey @**${owner.full_name}** can you review this?`,
    'Last message in the row for reference',
  ];
  for (const content of msgs)
    await emma.post('/messages', { type: 'stream', to: gen, topic: 'shots', content });
  const ownerClient = realmClient(realm, 'owner');
  const sch = await ownerClient.post('/scheduled_messages', {
    type: 'stream', to: gen, topic: 'shots', content: 'A scheduled reminder for **tomorrow** :smile:',
    scheduled_delivery_timestamp: Math.floor(Date.now() / 1000) + 86400,
  });
  console.log('scheduled', JSON.stringify(sch.body));

  const configs = [
    { tag: 'light-1400', viewport: { width: 1400, height: 900 }, colorScheme: 'light' as const },
    { tag: 'dark-1400', viewport: { width: 1400, height: 900 }, colorScheme: 'dark' as const },
    { tag: 'light-800', viewport: { width: 800, height: 700 }, colorScheme: 'light' as const },
    { tag: 'dark-800', viewport: { width: 800, height: 700 }, colorScheme: 'dark' as const },
  ];
  for (const c of configs) {
    const page: Page = await openApp(browser, app, { viewport: c.viewport, colorScheme: c.colorScheme });
    page.setDefaultTimeout(6000);
    const shot = async (name: string, fn: () => Promise<void>) => {
      if (!['actions-menu','emoji-picker','channel-settings','conversation'].includes(name)) return;
      try {
        await fn();
        await page.waitForTimeout(300);
        await page.screenshot({ path: `${D}/${name}-${c.tag}-r2.png` });
      } catch (e) {
        console.log('FAIL', name, c.tag, String(e).slice(0, 300));
        await page.screenshot({ path: `${D}/${name}-${c.tag}-FAIL.png` }).catch(() => {});
      }
      await page.keyboard.press('Escape').catch(() => {});
      await page.keyboard.press('Escape').catch(() => {});
      await page.mouse.move(1, 1);
    };
    await shot('conversation', async () => {
      await openTopic(page, 'general', 'shots');
      await messageWithText(page, 'Last message in the row').waitFor();
    });
    await shot('actions-menu', async () => {
      await openTopic(page, 'general', 'shots');
      const row = messageWithText(page, 'Meeting at');
      await row.hover();
      await row.getByRole('button', { name: 'Message actions' }).click();
      await row.getByRole('menu', { name: 'Message actions' }).waitFor();
    });
    await shot('emoji-picker', async () => {
      await openTopic(page, 'general', 'shots');
      const row = messageWithText(page, 'Inline math');
      await row.hover();
      await row.getByRole('button', { name: 'Add reaction' }).click();
      await page.getByRole('searchbox', { name: 'Search emoji' }).waitFor();
    });
    await shot('user-card', async () => {
      const people = page.getByRole('complementary', { name: 'People' });
      await people.getByRole('button', { name: /Emma Member/ }).first().click();
      await page.getByRole('dialog', { name: 'User card: Emma Member' }).waitFor();
    });
    await shot('compose-autocomplete', async () => {
      const box = page.getByRole('textbox', { name: 'Message' });
      await box.click();
      await box.pressSequentially('Hi @em');
      await page.getByRole('listbox', { name: 'People' }).waitFor();
    });
    await shot('compose-preview', async () => {
      const box = page.getByRole('textbox', { name: 'Message' });
      await box.fill('Hello @**Emma Member** :smile: **bold** and `code`\n\n- item one\n- item two');
      await page.getByRole('button', { name: 'Preview' }).click();
      await page.getByRole('region', { name: 'Preview' }).waitFor();
      await page.waitForTimeout(700);
    });
    try { await page.getByRole('button', { name: 'Preview' }).click({ timeout: 1000 }); } catch {}
    try { await page.getByRole('textbox', { name: 'Message' }).fill('', { timeout: 1000 }); } catch {}
    await shot('shortcut-help', async () => {
      await page.mouse.click(c.viewport.width / 2, 80);
      await page.keyboard.press('?');
      await page.getByRole('dialog', { name: 'Keyboard shortcuts' }).waitFor();
    });
    await shot('scheduled', async () => {
      await page.getByRole('navigation', { name: 'Conversations' })
        .getByRole('button', { name: /^Scheduled messages/ }).click();
      await page.getByRole('heading', { name: 'Scheduled messages', level: 1 }).waitFor();
    });
    await shot('channel-browser', async () => {
      await page.getByRole('navigation', { name: 'Conversations' })
        .getByRole('button', { name: 'Browse channels' }).click();
      await page.getByRole('heading', { name: 'Channels', level: 1 }).waitFor();
    });
    await shot('channel-settings', async () => {
      await page.getByRole('navigation', { name: 'Conversations' })
        .getByRole('button', { name: 'Browse channels' }).click();
      await page.getByRole('heading', { name: 'Channels', level: 1 }).waitFor();
      await page.getByRole('button', { name: 'Settings for #general' }).click();
      await page.getByRole('article', { name: 'Settings for #general' }).waitFor();
    });
    await page.context().close();
  }
  await browser.close();
  await app.close();
  await realm.close();
}, 300_000);
