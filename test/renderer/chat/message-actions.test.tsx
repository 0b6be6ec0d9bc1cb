// Editing a message starts from its Markdown source, fetched from main (GET /messages/{id} with
// apply_markdown=false), not from text scraped off the rendered HTML.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { MessageActions } from '../../../renderer/features/messages/MessageActions';
import { channelMessage, GENERAL, SELF, setupStore } from '../store/fixtures';
import { narrowKey } from '../../../shared/narrow';
import { installFakeApi, Providers, resetUi, type FakeApi } from './harness';

beforeEach(() => resetUi('a'));
afterEach(cleanup);

function renderOwnMessage(api: FakeApi) {
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
      <MessageActions accountId="a" message={message} />
    </Providers>,
  );
  fireEvent.click(screen.getByRole('button', { name: 'Message actions' }));
  fireEvent.click(screen.getByRole('menuitem', { name: 'Edit message' }));
  return api;
}

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
});
