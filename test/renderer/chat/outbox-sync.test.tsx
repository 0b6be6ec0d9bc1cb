// Main's outbox pushes drive the local echoes on screen (renderer/shell/bridge-sync.ts): a failed
// message shows "Not sent" with Retry and Discard; Retry asks main to send again and the row goes
// back to "Sending…"; Discard asks main to drop it and the row leaves once main's outbox no longer
// lists it, without a reload. The real store, bridge sync and message list; main is a fake bridge
// whose outbox answers as main's does (a push of the new list after every change).
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { act, cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { App } from '../../../renderer/shell/App';
import { createChatStore, type ChatStore } from '../../../renderer/store';
import { connectBridge } from '../../../renderer/shell/bridge-sync';
import type { Api } from '../../../renderer/bridge/api';
import type { OutboxEntry } from '../../../shared/ipc/chat';
import { uiStore, ALL_MESSAGES_ROUTE } from '../../../renderer/store/ui-store';
import { GENERAL, register } from '../store/fixtures';
import { fakeLayout, installFakeApi, liveAppAnswers, resetUi } from './harness';

type Listener = (payload: unknown) => void;
let listeners: Map<string, Listener[]>;
let restoreLayout: () => void;
let mainOutbox: OutboxEntry[];

function entry(localId: string, state: OutboxEntry['state'], content: string): OutboxEntry {
  return {
    localId,
    accountId: 'a',
    message: { type: 'channel', to: GENERAL, topic: 'lunch', content },
    state,
    attempts: 1,
    createdAt: 1_000,
    lastError: state === 'failed' ? 'Channel does not exist' : null,
  };
}

function push(channel: string, payload: unknown) {
  act(() => {
    for (const l of listeners.get(channel) ?? []) l(payload);
  });
}

/** Main's outbox changed: it pushes the whole new list, as electron/outbox does. */
function mainOutboxChanged(entries: OutboxEntry[]) {
  mainOutbox = entries;
  push('outbox', { accountId: 'a', entries });
}

function installBridge() {
  const fake = installFakeApi({
    ...liveAppAnswers(register),
    getOutbox: () => mainOutbox,
  });
  fake.on = vi.fn((channel: string, listener: Listener) => {
    listeners.set(channel, [...(listeners.get(channel) ?? []), listener]);
    return () => undefined;
  });
  return fake;
}

beforeEach(() => {
  resetUi('a');
  uiStore.setState({ accountsLoaded: false, route: ALL_MESSAGES_ROUTE });
  listeners = new Map();
  mainOutbox = [];
  restoreLayout = fakeLayout();
});
afterEach(() => {
  cleanup();
  restoreLayout();
});

describe('outbox sync (bridge-sync)', () => {
  async function loaded(store: ChatStore) {
    installBridge();
    const off = connectBridge(window.tributary as unknown as Api, store);
    await waitFor(() => expect(store.getState().accounts.a).toBeTruthy());
    return off;
  }

  it('drops the echo of a failed message main discarded, and keeps the others', async () => {
    mainOutbox = [entry('l1', 'failed', 'lost'), entry('l2', 'pending', 'waiting')];
    const store = createChatStore();
    const off = await loaded(store);
    await waitFor(() => expect(store.getState().accounts.a!.outbox.byLocalId.size).toBe(2));
    expect(store.getState().accounts.a!.outbox.byLocalId.get('l1')?.status).toBe('failed');

    mainOutboxChanged([entry('l2', 'pending', 'waiting')]);
    const echoes = store.getState().accounts.a!.outbox.byLocalId;
    expect([...echoes.keys()]).toEqual(['l2']);
    off();
  });

  it('keeps the echo of a pending message main sent until its message event arrives', async () => {
    mainOutbox = [entry('l3', 'pending', 'on its way')];
    const store = createChatStore();
    const off = await loaded(store);
    await waitFor(() => expect(store.getState().accounts.a!.outbox.byLocalId.size).toBe(1));
    mainOutboxChanged([]);
    expect(store.getState().accounts.a!.outbox.byLocalId.has('l3')).toBe(true);
    off();
  });

  it('leaves failed echoes main never listed (a send main refused before queueing it)', async () => {
    const store = createChatStore();
    const off = await loaded(store);
    store.getState().addLocalEcho('a', {
      localId: 'l4',
      content: 'refused',
      destination: { type: 'stream', streamId: GENERAL, topic: 'lunch' },
    });
    store.getState().markLocalEchoFailed('a', 'l4', 'invalid');
    mainOutboxChanged([]);
    expect(store.getState().accounts.a!.outbox.byLocalId.get('l4')?.status).toBe('failed');
    off();
  });
});

describe('Retry and Discard on a failed message', () => {
  function failedRow() {
    return screen.findByText(/Not sent: Channel does not exist/);
  }

  it('Retry asks main to send again; the row shows it sending', async () => {
    mainOutbox = [entry('r1', 'failed', 'try me again')];
    const fake = installBridge();
    fake.retryOutbox.mockImplementation(async () => {
      mainOutboxChanged([entry('r1', 'sending', 'try me again')]);
      return null;
    });
    render(<App store={createChatStore()} />);
    const status = await failedRow();
    fireEvent.click(within(status).getByRole('button', { name: 'Retry' }));
    await waitFor(() => expect(fake.retryOutbox).toHaveBeenCalledWith({ accountId: 'a' }));
    const row = screen.getByText('try me again').closest('[data-testid=outbox-message]')!;
    await waitFor(() => expect(row.textContent).toContain('Sending…'));
    expect(row.textContent).not.toContain('Not sent');
  });

  it('Discard asks main to drop it; the row leaves without a reload', async () => {
    mainOutbox = [entry('d1', 'failed', 'forget me')];
    const fake = installBridge();
    fake.discardOutboxEntry.mockImplementation(async () => {
      mainOutboxChanged([]);
      return null;
    });
    render(<App store={createChatStore()} />);
    const status = await failedRow();
    expect(screen.getByText('forget me')).toBeTruthy();
    fireEvent.click(within(status).getByRole('button', { name: 'Discard' }));
    await waitFor(() =>
      expect(fake.discardOutboxEntry).toHaveBeenCalledWith({ accountId: 'a', localId: 'd1' }),
    );
    await waitFor(() => expect(screen.queryByText('forget me')).toBeNull());
    expect(screen.queryByTestId('outbox-message')).toBeNull();
  });

  it('Discard also takes away a failed message main never queued (refused before the outbox)', async () => {
    const fake = installBridge();
    const store = createChatStore();
    render(<App store={store} />);
    await waitFor(() => expect(store.getState().accounts.a).toBeTruthy());
    act(() => {
      store.getState().addLocalEcho('a', {
        localId: 'n1',
        content: 'never queued',
        destination: { type: 'stream', streamId: GENERAL, topic: 'lunch' },
      });
      store.getState().markLocalEchoFailed('a', 'n1', 'Channel does not exist');
    });
    const status = await failedRow();
    fireEvent.click(within(status).getByRole('button', { name: 'Discard' }));
    await waitFor(() => expect(screen.queryByText('never queued')).toBeNull());
    expect(fake.discardOutboxEntry).toHaveBeenCalledWith({ accountId: 'a', localId: 'n1' });
    expect(store.getState().accounts.a!.outbox.byLocalId.has('n1')).toBe(false);
  });
});
