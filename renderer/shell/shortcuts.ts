// Global keyboard shortcuts: c compose, x new direct message, r reply, n next unread topic,
// / search, ? shortcut help, Esc close (menu, then overlay) or home view, Ctrl/Cmd+K switch
// conversation. Letters are ignored while typing in a field. Each key's entry carries its help text,
// so the help overlay (features/help, handed GLOBAL_SHORTCUTS by the shell) lists what this handler
// does.
import { useEffect, type RefObject } from 'react';
import type { ChatStore } from '../store';
import { selectActiveAccount } from '../store';
import { narrowKey, type Narrow } from '../../shared/narrow';
import { conversationOf, describeNarrow } from '../features/messages/narrow-info';
import { ALL_MESSAGES_ROUTE, navigate, requestCompose, uiStore } from '../store/ui-store';
import { nextUnreadConversation } from './next-unread';
import { homeRoute } from './home-view';
import type { ShortcutInfo } from '../features/help/shortcut-list';

function typingInField(target: EventTarget | null): boolean {
  const el = target as HTMLElement | null;
  if (!el) return false;
  return el.isContentEditable || ['INPUT', 'TEXTAREA', 'SELECT'].includes(el.tagName);
}

/** The last narrow in the route history that `pick` accepts (the current route included). */
function lastNarrow(pick: (narrow: Narrow) => boolean): Narrow | undefined {
  const { route, previous } = uiStore.getState();
  for (const r of [...previous, route].reverse())
    if (r.kind === 'narrow' && pick(r.narrow)) return r.narrow;
  return undefined;
}

/**
 * `c` and `x` outside a conversation view (inbox, recent, drafts, settings): compose lives in the
 * narrow view, so open one first: for `c` the last channel or topic visited, for `x` the last
 * narrow that is not a direct-message conversation (its recipients would fill the new message),
 * else all messages. The view's compose box takes the request as it mounts.
 */
function composeFrom(store: ChatStore, kind: 'channel' | 'dm'): void {
  if (uiStore.getState().route.kind === 'narrow') {
    requestCompose(kind);
    return;
  }
  const account = selectActiveAccount(store.getState());
  const target = lastNarrow((narrow) => {
    const info = describeNarrow(narrow, account);
    return kind === 'channel' ? info.streamId !== undefined : info.dmUserIds === undefined;
  });
  navigate(target ? { kind: 'narrow', narrow: target } : ALL_MESSAGES_ROUTE);
  // Taken by the narrow view's compose box as it mounts.
  requestCompose(kind);
}

/**
 * Esc closes the innermost open thing before it does anything else. An open menu, popover or
 * dialog is a Radix layer (lib/ui): it closes itself on Esc, gives the focus back and marks the key
 * handled before this window listener hears it. A field's own Esc is the field's (the search box
 * clears, the compose box lets go of the focus and keeps its draft). Then an overlay still drawn
 * without Radix closes. Only with nothing open does Esc navigate, as the public web app does: to
 * the home view when the person's web_escape_navigates_to_home_view says so (its default), else
 * nowhere.
 */
function onEscape(store: ChatStore, e: KeyboardEvent): void {
  if (e.defaultPrevented) return;
  if (uiStore.getState().overlay) {
    e.preventDefault();
    uiStore.setState({ overlay: null });
    return;
  }
  if (typingInField(e.target)) return;
  const settings = selectActiveAccount(store.getState())?.settings.user;
  if (settings?.web_escape_navigates_to_home_view === false) return;
  const home = homeRoute(settings?.web_home_view);
  const { route } = uiStore.getState();
  const atHome =
    route.kind === home.kind &&
    (route.kind !== 'narrow' ||
      (home.kind === 'narrow' && narrowKey(route.narrow) === narrowKey(home.narrow)));
  if (!atHome) navigate(home);
}

interface KeyAction extends ShortcutInfo {
  run(store: ChatStore, searchRef: RefObject<HTMLInputElement | null>, e: KeyboardEvent): void;
}

/** The single keys handled outside text fields, by `KeyboardEvent.key`. */
const KEY_ACTIONS: Record<string, KeyAction> = {
  c: {
    keys: ['c'],
    group: 'The basics',
    description: 'New message in a channel',
    run: (store, _, e) => {
      e.preventDefault();
      composeFrom(store, 'channel');
    },
  },
  x: {
    keys: ['x'],
    group: 'The basics',
    description: 'New direct message',
    run: (store, _, e) => {
      e.preventDefault();
      composeFrom(store, 'dm');
    },
  },
  r: {
    keys: ['r'],
    group: 'The basics',
    description: 'Reply to the selected message',
    run: (store, _, e) => {
      // Reply in the conversation of the selected message (arrow keys select one).
      e.preventDefault();
      const { selectedMessageId } = uiStore.getState();
      const account = selectActiveAccount(store.getState());
      const message =
        selectedMessageId !== null ? account?.messages.byId.get(selectedMessageId) : undefined;
      if (message && account) {
        const narrow = conversationOf(message, account.selfUserId);
        const route = uiStore.getState().route;
        if (route.kind !== 'narrow' || narrowKey(route.narrow) !== narrowKey(narrow))
          navigate({ kind: 'narrow', narrow, anchor: message.id });
      }
      requestCompose('reply');
    },
  },
  n: {
    keys: ['n'],
    group: 'Navigation',
    description: 'Next unread topic',
    run: (store) => {
      const { route } = uiStore.getState();
      const next = nextUnreadConversation(
        selectActiveAccount(store.getState()),
        route.kind === 'narrow' ? route.narrow : null,
      );
      if (next) navigate({ kind: 'narrow', narrow: next });
    },
  },
  '/': {
    keys: ['/'],
    group: 'Search',
    description: 'Search messages',
    run: (_, searchRef, e) => {
      e.preventDefault();
      searchRef.current?.focus();
    },
  },
  '?': {
    keys: ['?'],
    group: 'The basics',
    description: 'Show keyboard shortcuts',
    run: (_, __, e) => {
      e.preventDefault();
      uiStore.setState({ overlay: { kind: 'help' } });
    },
  },
};

/** What the global handler below does, for the help overlay. */
export const GLOBAL_SHORTCUTS: readonly ShortcutInfo[] = [
  {
    keys: ['Esc'],
    group: 'The basics',
    description: 'Close the open menu, dialog or overlay; with nothing open, go to the home view',
  },
  { keys: ['Ctrl+K', '⌘K'], group: 'Navigation', description: 'Switch conversation' },
  ...Object.values(KEY_ACTIONS).map(({ keys, group, description }) => ({
    keys,
    group,
    description,
  })),
];

export function useShortcuts(
  store: ChatStore,
  searchRef: RefObject<HTMLInputElement | null>,
): void {
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if ((e.ctrlKey || e.metaKey) && e.key.toLowerCase() === 'k') {
        e.preventDefault();
        uiStore.setState({ overlay: { kind: 'switcher' } });
        return;
      }
      if (e.key === 'Escape') {
        onEscape(store, e);
        return;
      }
      if (typingInField(e.target) || e.ctrlKey || e.metaKey || e.altKey) return;
      if (Object.hasOwn(KEY_ACTIONS, e.key)) KEY_ACTIONS[e.key].run(store, searchRef, e);
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [store, searchRef]);
}
