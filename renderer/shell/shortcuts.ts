// Global keyboard shortcuts, as the public web app defines them: compose and reply (c, x, r,
// Shift+R, @, >), moving the message selection from anywhere (j, k, Shift+G), going places (n,
// Shift+N, p, s, Shift+I, t, a, Shift+P, *, d), filters (/, q, w), the selected message's actions
// (Ctrl+S, +, =, Shift+M, u; message-keys.ts), ? help, Esc close (menu, dialog, overlay) or home view,
// Ctrl/Cmd+K search, Ctrl/Cmd+Shift+K switch conversation. Letters are ignored while typing in a field and behind a dialog.
// Each key's entry carries its help text, so the help overlay (features/help, handed
// GLOBAL_SHORTCUTS by the shell) lists what this handler does.
import { useEffect, type RefObject } from 'react';
import type { AccountState, ChatStore } from '../store';
import { accountAt, neighbourAccount, switchAccount } from '../features/accounts/switch-account';
import { selectActiveAccount } from '../store';
import { narrowKey, type Narrow } from '../../shared/narrow';
import { describeNarrow } from '../features/messages/narrow-info';
import {
  ALL_MESSAGES_ROUTE,
  goBack,
  navigate,
  requestCompose,
  toggleUserList,
  uiStore,
  type Route,
} from '../store/ui-store';
import {
  nextUnreadConversation,
  nextUnreadDmConversation,
  nextUnreadFollowedTopic,
} from './next-unread';
import {
  quoteMessage,
  replyMentioningSender,
  replyToMessage,
  replyToSender,
  showSenderCard,
  toggleConversationView,
  toggleFirstReaction,
  toggleStar,
  toggleThumbsUp,
  toggleTopicMute,
} from './message-keys';
import { moveSelection, type SelectionMove } from '../features/messages/selection-cursor';
import { homeRoute } from '../store/ui-store';
import { closeScreen } from './ScreenOverlay';
import { leaveSettings } from '../features/settings/form/unsaved';
import type { ShortcutInfo } from '../features/help/shortcut-list';
import { typingInField } from '../lib/typing-in-field';

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
  // Settings or the channel browser over the window (the focus outside it): closed as its own Esc
  // and close button do, asking first about settings that could not be saved.
  const screen = openScreen();
  if (screen) {
    e.preventDefault();
    closeScreen(screen);
    return;
  }
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

/** The full-window screen on show, if any. */
function openScreen(): 'settings' | 'channels' | null {
  const { kind } = uiStore.getState().route;
  return kind === 'settings' || kind === 'channels' ? kind : null;
}

interface KeyAction extends ShortcutInfo {
  run(store: ChatStore, searchRef: RefObject<HTMLInputElement | null>, e: KeyboardEvent): void;
}

/** The open narrow, or null outside a message view. */
function openNarrow(): Narrow | null {
  const { route } = uiStore.getState();
  return route.kind === 'narrow' ? route.narrow : null;
}

/** Focuses the first element `selector` finds, waiting a few frames for one that is mounting. */
function focusWhenShown(selector: string, framesLeft = 10): void {
  const el = document.querySelector<HTMLElement>(selector);
  if (el) el.focus();
  else if (framesLeft > 0) requestAnimationFrame(() => focusWhenShown(selector, framesLeft - 1));
}

/** A key that opens a view (or, for `d`, closes it again). */
function goTo(route: Route, toggles = false): KeyAction['run'] {
  return (_, __, e) => {
    e.preventDefault();
    const current = uiStore.getState().route;
    if (toggles && current.kind === route.kind) goBack();
    else navigate(route);
  };
}

/** A key that opens the next unread conversation `pick` finds after the open one, if any. */
function goToNext(
  pick: (account: AccountState | undefined, open: Narrow | null) => Narrow | null,
): KeyAction['run'] {
  return (store) => {
    const next = pick(selectActiveAccount(store.getState()), openNarrow());
    if (next) navigate({ kind: 'narrow', narrow: next });
  };
}

/** A key that acts on the selected message (message-keys.ts). */
function onMessage(action: (store: ChatStore) => void): KeyAction['run'] {
  return (store, _, e) => {
    e.preventDefault();
    action(store);
  };
}

/** A key that moves the message selection (the open message list's cursor). */
function moveTo(to: SelectionMove): KeyAction['run'] {
  return (_, __, e) => {
    if (!moveSelection(to)) return;
    e.preventDefault();
    // On the list, so the arrow keys and Home/End carry on from here.
    document.querySelector<HTMLElement>('.message-list')?.focus({ preventScroll: true });
  };
}

