// Polls and to-do lists in real Chromium against the real local server (browser mode): the owner
// sends /poll and /todo, votes, adds options and tasks and checks one in the page; Emma, an API
// client over HTTP, sees each action in the message's submessages, and her own vote appears in the
// owner's page live. Set E2E_SCREENSHOTS=DIR to keep screenshots of the widgets.
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Locator, Page } from 'playwright-core';
import { appSession, pageErrors, realmClient } from './support/app';
import { messageWithText, openTopic, send } from './support/ui';
import type { Submessage } from '../../shared/api/types';
import { widgetFromSubmessages } from '../../shared/widgets/widget';
import type { PollState } from '../../shared/widgets/poll';
import type { TodoState } from '../../shared/widgets/todo';

const session = appSession('owner');
let page: Page;
beforeAll(() => {
  page = session.page;
});
const client = (who: string) => realmClient(session.realm, who);

// The page's globals as code passed to page.evaluate sees them (e2e files compile without DOM types).
declare const document: { documentElement: { dataset: Record<string, string | undefined> } };

/** Screenshots in the light theme and, on the same page, the dark one. */
async function screenshot(target: Locator, name: string): Promise<void> {
  const dir = process.env.E2E_SCREENSHOTS;
  if (!dir) return;
  await target.screenshot({ path: join(dir, `${name}.png`) });
  const theme = await page.evaluate(() => document.documentElement.dataset.theme);
  await page.evaluate(() => (document.documentElement.dataset.theme = 'dark'));
  await target.screenshot({ path: join(dir, `${name}-dark.png`) });
  await page.evaluate((t) => (document.documentElement.dataset.theme = t), theme);
}

/** The widget Emma's client builds from the message as the server gives it to her. */
async function widgetSeenByEmma(messageId: number) {
  const res = await client('emma').get(`/messages/${messageId}`);
  const message = res.body.message as { sender_id: number; submessages: Submessage[] };
  return widgetFromSubmessages(message.sender_id, message.submessages);
}

/** Retries until Emma's view satisfies `check` (the server applies each action on its request). */
async function untilEmmaSees<T>(messageId: number, check: (widget: T) => boolean): Promise<T> {
  for (let i = 0; i < 50; i++) {
    const widget = (await widgetSeenByEmma(messageId)) as T;
    if (widget && check(widget)) return widget;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`Emma never saw the expected state of message ${messageId}`);
}

const owner = () => session.realm.user('owner');

