// The edit history view end to end below the browser: the renderer's message row and history view
// call the real browser-mode bridge (window.tributary over a WebSocket), which reaches the real
// main-process services, which call GET /messages/{id}/history on the real local realm server
// (127.0.0.1, SQLite in a temporary folder).
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { cleanup, fireEvent, render, within } from '@testing-library/react';
import { MessageRow } from '../../../renderer/features/messages/MessageRow';
import { uiStore } from '../../../renderer/store/ui-store';
import { topicNarrow } from '../../../shared/narrow';
import { Providers, resetUi } from './harness';
import { startLiveAccount, type LiveAccount } from './live-realm';

let live: LiveAccount;
beforeAll(async () => {
  live = await startLiveAccount();
}, 60_000);
afterAll(async () => {
  await live?.close();
});

afterEach(cleanup);

/** Fetches the message through main as the message list does, and shows its row. */
async function showRow(messageId: number): Promise<HTMLElement> {
  await live.storeMessage(messageId);
  resetUi(live.accountId);
  const { container } = render(
    <Providers store={live.store}>
      <MessageRow accountId={live.accountId} id={messageId} prevId={undefined} selected={false} />
    </Providers>,
  );
  const row = container.querySelector<HTMLElement>('[data-testid=message]');
  if (!row) throw new Error(`message ${messageId} not shown`);
  return row;
}

/** The realm's message_edit_history_visibility_policy, set in its database as the server tests do. */
function setHistoryPolicy(policy: 'all' | 'none'): void {
  live.realm.server.db
    .prepare(
      "UPDATE realm SET settings = json_set(settings, '$.message_edit_history_visibility_policy', ?) WHERE id = 1",
    )
    .run(policy);
}

async function send(content: string, topic: string): Promise<number> {
  const sent = await live.api.sendMessage({
    accountId: live.accountId,
    message: { type: 'channel', to: live.channelId('general'), topic, content },
  });
  return sent.messageId!;
}

/** A version's text as it reads, without the words it struck out. */
function shownText(content: Element): string {
  const copy = content.cloneNode(true) as Element;
  for (const removed of copy.querySelectorAll('del')) removed.remove();
  return copy.textContent ?? '';
}

