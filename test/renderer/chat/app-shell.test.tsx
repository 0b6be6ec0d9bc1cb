// The app shell on the bridge: the account list and snapshot come from main, event batches and
// connection states arrive as pushes and show on screen; an account-less start shows sign-in.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { act, cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { App } from '../../../renderer/shell/App';
import { createChatStore } from '../../../renderer/store';
import { uiStore, ALL_MESSAGES_ROUTE } from '../../../renderer/store/ui-store';
import { channelMessage, GENERAL, messageEvent, register, unreadMsgs } from '../store/fixtures';
import { fakeLayout, installFakeApi, LIVE_ACCOUNT, QUIET_MAIN_ANSWERS, resetUi } from './harness';

type Listener = (payload: unknown) => void;
let listeners: Map<string, Listener[]>;
let restoreLayout: () => void;

function push(channel: string, payload: unknown) {
  act(() => {
    for (const l of listeners.get(channel) ?? []) l(payload);
  });
}

beforeEach(() => {
  resetUi('a');
  uiStore.setState({ accountsLoaded: false, route: ALL_MESSAGES_ROUTE });
  listeners = new Map();
  restoreLayout = fakeLayout();
});
afterEach(() => {
  cleanup();
  restoreLayout();
});

function installBridge(accounts: unknown[]) {
  const fake = installFakeApi({
    ...QUIET_MAIN_ANSWERS,
    listAccounts: () => ({ accounts, activeAccountId: accounts.length ? 'a' : null }),
    getSnapshot: () => ({
      snapshot: {
        accountId: 'a',
        queueId: 'q1',
        register: register({
          unread_msgs: unreadMsgs({
            streams: [{ stream_id: GENERAL, topic: 'lunch', unread_message_ids: [101] }],
          }),
        }),
      },
      events: [],
      connection: { status: 'live', queueId: 'q1' },
    }),
  });
  fake.on = vi.fn((channel: string, listener: Listener) => {
    listeners.set(channel, [...(listeners.get(channel) ?? []), listener]);
    return () => undefined;
  });
  return fake;
}

