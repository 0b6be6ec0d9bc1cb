// Switching the shown account, as the public desktop app's organization tabs behave: each account
// comes back where it was left (its conversation, the Inbox, Recent), or on its home view the first
// time; Ctrl+Tab / Ctrl+Shift+Tab and Ctrl+1…9 switch as its Window menu does.
import type { ChatStore } from '../../store';
import { api } from '../../bridge/api';
import { homeRoute, uiStore, type Route } from '../../store/ui-store';

/** The chat view each account was left on in this window (screens over the chat are not kept). */
const leftOn = new Map<string, Route>();

/** Forgets them, as a new window starts (the renderer tests start each file so). */
export function forgetLeftViews(): void {
  leftOn.clear();
}

const CHAT_VIEWS: ReadonlySet<Route['kind']> = new Set([
  'narrow',
  'inbox',
  'recent',
  'drafts',
  'scheduled',
]);

export function switchAccount(store: ChatStore, accountId: string): void {
  if (store.getState().activeAccountId === accountId) return;
  showAccount(store, accountId);
  void api().switchAccount({ accountId });
}

/** Shows an account main has already made the active one (after a removal, say). */
export function showAccount(store: ChatStore, accountId: string): void {
  const { activeAccountId, accounts } = store.getState();
  const { route } = uiStore.getState();
  if (activeAccountId && activeAccountId !== accountId && CHAT_VIEWS.has(route.kind))
    leftOn.set(activeAccountId, route);
  store.getState().setActiveAccount(accountId);
  const homeView = accounts[accountId]?.settings.user?.web_home_view;
  uiStore.setState({
    route: leftOn.get(accountId) ?? homeRoute(homeView),
    routeChosen: true,
    // History holds the other account's narrows, whose ids mean nothing here.
    previous: [],
    selectedMessageId: null,
    editingMessageId: null,
  });
}

/** The account `step` places after (or before) the shown one in the rail, wrapping around. */
export function neighbourAccount(store: ChatStore, step: 1 | -1): string | null {
  const { accounts } = uiStore.getState();
  if (accounts.length < 2) return null;
  const at = accounts.findIndex((a) => a.id === store.getState().activeAccountId);
  return accounts[(at + step + accounts.length) % accounts.length].id;
}

/** The rail's `n`th account (1-based), if there is one. */
export function accountAt(n: number): string | null {
  return uiStore.getState().accounts[n - 1]?.id ?? null;
}

/** Forgets what an account was left on (it was removed or signed out). */
export function forgetAccountView(accountId: string): void {
  leftOn.delete(accountId);
}