describe('edit history through main', () => {
  it('shows every version with its content, channel, topic, editor and time', async () => {
    const id = await send('First **draft** of the plan', 'plans');
    const owner = live.realm.client('owner');
    expect((await owner.patch(`/messages/${id}`, { content: 'Second draft' })).status).toBe(200);
    // An administrator moves it to another channel and topic.
    const moved = await live.realm.client('admin').patch(`/messages/${id}`, {
      stream_id: live.channelId('design'),
      topic: 'final plans',
      propagate_mode: 'change_one',
    });
    expect(moved.body).toMatchObject({ result: 'success' });

    const row = await showRow(id);
    fireEvent.click(within(row).getByRole('button', { name: '(edited)' }));
    const history = within(row).getByRole('region', { name: 'Edit history' });
    const versions = await within(history).findAllByRole('listitem');
    expect(versions).toHaveLength(3);
    const [original, edited, move] = versions;

    expect(original.textContent).toMatch(/^Original .* by Olivia/);
    expect(original.textContent).toContain('#general › plans');
    expect(original.querySelector('.content strong')?.textContent).toBe('draft');

    expect(edited.textContent).toMatch(/^Edited .* by Olivia/);
    expect(edited.textContent).toContain('#general › plans');
    // The edit shows the new text with what changed marked: removed words struck out, added ones
    // highlighted (as the public web app's edit history).
    expect(shownText(edited.querySelector('.content')!)).toBe('Second draft');
    expect([...edited.querySelectorAll('.content ins')].map((e) => e.textContent)).toEqual([
      'Second',
    ]);
    expect([...edited.querySelectorAll('.content del')].map((e) => e.textContent?.trim())).toEqual([
      'First',
      'of the plan',
    ]);

    expect(move.textContent).toMatch(/^Moved .* by Adam Admin/);
    expect(move.textContent).toContain('#design › final plans');
    expect(move.textContent).toContain('Moved from #general to #design');
    expect(move.textContent).toContain('Topic changed from plans to final plans');
    expect(shownText(move.querySelector('.content')!)).toBe('Second draft');
  });

  it('tells the diff’s marks from an author’s own struck-out text', async () => {
    const id = await send('lunch at ~~noon~~ one', 'struck');
    await live.realm.client('owner').patch(`/messages/${id}`, { content: 'lunch at ~~noon~~ two' });
    const row = await showRow(id);
    fireEvent.click(within(row).getByRole('button', { name: '(edited)' }));
    const history = within(row).getByRole('region', { name: 'Edit history' });
    const edited = (await within(history).findAllByRole('listitem')).at(-1)!;
    const marks = (selector: string) =>
      [...edited.querySelectorAll(`.content ${selector}`)].map((e) => e.textContent?.trim());
    expect(marks('ins.diff-inserted')).toEqual(['two']);
    expect(marks('del.diff-deleted')).toEqual(['one']);
    // The author's ~~noon~~ is a plain <del>, not styled as a removal.
    expect(marks('del:not(.diff-deleted)')).toEqual(['noon']);
  });

  it('sanitizes the HTML of every version before it reaches the DOM', async () => {
    const id = await send('harmless', 'hostile history');
    await live.realm.client('owner').patch(`/messages/${id}`, { content: 'still harmless' });
    // A hostile server: the current version's rendered HTML carries a script, an event handler and
    // a javascript: link.
    live.realm.server.db
      .prepare('UPDATE messages SET rendered_content = ? WHERE id = ?')
      .run(
        '<p>still harmless<script>window.__pwned = 1</script>' +
          '<img src="x" onerror="window.__pwned = 2"><a href="javascript:window.__pwned = 3">x</a></p>',
        id,
      );
    const row = await showRow(id);
    fireEvent.click(within(row).getByRole('button', { name: '(edited)' }));
    const history = within(row).getByRole('region', { name: 'Edit history' });
    const versions = await within(history).findAllByRole('listitem');
    const html = versions.at(-1)!.innerHTML;
    expect(shownText(versions.at(-1)!.querySelector('.content')!)).toBe('still harmlessx');
    expect(html).not.toMatch(/<script|onerror|javascript:/i);
  });

  it('opens a topic link in an old version in the app, as in the message itself', async () => {
    const id = await send('see the plan', 'linked history');
    await live.realm.client('owner').patch(`/messages/${id}`, { content: 'see the new plan' });
    const design = live.channelId('design');
    live.realm.server.db
      .prepare('UPDATE messages SET rendered_content = ? WHERE id = ?')
      .run(`<p>see <a href="/#narrow/channel/${design}-design/topic/plans">plans</a></p>`, id);
    const row = await showRow(id);
    fireEvent.click(within(row).getByRole('button', { name: '(edited)' }));
    const history = within(row).getByRole('region', { name: 'Edit history' });
    const versions = await within(history).findAllByRole('listitem');
    fireEvent.click(within(versions.at(-1)!).getByRole('link', { name: 'plans' }));
    expect(uiStore.getState().route).toEqual({
      kind: 'narrow',
      narrow: topicNarrow(design, 'plans'),
    });
  });

  it('shows the server refusing when the realm hides edit history', async () => {
    const id = await send('a message', 'policy');
    await live.realm.client('owner').patch(`/messages/${id}`, { content: 'an edited message' });
    setHistoryPolicy('none');
    try {
      const row = await showRow(id);
      fireEvent.click(within(row).getByRole('button', { name: '(edited)' }));
      const alert = await within(row).findByRole('alert');
      expect(alert.textContent).toContain('Message edit history is disabled');
      expect(alert.textContent).toContain('BAD_REQUEST');
    } finally {
      setHistoryPolicy('all');
    }
  });

  it("opens from the message's menu too, as the web app's View edit history, once edited", async () => {
    const plain = await send('never edited', 'menu history');
    const id = await send('to be edited', 'menu history');
    await live.realm.client('owner').patch(`/messages/${id}`, { content: 'edited once' });
    const menuItems = async (row: HTMLElement) => {
      fireEvent.pointerEnter(row);
      fireEvent.click(await within(row).findByRole('button', { name: 'Message actions' }));
      return document.querySelectorAll('[role=menuitem]');
    };
    const plainRow = await showRow(plain);
    const plainItems = [...(await menuItems(plainRow))].map((i) => i.textContent);
    expect(plainItems).toContain('Read receipts');
    expect(plainItems).not.toContain('View edit history');
    cleanup();

    const row = await showRow(id);
    await menuItems(row);
    const item = [...document.querySelectorAll<HTMLElement>('[role=menuitem]')].find(
      (i) => i.textContent === 'View edit history',
    );
    expect(item).toBeDefined();
    fireEvent.click(item!);
    const history = await within(row).findByRole('region', { name: 'Edit history' });
    expect(await within(history).findAllByRole('listitem')).toHaveLength(2);
    // The marker closes it again.
    fireEvent.click(within(row).getByRole('button', { name: '(edited)' }));
    expect(within(row).queryByRole('region', { name: 'Edit history' })).toBeNull();
  });
});
