// The active account has one owner in the renderer, the chat store: main's choice (listAccounts)
// is shown even when another account's snapshot arrives first, and switching in the account
// switcher changes what the window shows and tells main.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { App } from '../../../renderer/shell/App';
import { createChatStore, selectActiveAccount } from '../../../renderer/store';
import { uiStore, ALL_MESSAGES_ROUTE } from '../../../renderer/store/ui-store';
import { EMMA, GENERAL, register, unreadMsgs } from '../store/fixtures';
import { fakeLayout, installFakeApi, QUIET_MAIN_ANSWERS, resetUi } from './harness';

let restoreLayout: () => void;
beforeEach(() => {
  resetUi('a');
  uiStore.setState({ accountsLoaded: false, route: ALL_MESSAGES_ROUTE });
  restoreLayout = fakeLayout();
});
afterEach(() => {
  cleanup();
  restoreLayout();
});

const summary = (id: string, realmName: string, userId: number) => ({
  id,
  site: `http://127.0.0.1:9/${id}`,
  email: `${id}@example.test`,
  userId,
  realmName,
  featureLevel: 400,
  secretBackend: 'file-0600',
  connection: { status: 'live', queueId: `q-${id}` },
});

/** Main with two accounts, "b" active; "b"'s snapshot answers only when released. */
function twoAccounts() {
  let releaseB: () => void = () => undefined;
  const bReady = new Promise<void>((resolve) => (releaseB = resolve));
  const snapshots: Record<string, ReturnType<typeof register>> = {
    // Work has an unread message in #general; home has none.
    a: register({
      unread_msgs: unreadMsgs({
        streams: [{ stream_id: GENERAL, topic: 'lunch', unread_message_ids: [101] }],
      }),
    }),
    b: register({ user_id: EMMA }),
  };
  const fake = installFakeApi({
    ...QUIET_MAIN_ANSWERS,
    listAccounts: () => ({
      accounts: [summary('a', 'Work', 1), summary('b', 'Home', EMMA)],
      activeAccountId: 'b',
    }),
    getSnapshot: async (input) => {
      const { accountId } = input as { accountId: string };
      if (accountId === 'b') await bReady;
      return {
        snapshot: { accountId, queueId: `q-${accountId}`, register: snapshots[accountId] },
        events: [],
        connection: { status: 'live', queueId: `q-${accountId}` },
      };
    },
  });
  return { fake, releaseB };
}

const accountButton = (realm: string) =>
  within(screen.getByRole('navigation', { name: 'Accounts' })).getByRole('button', {
    // "Person at Realm": the rail names the person and the organization.
    name: new RegExp(`^(?!Menu of ).* at ${realm}$`),
  });

describe('the active account', () => {
  it('is the one main chose, even when another account loads first', async () => {
    const { releaseB } = twoAccounts();
    const store = createChatStore();
    render(<App store={store} />);
    // Work's state is loaded first; the window still waits for Home, which main made active (the
    // shell's first render waits for the active account's snapshot, not for the first one in).
    await waitFor(() => expect(store.getState().accounts.a).toBeDefined());
    expect(store.getState().activeAccountId).toBe('b');
    expect(screen.getByText('Starting…')).toBeTruthy();
    expect(screen.queryByRole('navigation', { name: 'Conversations' })).toBeNull();
    releaseB();
    await screen.findByRole('navigation', { name: 'Conversations' });
    expect(accountButton('Home').getAttribute('aria-current')).toBe('true');
    expect(selectActiveAccount(store.getState())?.selfUserId).toBe(EMMA);
  });

  it('changes when the user switches accounts, and main is told', async () => {
    const { fake, releaseB } = twoAccounts();
    releaseB();
    const store = createChatStore();
    render(<App store={store} />);
    await screen.findByRole('navigation', { name: 'Conversations' });
    expect(store.getState().activeAccountId).toBe('b');
    fireEvent.click(accountButton('Work'));
    expect(store.getState().activeAccountId).toBe('a');
    expect(fake.switchAccount).toHaveBeenCalledWith({ accountId: 'a' });
    expect(accountButton('Work').getAttribute('aria-current')).toBe('true');
    // The sidebar now shows Work's unread message.
    const nav = screen.getByRole('navigation', { name: 'Conversations' });
    const general = within(nav).getByRole('button', { name: /^#general/ });
    expect(within(general).getByTestId('unread-count').textContent).toBe('1');
  });

  it('loads an account afresh when it is signed in again after removal', async () => {
    const { fake, releaseB } = twoAccounts();
    releaseB();
    const store = createChatStore();
    render(<App store={store} />);
    await waitFor(() => expect(store.getState().accounts.a).toBeDefined());
    const onAccounts = fake.on.mock.calls.find(([name]) => name === 'accounts')![1] as (
      changed: unknown,
    ) => void;
    // Work is signed out, then signed in again under the same id.
    onAccounts({ accounts: [summary('b', 'Home', EMMA)], activeAccountId: 'b' });
    expect(store.getState().accounts.a).toBeUndefined();
    onAccounts({
      accounts: [summary('a', 'Work', 1), summary('b', 'Home', EMMA)],
      activeAccountId: 'b',
    });
    await waitFor(() => expect(store.getState().accounts.a).toBeDefined());
    expect(fake.getSnapshot.mock.calls.filter(([i]) => i.accountId === 'a')).toHaveLength(2);
  });
});
