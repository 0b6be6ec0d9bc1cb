// Switching accounts as the public desktop app's organization tabs do: each account comes back where
// it was left (its home view the first time), and Ctrl+Tab, Ctrl+Shift+Tab and Ctrl+1…9 switch.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { cleanup, fireEvent, render } from '@testing-library/react';
import type { AccountSummary } from '../../../shared/ipc/accounts';
import {
  forgetAccountView,
  switchAccount,
} from '../../../renderer/features/accounts/switch-account';
import { createChatStore, type ChatStore } from '../../../renderer/store';
import { useShortcuts } from '../../../renderer/shell/shortcuts';
import { homeRoute, navigate, uiStore } from '../../../renderer/store/ui-store';
import { topicNarrow } from '../../../shared/narrow';
import { GENERAL, register } from '../store/fixtures';
import { installFakeApi, resetUi, type FakeApi } from '../chat/harness';

const summary = (id: string): AccountSummary => ({
  id,
  site: `http://127.0.0.1:9/${id}`,
  email: `${id}@example.test`,
  userId: 1,
  realmName: id,
  featureLevel: 400,
  secretBackend: 'file-0600',
  connection: { status: 'live', queueId: `q-${id}` },
});

let api: FakeApi;
let store: ChatStore;
beforeEach(() => {
  resetUi('a');
  api = installFakeApi();
  store = createChatStore();
  // Work opens on All messages; Home's person chose Recent conversations as their home view.
  const home = register();
  store.getState().replaceSnapshot('work', register());
  store.getState().replaceSnapshot('home', {
    ...home,
    user_settings: { ...home.user_settings, web_home_view: 'recent_topics' },
  });
  store.getState().replaceSnapshot('lab', register());
  store.getState().setActiveAccount('work');
  uiStore.setState({ accounts: [summary('work'), summary('home'), summary('lab')] });
  for (const id of ['work', 'home', 'lab']) forgetAccountView(id);
});
afterEach(cleanup);

function Shortcuts() {
  useShortcuts(store, { current: null });
  return null;
}

describe('switching accounts', () => {
  it('opens an account on its home view, then where it was left', () => {
    const lunch = { kind: 'narrow', narrow: topicNarrow(GENERAL, 'lunch') } as const;
    navigate(lunch);
    switchAccount(store, 'home');
    expect(store.getState().activeAccountId).toBe('home');
    expect(api.switchAccount).toHaveBeenCalledWith({ accountId: 'home' });
    expect(uiStore.getState().route).toEqual(homeRoute('recent_topics'));
    // Another account's history is not gone back into.
    expect(uiStore.getState().previous).toEqual([]);
    navigate({ kind: 'inbox' });

    switchAccount(store, 'work');
    expect(uiStore.getState().route).toEqual(lunch);
    switchAccount(store, 'home');
    expect(uiStore.getState().route).toEqual({ kind: 'inbox' });
  });

  it('does not bring back a screen over the chat (Settings)', () => {
    navigate({ kind: 'settings', section: 'profile' });
    switchAccount(store, 'home');
    switchAccount(store, 'work');
    expect(uiStore.getState().route).toEqual(homeRoute(register().user_settings.web_home_view));
  });

  it('switches with Ctrl+Tab, Ctrl+Shift+Tab (wrapping) and Ctrl+1…9, from a field too', () => {
    render(<Shortcuts />);
    fireEvent.keyDown(window, { key: 'Tab', ctrlKey: true });
    expect(store.getState().activeAccountId).toBe('home');
    fireEvent.keyDown(window, { key: 'Tab', ctrlKey: true });
    expect(store.getState().activeAccountId).toBe('lab');
    fireEvent.keyDown(window, { key: 'Tab', ctrlKey: true });
    expect(store.getState().activeAccountId).toBe('work');
    fireEvent.keyDown(window, { key: 'Tab', ctrlKey: true, shiftKey: true });
    expect(store.getState().activeAccountId).toBe('lab');
    const field = document.createElement('textarea');
    document.body.append(field);
    fireEvent.keyDown(field, { key: '2', ctrlKey: true });
    expect(store.getState().activeAccountId).toBe('home');
    field.remove();
    // No ninth account: nothing happens.
    fireEvent.keyDown(window, { key: '9', metaKey: true });
    expect(store.getState().activeAccountId).toBe('home');
  });
});
