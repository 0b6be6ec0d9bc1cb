// Compose: closed to a bar until asked for, Enter and Shift+Enter by the enter_sends setting, the
// server's length limit shown before sending, local echo on send, and draft restore.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { act, cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { openCompose } from '../support/compose';
import { Compose } from '../../../renderer/features/compose/Compose';
import type { Destination } from '../../../renderer/features/compose/drafts';
import { uiStore } from '../../../renderer/store/ui-store';
import { EMMA, GENERAL, register, setupStore } from '../store/fixtures';
import { fl372Register, haveFl372Fixtures } from '../store/fixtures/fl372';
import { createChatStore } from '../../../renderer/store';
import { installFakeApi, Providers, resetUi, type FakeApi } from './harness';

let api: FakeApi;

beforeEach(() => {
  resetUi('a');
  api = installFakeApi({
    sendMessage: (input) => ({
      localId: (input as { localId: string }).localId,
      messageId: 4242,
      state: 'sent',
    }),
    saveDraft: (input) => ({
      key: 'draft-1',
      serverId: null,
      draft: (input as { draft: unknown }).draft,
      timestamp: 1,
      synced: false,
    }),
  });
});
afterEach(cleanup);

function renderCompose(settings: { enter_sends: boolean; maxLength?: number }) {
  const base = register();
  const { store } = setupStore({
    user_settings: { ...base.user_settings, enter_sends: settings.enter_sends },
    max_message_length: settings.maxLength ?? 10000,
  });
  render(
    <Providers store={store}>
      <Compose
        accountId="a"
        defaultDestination={{ type: 'stream', streamId: GENERAL, topic: 'plans' }}
      />
    </Providers>,
  );
  openCompose();
  return { store, box: screen.getByRole('textbox', { name: 'Message' }) as HTMLTextAreaElement };
}

describe('Compose', () => {
  it('sends on Enter and not on Shift+Enter when enter_sends is on', async () => {
    const { box, store } = renderCompose({ enter_sends: true });
    fireEvent.change(box, { target: { value: 'line one' } });
    fireEvent.keyDown(box, { key: 'Enter', shiftKey: true });
    expect(api.sendMessage).not.toHaveBeenCalled();
    fireEvent.keyDown(box, { key: 'Enter' });
    await waitFor(() => expect(api.sendMessage).toHaveBeenCalledTimes(1));
    expect(api.sendMessage.mock.calls[0][0]).toMatchObject({
      accountId: 'a',
      message: { type: 'channel', to: GENERAL, topic: 'plans', content: 'line one' },
    });
    expect(box.value).toBe('');
    // The local echo is in the store until the server's message event arrives.
    const echoes = [...store.getState().accounts.a.outbox.byLocalId.values()];
    expect(echoes).toHaveLength(1);
    expect(echoes[0]).toMatchObject({ content: 'line one', status: 'sent', messageId: 4242 });
  });

  it('reverses the keys when enter_sends is off: Enter is a newline, Ctrl+Enter sends', async () => {
    const { box } = renderCompose({ enter_sends: false });
    fireEvent.change(box, { target: { value: 'draft text' } });
    fireEvent.keyDown(box, { key: 'Enter' });
    expect(api.sendMessage).not.toHaveBeenCalled();
    fireEvent.keyDown(box, { key: 'Enter', ctrlKey: true });
    await waitFor(() => expect(api.sendMessage).toHaveBeenCalledTimes(1));
  });

  it('shows the length limit before sending and refuses an over-long message', () => {
    const { box } = renderCompose({ enter_sends: true, maxLength: 20 });
    fireEvent.change(box, { target: { value: 'x'.repeat(25) } });
    expect(screen.getByText(/5 characters too long/)).toBeTruthy();
    expect((screen.getByRole('button', { name: 'Send' }) as HTMLButtonElement).disabled).toBe(true);
    fireEvent.keyDown(box, { key: 'Enter' });
    expect(api.sendMessage).not.toHaveBeenCalled();
    expect(screen.getByRole('alert').textContent).toMatch(/5 characters over the limit of 20/);
    expect(box.value).toHaveLength(25);
  });

  it('names its controls for assistive technology', () => {
    renderCompose({ enter_sends: true });
    expect(screen.getByRole('combobox', { name: 'Topic' })).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Send' })).toBeTruthy();
    expect(screen.getByRole('combobox', { name: 'Channel' })).toBeTruthy();
  });

  it('restores the saved draft of the conversation and saves edits to it', async () => {
    uiStore.setState({
      drafts: {
        a: [
          {
            key: 'k1',
            serverId: null,
            timestamp: 5,
            synced: false,
            draft: { type: 'stream', to: [GENERAL], topic: 'Plans', content: 'half written' },
          },
        ],
      },
    });
    const { box } = renderCompose({ enter_sends: true });
    await waitFor(() => expect(box.value).toBe('half written'));
    fireEvent.change(box, { target: { value: 'half written, more' } });
    await waitFor(() => expect(api.saveDraft).toHaveBeenCalled(), { timeout: 2000 });
    expect(api.saveDraft.mock.calls.at(-1)![0]).toMatchObject({
      key: 'k1',
      draft: { type: 'stream', to: [GENERAL], topic: 'plans', content: 'half written, more' },
    });
  });

  it('completes @-mentions from the realm users', () => {
    const { box } = renderCompose({ enter_sends: true });
    fireEvent.change(box, { target: { value: 'hi @emm', selectionStart: 7 } });
    const option = screen.getByRole('option', { name: 'Emma Member' });
    fireEvent.click(option);
    expect(box.value).toBe('hi @**Emma Member** ');
  });

  it("completes :emoji: by the public server's names, each shown with its picture", async () => {
    const { box } = renderCompose({ enter_sends: true });
    fireEvent.change(box, { target: { value: 'lunch :thumbs', selectionStart: 13 } });
    const list = await screen.findByRole('listbox', { name: 'Emoji' });
    const option = await within(list).findByRole('option', { name: ':+1:' });
    expect(option.querySelector('span.emoji')!.className).toBe('emoji emoji-1f44d emoji-picture');
    fireEvent.click(option);
    expect(box.value).toBe('lunch :+1: ');
    // Times and emoticons are not emoji names being typed.
    fireEvent.change(box, { target: { value: 'at 12:30', selectionStart: 8 } });
    expect(screen.queryByRole('listbox', { name: 'Emoji' })).toBeNull();
  });
});

