// Issue #13's everyday navigation defects, in real Chromium against the real local server (browser
// mode): a search leaves its results unread; resolving and unresolving a topic from inside it follow
// the topic to its new name, in the view and the sidebar; compose in search results does not keep
// the previous view's direct-message destination; sign-in and the manifest viewer have Back/Cancel,
// and Esc after signing in does not return to the form; a refused narrow shows the server's reason;
// the browser-mode host serves the app's icon.
import { describe, expect, it } from 'vitest';
import { appSession, realmClient } from './support/app';
import { composeBox, messageWithText, openTopic } from './support/ui';

const session = appSession('owner');
const page = () => session.page;
const client = (who: string) => realmClient(session.realm, who);

async function generalId(): Promise<number> {
  const subs = (await client('owner').get('/users/me/subscriptions')).body.subscriptions;
  return subs.find((s: { name: string }) => s.name === 'general').stream_id as number;
}

async function sendAs(who: string, topic: string, content: string): Promise<number> {
  const res = await client(who).post('/messages', {
    type: 'stream',
    to: await generalId(),
    topic,
    content,
  });
  expect(res.status).toBe(200);
  return res.body.id as number;
}

async function isRead(id: number): Promise<boolean> {
  const res = await client('owner').get(`/messages/${id}`);
  expect(res.status).toBe(200);
  return (res.body.message.flags as string[]).includes('read');
}

const heading = () => page().getByRole('main').getByRole('heading', { level: 1 });
const search = async (text: string) => {
  const box = page().getByRole('combobox', { name: 'Search messages' });
  await box.fill(text);
  await box.press('Enter');
};
const nav = () => page().getByRole('navigation', { name: 'Conversations' });

