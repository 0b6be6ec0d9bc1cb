// A row's action buttons are not rendered with every row of the first paint: they mount when the
// row is pointed at, focused or selected, and then open their menu as before. Links in a row's
// content open through main.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { cleanup, fireEvent, render, screen, within } from '@testing-library/react';
import { MessageList } from '../../../renderer/features/messages/MessageList';
import { narrowKey, channelNarrow } from '../../../shared/narrow';
import { uiStore } from '../../../renderer/store/ui-store';
import { channelMessage, GENERAL, setupStore } from '../store/fixtures';
import { fakeLayout, installFakeApi, Providers, resetUi, type FakeApi } from './harness';

let restoreLayout: () => void;
let api: FakeApi;
beforeEach(() => {
  resetUi('a');
  api = installFakeApi();
  restoreLayout = fakeLayout();
});
afterEach(() => {
  cleanup();
  restoreLayout();
});

async function renderList() {
  const ctx = setupStore();
  const key = narrowKey(channelNarrow(GENERAL));
  // One topic per message: every row has a recipient header (focusable links).
  const messages = Array.from({ length: 30 }, (_, i) => ({
    ...channelMessage(i + 1, GENERAL, `topic ${i}`, { content: `body ${i + 1}` }),
    flags: ['read' as const],
  }));
  ctx.store
    .getState()
    .mergeFetchedMessages('a', key, messages, { foundOldest: true, foundNewest: true });
  render(
    <Providers store={ctx.store}>
      <MessageList accountId="a" narrowKey={key} offline />
    </Providers>,
  );
  const text = await screen.findByText('body 30');
  return text.closest('[data-testid=message]') as HTMLElement;
}

describe('message row actions', () => {
  it('mount on pointer enter and open the actions menu', async () => {
    const row = await renderList();
    expect(screen.queryAllByRole('button', { name: 'Message actions' })).toHaveLength(0);
    fireEvent.pointerEnter(row);
    fireEvent.click(within(row).getByRole('button', { name: 'Message actions' }));
    expect(screen.getByRole('menuitem', { name: 'Copy link to message' })).toBeTruthy();
    // Only the row pointed at has them.
    expect(screen.getAllByRole('button', { name: 'Message actions' })).toHaveLength(1);
  });

  it('mount when focus enters the row (keyboard users)', async () => {
    const row = await renderList();
    fireEvent.focus(within(row).getAllByRole('button')[0]!);
    expect(within(row).getByRole('button', { name: 'Add reaction' })).toBeTruthy();
  });

  it('are shown on the selected row', async () => {
    const row = await renderList();
    fireEvent.keyDown(screen.getByRole('list', { name: 'Messages' }), { key: 'End' });
    expect(uiStore.getState().selectedMessageId).toBe(30);
    expect(within(row).getByRole('button', { name: 'Message actions' })).toBeTruthy();
  });
});

describe('links in message content', () => {
  it('open through main, never inside the app', async () => {
    const ctx = setupStore();
    const key = narrowKey(channelNarrow(GENERAL));
    const message = channelMessage(1, GENERAL, 'links', {
      content: '<a href="https://example.com/x">ext</a>',
    });
    ctx.store
      .getState()
      .mergeFetchedMessages('a', key, [{ ...message, flags: ['read' as const] }], {
        foundOldest: true,
        foundNewest: true,
      });
    render(
      <Providers store={ctx.store}>
        <MessageList accountId="a" narrowKey={key} offline />
      </Providers>,
    );
    const link = await screen.findByText('ext');
    const click = new MouseEvent('click', { bubbles: true, cancelable: true });
    link.dispatchEvent(click);
    expect(click.defaultPrevented).toBe(true);
    expect(api.openExternal).toHaveBeenCalledWith({ url: 'https://example.com/x' });
  });
});
