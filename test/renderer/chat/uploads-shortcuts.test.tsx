// Uploads from compose (chips with progress, cancel, link inserted when done and removed with its chip) and the global keyboard
// shortcuts (c, x, r, n, Ctrl+K, Esc).
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { act, cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { openCompose } from '../support/compose';
import { Compose } from '../../../renderer/features/compose/Compose';
import { uiStore } from '../../../renderer/store/ui-store';
import { useShortcuts } from '../../../renderer/shell/shortcuts';
import { narrowKey, topicNarrow } from '../../../shared/narrow';
import type { ChatStore } from '../../../renderer/store';
import { channelMessage, GENERAL, messageEvent, setupStore, unreadMsgs } from '../store/fixtures';
import { installFakeApi, Providers, resetUi, type FakeApi } from './harness';

let api: FakeApi;
beforeEach(() => {
  resetUi('a');
  api = installFakeApi();
});
afterEach(cleanup);

function progress(state: 'uploading' | 'done' | 'cancelled', loaded: number) {
  act(() =>
    uiStore.setState((s) => ({
      uploads: {
        ...s.uploads,
        'upload-0001': {
          uploadId: 'upload-0001',
          accountId: 'a',
          name: 'plan.pdf',
          loaded,
          total: 1000,
          state,
          method: 'multipart',
          ...(state === 'done' ? { url: '/user_uploads/1/ab/plan.pdf', filename: 'plan.pdf' } : {}),
        },
      },
    })),
  );
}

describe('Compose uploads', () => {
  function renderCompose() {
    const { store } = setupStore();
    render(
      <Providers store={store}>
        <Compose
          accountId="a"
          defaultDestination={{ type: 'stream', streamId: GENERAL, topic: 'docs' }}
        />
      </Providers>,
    );
    openCompose();
    const file = new File(['%PDF-1.4 ...'], 'plan.pdf', { type: 'application/pdf' });
    fireEvent.change(screen.getByLabelText('Attach files'), { target: { files: [file] } });
    return file;
  }

  it('shows progress, then inserts the link when main reports the upload done', async () => {
    const file = renderCompose();
    await waitFor(() => expect(api.uploadFile).toHaveBeenCalledWith('a', file));
    await screen.findByRole('button', { name: 'Cancel upload of plan.pdf' });
    progress('uploading', 400);
    const bar = screen.getByRole('progressbar', {
      name: 'Uploading plan.pdf',
    }) as HTMLProgressElement;
    expect(bar.value).toBe(400);
    expect(bar.max).toBe(1000);
    progress('done', 1000);
    const box = screen.getByRole('textbox', { name: 'Message' }) as HTMLTextAreaElement;
    expect(box.value).toBe('[plan.pdf](/user_uploads/1/ab/plan.pdf)');
    expect(screen.queryByRole('progressbar')).toBeNull();
  });

  it('keeps a chip with name and size until removed, which takes the link out of the text', async () => {
    renderCompose();
    await screen.findByRole('button', { name: 'Cancel upload of plan.pdf' });
    const box = screen.getByRole('textbox', { name: 'Message' }) as HTMLTextAreaElement;
    fireEvent.change(box, { target: { value: 'see ', selectionStart: 4 } });
    progress('done', 1000);
    expect(box.value).toBe('see [plan.pdf](/user_uploads/1/ab/plan.pdf)');
    const chip = screen.getByTestId('upload');
    expect(chip.textContent).toContain('plan.pdf');
    expect(chip.textContent).toContain('1000 B');
    fireEvent.click(screen.getByRole('button', { name: 'Remove plan.pdf' }));
    expect(box.value).toBe('see');
    expect(screen.queryByTestId('upload')).toBeNull();
    expect(api.cancelUpload).not.toHaveBeenCalled();
  });

  it('cancels an upload whose chip was removed before main named it, once named', async () => {
    let name: (answer: { uploadId: string }) => void = () => {};
    api.uploadFile.mockImplementationOnce(() => new Promise((resolve) => (name = resolve)));
    renderCompose();
    fireEvent.click(await screen.findByRole('button', { name: 'Cancel upload of plan.pdf' }));
    expect(screen.queryByTestId('upload')).toBeNull();
    expect(api.cancelUpload).not.toHaveBeenCalled();
    await act(async () => name({ uploadId: 'upload-0002' }));
    expect(api.cancelUpload).toHaveBeenCalledWith({ uploadId: 'upload-0002' });
  });

  it('cancels through main', async () => {
    renderCompose();
    fireEvent.click(await screen.findByRole('button', { name: 'Cancel upload of plan.pdf' }));
    // The chip shows before main has named the upload; a cancel then waits for that name.
    // (Beyond waitFor's default second: under a full test run the answer can take longer.)
    await waitFor(
      () => expect(api.cancelUpload).toHaveBeenCalledWith({ uploadId: 'upload-0001' }),
      { timeout: 10_000 },
    );
    progress('cancelled', 200);
    expect(screen.queryByRole('progressbar')).toBeNull();
    expect((screen.getByRole('textbox', { name: 'Message' }) as HTMLTextAreaElement).value).toBe(
      '',
    );
  });
});

function Shortcuts({ store }: { store: ChatStore }) {
  useShortcuts(store, { current: null });
  return null;
}

describe('keyboard shortcuts', () => {
  it('n opens the next unread topic, Ctrl+Shift+K the switcher, Esc closes it, c and x request compose', () => {
    const { store } = setupStore({
      unread_msgs: unreadMsgs({
        streams: [{ stream_id: GENERAL, topic: 'lunch', unread_message_ids: [101] }],
      }),
    });
    render(<Shortcuts store={store} />);
    fireEvent.keyDown(window, { key: 'n' });
    const route = uiStore.getState().route;
    expect(route.kind === 'narrow' && narrowKey(route.narrow)).toBe(
      narrowKey(topicNarrow(GENERAL, 'lunch')),
    );

    fireEvent.keyDown(window, { key: 'K', ctrlKey: true, shiftKey: true });
    expect(uiStore.getState().overlay).toEqual({ kind: 'switcher' });
    fireEvent.keyDown(window, { key: 'Escape' });
    expect(uiStore.getState().overlay).toBeNull();

    fireEvent.keyDown(window, { key: 'c' });
    expect(uiStore.getState().composeRequest?.kind).toBe('channel');
    fireEvent.keyDown(window, { key: 'x' });
    expect(uiStore.getState().composeRequest?.kind).toBe('dm');
  });

  it("r requests a reply addressed to the selected message's conversation, in the view shown", async () => {
    const t = setupStore();
    t.apply(messageEvent(channelMessage(101, GENERAL, 'lunch')));
    render(<Shortcuts store={t.store} />);
    act(() => uiStore.setState({ selectedMessageId: 101 }));
    const before = uiStore.getState().route;
    fireEvent.keyDown(window, { key: 'r' });
    expect(uiStore.getState().route).toEqual(before);
    await waitFor(() =>
      expect(uiStore.getState().composeRequest).toMatchObject({
        kind: 'reply',
        to: { type: 'stream', streamId: GENERAL, topic: 'lunch' },
      }),
    );
  });

  it('ignores letters typed into a text field', () => {
    const { store } = setupStore();
    render(
      <>
        <Shortcuts store={store} />
        <input aria-label="field" />
      </>,
    );
    fireEvent.keyDown(screen.getByLabelText('field'), { key: 'c' });
    expect(uiStore.getState().composeRequest).toBeNull();
  });
});