describe('everyday navigation defects (issue #13)', () => {
  it('searching for a word leaves the results unread; the conversation view marks them read', async () => {
    const first = await sendAs('emma', 'harbour', 'the lighthouse keeper waves');
    const second = await sendAs('emma', 'harbour', 'a second lighthouse message');
    await search('lighthouse');
    await page().getByRole('heading', { name: 'Search: lighthouse' }).waitFor();
    await messageWithText(page(), 'a second lighthouse message').waitFor();
    // The search view had every chance to mark what it shows: the list marks 400 ms after a
    // row is seen. Checked repeatedly for two seconds; the unfixed app marked both within one.
    for (let i = 0; i < 8; i++) {
      expect([await isRead(first), await isRead(second)]).toEqual([false, false]);
      await page().waitForTimeout(250);
    }
    // The same messages in their conversation are marked read as they are seen.
    await openTopic(page(), 'general', 'harbour');
    await expect.poll(() => isRead(second), { timeout: 10_000 }).toBe(true);
  });

  it('resolving a topic from inside it follows the topic to "✔ topic", and unresolving back', async () => {
    await sendAs('emma', 'boat repairs', 'the hull is patched');
    await openTopic(page(), 'general', 'boat repairs');
    const topics = nav().getByRole('list', { name: 'Topics in #general' });
    await topics.getByRole('button', { name: /^boat repairs/ }).waitFor();

    const resolveFromMenu = async (item: string) => {
      const row = messageWithText(page(), 'the hull is patched');
      await page().mouse.move(1, 1);
      await row.hover();
      await row.getByRole('button', { name: 'Message actions' }).click();
      // The menu opens in a layer over the page (a portal), not inside the row.
      await page().getByRole('menuitem', { name: item }).click();
    };

    await resolveFromMenu('Mark as resolved');
    await page().getByRole('heading', { name: '#general > ✔ boat repairs', exact: true }).waitFor();
    await messageWithText(page(), 'the hull is patched').waitFor();
    expect(await page().getByText('No messages here yet').count()).toBe(0);
    await topics.getByRole('button', { name: /^✔ boat repairs/ }).waitFor();
    await expect.poll(() => topics.getByRole('button', { name: /^boat repairs/ }).count()).toBe(0);

    await resolveFromMenu('Mark as unresolved');
    await page().getByRole('heading', { name: '#general > boat repairs', exact: true }).waitFor();
    await messageWithText(page(), 'the hull is patched').waitFor();
    await topics.getByRole('button', { name: /^boat repairs/ }).waitFor();
    await expect
      .poll(() => topics.getByRole('button', { name: /^✔ boat repairs/ }).count())
      .toBe(0);
  });

  it('compose in search results drops the direct-message destination, then follows the selected message', async () => {
    await sendAs('emma', 'tides', 'spring tides are coming');
    await sendAs('emma', 'moon', 'neap tides follow the moon');
    const owner = session.realm.user('owner');
    const dm = await client('emma').post('/messages', {
      type: 'direct',
      to: [owner.user_id],
      content: 'a direct word about the weather',
    });
    expect(dm.status).toBe(200);
    await nav()
      .getByRole('region', { name: 'Direct messages' })
      .getByRole('button', { name: /^Emma Member/ })
      .click();
    await page().getByRole('heading', { name: 'Emma Member', exact: true }).waitFor();
    // The closed compose box's button names where a message would go (a click opens it there).
    const reply = page().getByTestId('compose-reply');
    await expect.poll(() => reply.textContent()).toBe('Message Emma Member');

    await search('tides');
    await page().getByRole('heading', { name: 'Search: tides' }).waitFor();
    await messageWithText(page(), 'spring tides are coming').waitFor();

    // Selecting a result points compose at that message's conversation, as the web app's
    // compose does for the selected message.
    await page().getByRole('list', { name: 'Messages' }).focus();
    await page().keyboard.press('End');
    await expect.poll(() => reply.textContent()).toBe('Message #general > moon');
    await page().keyboard.press('ArrowUp');
    await expect.poll(() => reply.textContent()).toBe('Message #general > tides');
    const box = await composeBox(page());
    const type = page().getByRole('radiogroup', { name: 'Message type' });
    expect(await type.getByRole('radio', { name: 'Channel' }).getAttribute('aria-checked')).toBe(
      'true',
    );
    const topic = page().getByRole('combobox', { name: 'Topic' });
    expect(await topic.inputValue()).toBe('tides');
    const channel = page().getByRole('combobox', { name: 'Channel' });
    expect(await channel.locator('option:checked').textContent()).toBe('#general');

    // A message being typed keeps its destination while the selection moves on.
    await box.fill('about the tides');
    await page().getByRole('list', { name: 'Messages' }).focus();
    await page().keyboard.press('End');
    await expect
      .poll(() => page().locator('[aria-selected="true"]').textContent())
      .toContain('neap tides');
    expect(await topic.inputValue()).toBe('tides');
    expect(await box.inputValue()).toBe('about the tides');
    await box.fill('');
  });

  it("a refused narrow shows the server's reason", async () => {
    // Asked before the view changes (issue #20): the reason shows under the search bar.
    await search('-is:read');
    const alert = page().getByRole('search').getByRole('alert');
    await expect
      .poll(() => alert.textContent(), { timeout: 15_000 })
      .toContain("Invalid narrow operator: unknown 'is' operand read");
  });

  it('the browser-mode host serves the app icon at /favicon.ico, and the page links it', async () => {
    const origin = new URL(session.app.url).origin;
    const res = await fetch(`${origin}/favicon.ico`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^image\//);
    const body = await res.text();
    expect(body).toContain('<svg');
    const href = await page().locator('link[rel="icon"]').getAttribute('href');
    expect(href).toBeTruthy();
    const linked = await fetch(new URL(href!, origin));
    expect(linked.status).toBe(200);
    expect(linked.headers.get('content-type')).toMatch(/^image\/svg\+xml/);
  });

  it('the manifest viewer has Back, to where the person came from', async () => {
    await openTopic(page(), 'general', 'tides');
    // From the main menu: the viewer is no permanent button of the top bar.
    await page().getByRole('banner').getByRole('button', { name: 'Main menu' }).click();
    await page().getByRole('menuitem', { name: 'Open meeting manifest…' }).click();
    await page().getByRole('heading', { name: 'Meeting manifest' }).waitFor();
    await page().getByRole('button', { name: 'Back', exact: true }).click();
    await page().getByRole('heading', { name: '#general > tides', exact: true }).waitFor();
  });

  it('sign-in has Cancel, back to where the person came from', async () => {
    // A fresh page, whatever the tests before left on screen.
    await page().goto(session.app.url);
    await nav().waitFor();
    await openTopic(page(), 'general', 'tides');
    const form = page().getByRole('heading', { name: 'Sign in to a chat server' });
    await page().getByRole('button', { name: 'Add account' }).click();
    await form.waitFor();
    await page().getByRole('button', { name: 'Cancel', exact: true }).click();
    await page().getByRole('heading', { name: '#general > tides', exact: true }).waitFor();
  });

  it('after signing in, Esc does not return to the sign-in form', async () => {
    const form = page().getByRole('heading', { name: 'Sign in to a chat server' });
    await page().getByRole('button', { name: 'Add account' }).click();
    await form.waitFor();
    const emma = session.realm.user('emma');
    await page().getByRole('textbox', { name: 'Server URL' }).fill(session.realm.url);
    await page().getByRole('button', { name: 'Continue' }).click();
    await page().getByRole('textbox', { name: 'Email' }).fill(emma.email);
    await page().getByLabel('Password', { exact: true }).fill(emma.password!);
    await page().getByRole('button', { name: 'Sign in', exact: true }).click();
    await nav().waitFor();
    await heading().waitFor();
    await form.waitFor({ state: 'detached' });
    await page()
      .locator('body')
      .click({ position: { x: 5, y: 5 } });
    await page().keyboard.press('Escape');
    await heading().waitFor();
    expect(await form.count()).toBe(0);
  });
});