/**
 * The single keys handled outside text fields, by `KeyboardEvent.key` (a capital letter is the key
 * with Shift), as the public web app defines them.
 */
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
    // Enter too, on the message list itself (on a button or link in it, Enter is that control's).
    keys: ['r', 'Enter'],
    group: 'The basics',
    description: 'Reply to the selected message',
    run: onMessage(replyToMessage),
  },
  R: {
    keys: ['Shift+R'],
    group: 'Composing messages',
    description: 'Reply directly to the sender',
    run: onMessage(replyToSender),
  },
  '@': {
    keys: ['@'],
    group: 'Composing messages',
    description: 'Reply @-mentioning the sender',
    run: onMessage(replyMentioningSender),
  },
  '>': {
    keys: ['>'],
    group: 'Composing messages',
    description: 'Quote the selected message',
    run: onMessage(quoteMessage),
  },
  j: { keys: ['j'], group: 'Navigation', description: 'Next message', run: moveTo('next') },
  k: { keys: ['k'], group: 'Navigation', description: 'Previous message', run: moveTo('previous') },
  G: { keys: ['Shift+G'], group: 'Navigation', description: 'Last message', run: moveTo('last') },
  n: {
    keys: ['n'],
    group: 'Navigation',
    description: 'Next unread topic',
    run: goToNext(nextUnreadConversation),
  },
  N: {
    keys: ['Shift+N'],
    group: 'Navigation',
    description: 'Next unread followed topic',
    run: goToNext(nextUnreadFollowedTopic),
  },
  p: {
    keys: ['p'],
    group: 'Navigation',
    description: 'Next unread direct message',
    run: goToNext(nextUnreadDmConversation),
  },
  s: {
    keys: ['s'],
    group: 'Navigation',
    description: 'Go to the selected message’s conversation; from a topic, to its channel',
    run: onMessage(toggleConversationView),
  },
  I: { keys: ['Shift+I'], group: 'Navigation', description: 'Inbox', run: goTo({ kind: 'inbox' }) },
  t: {
    keys: ['t'],
    group: 'Navigation',
    description: 'Recent conversations; in them, the filter box',
    // As the public web app's `t` in Recent conversations: the keyboard goes to the filter box.
    run: (store, searchRef, e) => {
      if (uiStore.getState().route.kind !== 'recent')
        return goTo({ kind: 'recent' })(store, searchRef, e);
      e.preventDefault();
      focusWhenShown('.view.recent .recent-filters input[type="search"]');
    },
  },
  a: {
    keys: ['a'],
    group: 'Navigation',
    description: 'All messages',
    run: goTo(ALL_MESSAGES_ROUTE),
  },
  P: {
    keys: ['Shift+P'],
    group: 'Navigation',
    description: 'Direct message feed',
    run: goTo({ kind: 'narrow', narrow: [{ operator: 'is', operand: 'dm' }] }),
  },
  '*': {
    keys: ['*'],
    group: 'Navigation',
    description: 'Starred messages',
    run: goTo({ kind: 'narrow', narrow: [{ operator: 'is', operand: 'starred' }] }),
  },
  d: {
    keys: ['d'],
    group: 'Navigation',
    description: 'Drafts (again to close)',
    run: goTo({ kind: 'drafts' }, true),
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
  q: {
    keys: ['q'],
    group: 'Search',
    description: 'Filter channels',
    run: (_, __, e) => {
      e.preventDefault();
      focusWhenShown('input[aria-label="Filter sidebar channels"]');
    },
  },
  w: {
    keys: ['w'],
    group: 'Search',
    description: 'Search people',
    run: (_, __, e) => {
      e.preventDefault();
      if (!uiStore.getState().userListOpen) toggleUserList();
      focusWhenShown('input[aria-label="Search people"]');
    },
  },
  '+': {
    keys: ['+'],
    group: 'Message actions',
    description: 'React with thumbs up (again to take it back)',
    run: onMessage(toggleThumbsUp),
  },
  '=': {
    keys: ['='],
    group: 'Message actions',
    description: 'Join or leave the first reaction',
    run: onMessage(toggleFirstReaction),
  },
  u: {
    keys: ['u'],
    group: 'Message actions',
    description: 'Show the sender’s card',
    run: onMessage(showSenderCard),
  },
  M: {
    keys: ['Shift+M'],
    group: 'Message actions',
    description: 'Mute or unmute the topic',
    run: onMessage(toggleTopicMute),
  },
  '?': {
    keys: ['?'],
    group: 'The basics',
    description: 'Show keyboard shortcuts',
    run: (_, __, e) => {
      e.preventDefault();
      const open = uiStore.getState().overlay?.kind === 'help';
      uiStore.setState({ overlay: open ? null : { kind: 'help' } });
    },
  },
};

