// Editing a message happens in its row, as in the web app, and starts from its Markdown source,
// fetched from main (GET /messages/{id} with apply_markdown=false), not from text scraped off the
// rendered HTML. Enter saves (by enter_sends), Esc cancels, `e` edits the selected message.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { act, cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { MessageRow } from '../../../renderer/features/messages/MessageRow';
import { uiStore } from '../../../renderer/store/ui-store';
import { channelMessage, GENERAL, SELF, setupStore } from '../store/fixtures';
import { narrowKey } from '../../../shared/narrow';
import { installFakeApi, Providers, resetUi, type FakeApi } from './harness';

beforeEach(() => resetUi('a'));
afterEach(cleanup);

function renderOwnMessage(api: FakeApi, open: 'menu' | 'key' = 'menu') {
  const ctx = setupStore();
  const message = {
    ...channelMessage(42, GENERAL, 'edits', { sender: SELF }),
    content: '<p>See <strong>this</strong> and <a href="https://example.com">that</a></p>',
    timestamp: Math.floor(Date.now() / 1000),
    flags: [],
  };
  ctx.store.getState().mergeFetchedMessages('a', narrowKey([]), [message], {
    foundOldest: true,
    foundNewest: true,
  });
  render(
    <Providers store={ctx.store}>
      <MessageRow accountId="a" id={42} prevId={undefined} selected />
    </Providers>,
  );
  if (open === 'key') {
    act(() => uiStore.setState({ selectedMessageId: 42 })); // the arrow keys' cursor
    fireEvent.keyDown(window, { key: 'e' });
  } else {
    fireEvent.click(screen.getByRole('button', { name: 'Message actions' }));
    fireEvent.click(screen.getByRole('menuitem', { name: 'Edit message' }));
  }
  return api;
}

const withSource = () =>
  installFakeApi({
    getMessage: () => ({ result: 'success', msg: '', raw_content: 'See **this**' }),
  });
const editBox = async () =>
  (await screen.findByLabelText('Edit message content')) as HTMLTextAreaElement;

describe('editing a message', () => {
  it('starts from the Markdown source and saves the edited text, checked against that source', async () => {
    const api = renderOwnMessage(
      installFakeApi({
        getMessage: () => ({
          result: 'success',
          msg: '',
          raw_content: 'See **this** and [that](https://example.com)',
        }),
      }),
    );
    const box = (await screen.findByLabelText('Edit message content')) as HTMLTextAreaElement;
    expect(box.value).toBe('See **this** and [that](https://example.com)');
    expect(api.getMessage).toHaveBeenCalledWith({ accountId: 'a', messageId: 42 });
    fireEvent.change(box, { target: { value: 'See **these**' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() =>
      expect(api.editMessage).toHaveBeenCalledWith({
        accountId: 'a',
        messageId: 42,
        content: 'See **these**',
        // sha256 of the source: the server refuses the edit if the message changed since.
        prevContentSha256: '4a3b4e9175ab900db66f0f1672e5f543937d1e165380f7d139341f5bc0f62ed0',
      }),
    );
  });

  it('falls back to the displayed text, saying so, when the source cannot be fetched', async () => {
    renderOwnMessage(
      installFakeApi({
        getMessage: () => {
          throw new Error('offline');
        },
      }),
    );
    const box = (await screen.findByLabelText(
      'Edit message content',
      {},
      { timeout: 4000 },
    )) as HTMLTextAreaElement;
    expect(box.value).toBe('See this and that');
    expect(screen.getByRole('alert').textContent).toMatch(/Could not load the message's source/);
  });

  it('shows the box in place of the content, saves on Ctrl+Enter (Enter sends off) and closes', async () => {
    const api = renderOwnMessage(withSource());
    const box = await editBox();
    // In the row, in place of the rendered content.
    expect(box.closest('[data-testid=message]')).not.toBeNull();
    expect(document.querySelector('[data-testid=message] .content')).toBeNull();
    fireEvent.change(box, { target: { value: 'See **that**' } });
    // The fixture's person has enter_sends off (the public default): Enter is a new line there.
    fireEvent.keyDown(box, { key: 'Enter' });
    expect(api.editMessage).not.toHaveBeenCalled();
    expect(screen.getByText(/Ctrl\+Enter to save/)).toBeTruthy();
    fireEvent.keyDown(box, { key: 'Enter', ctrlKey: true });
    await waitFor(() =>
      expect(api.editMessage).toHaveBeenCalledWith(
        expect.objectContaining({ messageId: 42, content: 'See **that**' }),
      ),
    );
    await waitFor(() => expect(screen.queryByLabelText('Edit message content')).toBeNull());
    expect(uiStore.getState().editingMessageId).toBeNull();
  });

  it('cancels on Esc and saves nothing when the text did not change', async () => {
    const api = renderOwnMessage(withSource());
    fireEvent.change(await editBox(), { target: { value: 'Something else' } });
    fireEvent.keyDown(await editBox(), { key: 'Escape' });
    await waitFor(() => expect(screen.queryByLabelText('Edit message content')).toBeNull());
    act(() => uiStore.setState({ editingMessageId: 42 }));
    fireEvent.click(await screen.findByRole('button', { name: 'Save' }));
    await waitFor(() => expect(screen.queryByLabelText('Edit message content')).toBeNull());
    expect(api.editMessage).not.toHaveBeenCalled();
  });

  it('opens with `e` on the selected message', async () => {
    renderOwnMessage(withSource(), 'key');
    expect((await editBox()).value).toBe('See **this**');
  });
});