describe('polls', () => {
  let pollId: number;
  // By text until the id is known: the question changes below.
  const pollRow = () =>
    pollId ? page.locator(`[data-message-id="${pollId}"]`) : messageWithText(page, 'Lunch?');
  const poll = () => pollRow().getByTestId('poll-widget');
  const option = (name: string) =>
    poll()
      .getByRole('listitem')
      .filter({ has: page.getByText(name, { exact: true }) });

  it('shows a /poll message as a poll, not as its text', async () => {
    await openTopic(page, 'general', 'lunch');
    await send(page, '/poll Lunch?\nPizza\nSalad');
    await poll().waitFor();
    const row = pollRow();
    expect(await row.textContent()).not.toContain('/poll');
    expect(await poll().getByRole('heading', { name: 'Lunch?' }).count()).toBe(1);
    expect(await poll().locator('.poll-option-text').allTextContents()).toEqual(['Pizza', 'Salad']);
    pollId = Number(await row.getAttribute('data-message-id'));
    const seen = (await widgetSeenByEmma(pollId)) as PollState;
    expect(seen.options.map((o) => o.option)).toEqual(['Pizza', 'Salad']);
  });

  it("sends the owner's vote, which Emma's client sees", async () => {
    await option('Pizza')
      .getByRole('button', { name: /Vote for Pizza/ })
      .click();
    await option('Pizza')
      .getByRole('button', { name: /Remove your vote for Pizza \(1\)/ })
      .waitFor();
    expect(await option('Pizza').locator('.poll-names').textContent()).toBe(
      `(${owner().full_name})`,
    );
    const seen = await untilEmmaSees<PollState>(pollId, (p) => p.options[0].voters.length > 0);
    expect(seen.options.map((o) => [o.option, o.voters])).toEqual([
      ['Pizza', [owner().user_id]],
      ['Salad', []],
    ]);
  });

  it("shows Emma's vote live", async () => {
    const res = await client('emma').post('/submessage', {
      message_id: pollId,
      msg_type: 'widget',
      content: JSON.stringify({ type: 'vote', key: 'canned,1', vote: 1 }),
    });
    expect(res.status, res.text).toBe(200);
    await option('Salad').getByText('(Emma Member)').waitFor();
    expect(await option('Salad').getByRole('button').textContent()).toBe('1');
    expect(await option('Salad').getByRole('button').getAttribute('aria-pressed')).toBe('false');
  });

  it('takes the vote back, adds an option and edits the question', async () => {
    await option('Pizza')
      .getByRole('button', { name: /Remove your vote/ })
      .click();
    await option('Pizza').getByRole('button', { name: 'Vote for Pizza (0)' }).waitFor();
    await poll().getByRole('textbox', { name: 'New option' }).fill('Soup');
    await poll().getByRole('button', { name: 'Add option' }).click();
    await option('Soup').waitFor();
    // An option already there cannot be added again.
    await poll().getByRole('textbox', { name: 'New option' }).fill('Salad');
    expect(await poll().getByRole('button', { name: 'Add option' }).isDisabled()).toBe(true);
    await poll().getByRole('textbox', { name: 'New option' }).fill('');

    await poll().getByRole('button', { name: 'Edit question' }).click();
    const question = poll().getByRole('textbox', { name: 'Add question' });
    await question.fill('Lunch today?');
    await question.press('Enter');
    await poll().getByRole('heading', { name: 'Lunch today?' }).waitFor();
    await option('Soup')
      .getByRole('button', { name: /Vote for Soup/ })
      .click();
    await option('Soup')
      .getByRole('button', { name: /Remove your vote for Soup \(1\)/ })
      .waitFor();
    await screenshot(pollRow(), 'poll');

    const seen = await untilEmmaSees<PollState>(pollId, (p) => p.question === 'Lunch today?');
    expect(seen.options.map((o) => [o.option, o.voters])).toEqual([
      ['Pizza', []],
      ['Salad', [session.realm.user('emma').user_id]],
      ['Soup', [owner().user_id]],
    ]);
    expect(pageErrors).toEqual([]);
  });
});

describe('to-do lists', () => {
  const todo = () => messageWithText(page, 'Chores').getByTestId('todo-widget');
  const task = (name: string) =>
    todo()
      .getByRole('listitem')
      .filter({ has: page.getByText(name, { exact: true }) });

  it('adds a task and checks it; Emma sees both', async () => {
    await send(page, '/todo Chores\nDishes: after lunch');
    await todo().waitFor();
    expect(await messageWithText(page, 'Chores').textContent()).not.toContain('/todo');
    expect(await task('Dishes').textContent()).toBe('Dishes: after lunch');

    await todo().getByRole('textbox', { name: 'New task' }).fill('Laundry');
    await todo().getByRole('textbox', { name: 'Description' }).fill('whites only');
    await todo().getByRole('button', { name: 'Add task' }).click();
    await task('Laundry').waitFor();
    // A click, not check(): the box follows the server's submessage event, not the click itself.
    await task('Laundry').getByRole('checkbox').click();
    await todo().locator('li.todo-task.completed', { hasText: 'Laundry' }).waitFor();
    expect(await task('Laundry').getByRole('checkbox').isChecked()).toBe(true);
    expect(await task('Dishes').getByRole('checkbox').isChecked()).toBe(false);
    await screenshot(messageWithText(page, 'Chores'), 'todo');

    const id = Number(await messageWithText(page, 'Chores').getAttribute('data-message-id'));
    const seen = await untilEmmaSees<TodoState>(id, (t) => t.tasks.some((x) => x.completed));
    expect(seen.tasks.map((t) => [t.task, t.desc, t.completed])).toEqual([
      ['Dishes', 'after lunch', false],
      ['Laundry', 'whites only', true],
    ]);
    expect(pageErrors).toEqual([]);
  });
});