describe('the closed compose box', () => {
  function renderClosed(destination: Destination | null) {
    const { store } = setupStore({});
    render(
      <Providers store={store}>
        <Compose accountId="a" defaultDestination={destination} />
      </Providers>,
    );
  }
  const messageBox = () => screen.queryByRole('textbox', { name: 'Message' });

  it('starts as a bar naming the conversation, and its button opens the box there', async () => {
    renderClosed({ type: 'stream', streamId: GENERAL, topic: 'plans' });
    expect(messageBox()).toBeNull();
    const reply = screen.getByTestId('compose-reply');
    expect(reply.textContent).toBe('Message #general > plans');
    fireEvent.click(reply);
    const box = messageBox()!;
    expect((screen.getByRole('combobox', { name: 'Topic' }) as HTMLInputElement).value).toBe(
      'plans',
    );
    await waitFor(() => expect(document.activeElement).toBe(box));
  });

  it('names a direct conversation by its people', () => {
    renderClosed({ type: 'private', to: [EMMA] });
    expect(screen.getByTestId('compose-reply').textContent).toBe('Message Emma Member');
  });

  it('starts a new topic in the channel, or a new direct message, from the bar', async () => {
    renderClosed({ type: 'stream', streamId: GENERAL, topic: 'plans' });
    fireEvent.click(screen.getByRole('button', { name: 'New topic' }));
    const topic = screen.getByRole('combobox', { name: 'Topic' }) as HTMLInputElement;
    expect(topic.value).toBe('');
    expect((screen.getByRole('combobox', { name: 'Channel' }) as HTMLSelectElement).value).toBe(
      String(GENERAL),
    );
    await waitFor(() => expect(document.activeElement).toBe(topic));
    fireEvent.keyDown(messageBox()!, { key: 'Escape' });
    fireEvent.click(screen.getByRole('button', { name: 'New direct message' }));
    expect(screen.getByRole('radio', { name: 'Direct message' }).getAttribute('aria-checked')).toBe(
      'true',
    );
  });

  it('closes on Esc when empty, and keeps what it holds as a draft when closed', async () => {
    renderClosed({ type: 'stream', streamId: GENERAL, topic: 'plans' });
    fireEvent.click(screen.getByTestId('compose-reply'));
    fireEvent.keyDown(messageBox()!, { key: 'Escape' });
    expect(messageBox()).toBeNull();

    fireEvent.click(screen.getByTestId('compose-reply'));
    fireEvent.change(messageBox()!, { target: { value: 'not finished' } });
    // Esc with text lets go of the focus only.
    fireEvent.keyDown(messageBox()!, { key: 'Escape' });
    expect(messageBox()).not.toBeNull();
    // Closing saves the draft at once (not after the typing delay) and says there is one.
    fireEvent.click(screen.getByRole('button', { name: 'Close compose' }));
    expect(messageBox()).toBeNull();
    expect(api.saveDraft).toHaveBeenCalledTimes(1);
    expect(api.saveDraft.mock.calls[0]![0]).toMatchObject({
      draft: { type: 'stream', to: [GENERAL], topic: 'plans', content: 'not finished' },
    });
    expect(screen.getByTestId('compose-reply').textContent).toContain('Draft');
    await act(async () => {});
    fireEvent.click(screen.getByTestId('compose-reply'));
    expect((messageBox() as HTMLTextAreaElement).value).toBe('not finished');
  });

  it.runIf(haveFl372Fixtures)(
    "names the public server's channels and people (its feature level 372 register)",
    () => {
      const store = createChatStore();
      store.getState().replaceSnapshot('a', fl372Register());
      const VERONA = 22;
      const IAGO = 52;
      const { unmount } = render(
        <Providers store={store}>
          <Compose
            accountId="a"
            defaultDestination={{ type: 'stream', streamId: VERONA, topic: 'castle' }}
          />
        </Providers>,
      );
      expect(screen.getByTestId('compose-reply').textContent).toBe('Message #Verona > castle');
      unmount();
      render(
        <Providers store={store}>
          <Compose accountId="a" defaultDestination={{ type: 'private', to: [IAGO] }} />
        </Providers>,
      );
      expect(screen.getByTestId('compose-reply').textContent).toBe('Message Iago');
    },
  );
});