const generalCount = () => {
  const nav = screen.getByRole('navigation', { name: 'Conversations' });
  const button = within(nav).getByRole('button', { name: /^#general/ });
  return within(button).queryByTestId('unread-count')?.textContent ?? '0';
};

describe('App shell', () => {
  it('shows sign-in when main has no account', async () => {
    installBridge([]);
    render(<App store={createChatStore()} />);
    expect(await screen.findByRole('heading', { name: 'Sign in to a chat server' })).toBeTruthy();
    expect(screen.getByLabelText('Server URL')).toBeTruthy();
  });

  it('waits for the demo organization a first launch is preparing, then opens the home view', async () => {
    uiStore.setState({ localRealm: null, routeChosen: false });
    installBridge([]);
    render(<App store={createChatStore()} />);
    await screen.findByRole('heading', { name: 'Sign in to a chat server' });
    push('localRealm', { state: 'starting', preparingDemo: true });
    expect(screen.getByRole('heading', { name: 'Preparing your demo organization…' })).toBeTruthy();
    expect(screen.queryByLabelText('Server URL')).toBeNull();

    push('localRealm', { state: 'running', url: 'http://127.0.0.1:9991', preparingDemo: true });
    push('accounts', { accounts: [LIVE_ACCOUNT], activeAccountId: 'a' });
    push('localRealm', { state: 'running', url: 'http://127.0.0.1:9991' });
    // The start route comes back, and the user's home view (the public default, Inbox) replaces
    // it as on any start: not the sign-in form, and not a view the wait chose.
    await waitFor(() => expect(uiStore.getState().route.kind).toBe('inbox'));
    expect(screen.queryByRole('heading', { name: 'Sign in to a chat server' })).toBeNull();
  });

  it("says the local server's outage, or why it could not start with a Retry", async () => {
    uiStore.setState({ localRealm: null });
    const fake = installBridge([]);
    render(<App store={createChatStore()} />);
    await screen.findByRole('heading', { name: 'Sign in to a chat server' });
    expect(fake.getLocalRealm).toHaveBeenCalled();
    expect(screen.queryByTestId('local-realm-banner')).toBeNull();

    push('localRealm', {
      state: 'restarting',
      reason: 'stopped unexpectedly (SIGKILL)',
      retryAt: Date.now() + 60_000,
    });
    expect(screen.getByTestId('local-realm-banner').textContent).toMatch(
      /^The local server stopped unexpectedly \(SIGKILL\)\. Restarting it in \d+ s\.$/,
    );

    push('localRealm', { state: 'failed', reason: 'port 9991 is taken by another program' });
    const banner = screen.getByTestId('local-realm-banner');
    expect(banner.textContent).toContain(
      'The local server is not running: port 9991 is taken by another program.',
    );
    fireEvent.click(within(banner).getByRole('button', { name: 'Retry' }));
    expect(fake.retryLocalRealm).toHaveBeenCalledTimes(1);

    push('localRealm', { state: 'running', url: 'http://127.0.0.1:9991' });
    expect(screen.queryByTestId('local-realm-banner')).toBeNull();
  });

  it('offers the demo organization on sign-in while this computer runs it and no account is on it', async () => {
    uiStore.setState({ localRealm: null });
    const fake = installBridge([]);
    fake.openDemoRealm = vi.fn(async () => ({ accounts: [LIVE_ACCOUNT], activeAccountId: 'a' }));
    render(<App store={createChatStore()} />);
    await screen.findByRole('heading', { name: 'Sign in to a chat server' });
    const offer = () =>
      screen.queryByRole('button', { name: 'Open the demo organization on this computer' });
    expect(offer()).toBeNull();
    push('localRealm', { state: 'running', url: 'http://127.0.0.1:9991' });
    fireEvent.click(offer()!);
    await waitFor(() => expect(fake.openDemoRealm).toHaveBeenCalledTimes(1));
  });

  it('loads the snapshot, then applies pushed event batches to what is on screen', async () => {
    installBridge([LIVE_ACCOUNT]);
    render(<App store={createChatStore()} />);
    await screen.findByRole('navigation', { name: 'Conversations' });
    expect(generalCount()).toBe('1');
    push('events', {
      accountId: 'a',
      queueId: 'q1',
      events: [
        messageEvent(channelMessage(102, GENERAL, 'lunch'), []),
        messageEvent(channelMessage(103, GENERAL, 'plans'), []),
      ],
    });
    expect(generalCount()).toBe('3');
  });

  it('shows the connection banner with the next retry while backing off', async () => {
    installBridge([LIVE_ACCOUNT]);
    render(<App store={createChatStore()} />);
    await screen.findByRole('navigation', { name: 'Conversations' });
    expect(screen.queryByTestId('connection-banner')).toBeNull();
    const retryAt = Date.now() + 30_000;
    push('connection', {
      accountId: 'a',
      state: { status: 'backoff', retryAt, attempt: 2, reason: 'connection refused' },
    });
    const banner = screen.getByTestId('connection-banner');
    expect(banner.textContent).toMatch(/connection refused/);
    expect(banner.textContent).toMatch(/Retrying in (29|30) s/);
    push('connection', { accountId: 'a', state: { status: 'live', queueId: 'q2' } });
    expect(screen.queryByTestId('connection-banner')).toBeNull();
  });

  it('offers to sign a signed-out account in again with a new key', async () => {
    const fake = installBridge([LIVE_ACCOUNT]);
    uiStore.setState({ accounts: [LIVE_ACCOUNT as never] });
    render(<App store={createChatStore()} />);
    await screen.findByRole('navigation', { name: 'Conversations' });
    push('connection', {
      accountId: 'a',
      state: { status: 'signed_out', reason: 'API key revoked' },
    });
    fireEvent.click(screen.getByRole('button', { name: 'Sign in again' }));
    fireEvent.change(screen.getByRole('combobox', { name: 'Sign-in method' }), {
      target: { value: 'apiKey' },
    });
    fireEvent.change(screen.getByLabelText('API key'), { target: { value: 'new-key-123' } });
    fireEvent.click(screen.getByRole('button', { name: 'Sign in' }));
    await waitFor(() => expect(fake.reauthenticate).toHaveBeenCalledTimes(1));
    expect(fake.reauthenticate.mock.calls[0][0]).toEqual({
      accountId: 'a',
      auth: { kind: 'apiKey', email: 'owner@example.test', apiKey: 'new-key-123' },
    });
  });
});