/** Keys with Ctrl (⌘ on macOS), by `Shift+` and the lower-case key. */
const CTRL_KEY_ACTIONS: Record<string, KeyAction> = {
  // The public web app's second search key.
  k: {
    keys: ['Ctrl+K', '⌘K'],
    group: 'Search',
    description: 'Search messages',
    run: (_, searchRef, e) => {
      e.preventDefault();
      searchRef.current?.focus();
    },
  },
  // Tributary's own: the web app has no switcher.
  'Shift+k': {
    keys: ['Ctrl+Shift+K', '⇧⌘K'],
    group: 'Navigation',
    description: 'Switch conversation',
    run: (_, __, e) => {
      e.preventDefault();
      uiStore.setState({ overlay: { kind: 'switcher' } });
    },
  },
  s: {
    keys: ['Ctrl+S', '⌘S'],
    group: 'Message actions',
    description: 'Star or unstar the selected message',
    run: onMessage(toggleStar),
  },
  // The public desktop app's Window menu.
  tab: {
    keys: ['Ctrl+Tab'],
    group: 'Accounts',
    description: 'Next account',
    run: toAccount((store) => neighbourAccount(store, 1)),
  },
  'Shift+tab': {
    keys: ['Ctrl+Shift+Tab'],
    group: 'Accounts',
    description: 'Previous account',
    run: toAccount((store) => neighbourAccount(store, -1)),
  },
  ...Object.fromEntries(
    [1, 2, 3, 4, 5, 6, 7, 8, 9].map((n) => [
      String(n),
      {
        // One row in the help for the nine.
        keys: n === 1 ? ['Ctrl+1…9', '⌘1…9'] : [],
        group: 'Accounts',
        description: 'The first to ninth account in the rail',
        run: toAccount(() => accountAt(n)),
      },
    ]),
  ),
};

/** A key that shows another account (none behind a dialog, where it would change what is under it). */
function toAccount(pick: (store: ChatStore) => string | null): KeyAction['run'] {
  return (store, _, e) => {
    if (document.querySelector('[aria-modal="true"]')) return;
    const accountId = pick(store);
    if (!accountId) return;
    e.preventDefault();
    switchAccount(store, accountId);
  };
}

/**
 * Ctrl+K and Ctrl+Shift+K work from a field too, and so do the account keys (menu accelerators in
 * the desktop app); Ctrl+S acts on a message, not on text.
 */
const FROM_FIELDS = new Set(['k', 'Shift+k', 'tab', 'Shift+tab', ...'123456789']);

const helpOf = ({ keys, group, description }: KeyAction): ShortcutInfo => ({
  keys,
  group,
  description,
});

/** What the global handler below does, for the help overlay: one row per action (`/` and Ctrl+K
 * both search, as the web app's help lists them). */
const ESC_HELP: ShortcutInfo = {
  keys: ['Esc'],
  group: 'The basics',
  description: 'Close the open menu, dialog or overlay; with nothing open, go to the home view',
};

export const GLOBAL_SHORTCUTS: readonly ShortcutInfo[] = [
  ESC_HELP,
  ...Object.values(KEY_ACTIONS).map(helpOf),
  ...Object.values(CTRL_KEY_ACTIONS).map(helpOf),
].reduce<ShortcutInfo[]>((rows, info) => {
  const same = rows.find((r) => r.group === info.group && r.description === info.description);
  if (same) same.keys = [...same.keys, ...info.keys];
  else rows.push({ ...info, keys: [...info.keys] });
  return rows;
}, []);

export function useShortcuts(
  store: ChatStore,
  searchRef: RefObject<HTMLInputElement | null>,
): void {
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      const ctrl = e.ctrlKey || e.metaKey;
      const ctrlKey = `${e.shiftKey ? 'Shift+' : ''}${e.key.toLowerCase()}`;
      if (ctrl && !e.altKey && Object.hasOwn(CTRL_KEY_ACTIONS, ctrlKey)) {
        if (FROM_FIELDS.has(ctrlKey) || !typingInField(e.target))
          CTRL_KEY_ACTIONS[ctrlKey].run(store, searchRef, e);
        return;
      }
      if (e.key === 'Escape') {
        onEscape(store, e);
        return;
      }
      if (typingInField(e.target) || e.ctrlKey || e.metaKey || e.altKey || e.defaultPrevented)
        return;
      const key =
        e.key === 'Enter' && (e.target as HTMLElement | null)?.classList?.contains('message-list')
          ? 'r'
          : e.key;
      if (!Object.hasOwn(KEY_ACTIONS, key)) return;
      // Over Settings or the channel browser the chat's keys would act on what is hidden; only
      // the compose keys leave it (as its close button does, asking about unsaved settings).
      const screen = openScreen();
      if (screen && key !== '?') {
        if (key !== 'c' && key !== 'x') return;
        e.preventDefault();
        const compose = () => KEY_ACTIONS[key].run(store, searchRef, e);
        if (screen === 'settings') leaveSettings(compose);
        else compose();
        return;
      }
      // A capital letter is its Shift shortcut only with Shift (not with Caps Lock).
      if (/^[A-Z]$/.test(key) && !e.shiftKey) return;
      // Behind a dialog (the image viewer's + and -, a form) only `?` (to close the help) counts.
      if (key !== '?' && document.querySelector('[aria-modal="true"]')) return;
      KEY_ACTIONS[key].run(store, searchRef, e);
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [store, searchRef]);
}
