// App-level state that is not realm state: the account list and each account's connection as main
// reports it (with retry times), uploads in flight, and which screen is showing. The realm state
// itself, and which account is active (activeAccountId), live in renderer/store.
import type { LocalRealmStatus } from '../../shared/ipc/system';
import { createStore } from 'zustand/vanilla';
import { useStore } from 'zustand';
import type { AccountSummary } from '../../shared/ipc/accounts';
import type { ConnectionState } from '../../shared/ipc/common';
import type { UploadProgress } from '../../shared/ipc/uploads';
import type { LocalDraft } from '../../shared/ipc/drafts';
import type { MeetingRef } from '../../shared/ipc/meetings';
import type { Narrow } from '../../shared/narrow';
import type { UserSettings } from '../../shared/api/types';
import { publicHomeView } from '../../shared/api/public-names';
import { readKept, writeKept } from '../lib/kept-choice';

export type Route =
  | { kind: 'narrow'; narrow: Narrow; anchor?: number }
  | { kind: 'inbox' }
  | { kind: 'recent' }
  | { kind: 'drafts' }
  | { kind: 'scheduled' }
  | { kind: 'settings'; section?: string }
  /** The channel browser; with streamId, that channel's settings beside it; with create, the form. */
  | { kind: 'channels'; streamId?: number; create?: boolean }
  /** With site, the server a deep link named, filled in. */
  | { kind: 'signin'; site?: string }
  /** The meeting viewer: a local manifest by path, or a meeting shared in a message. */
  | { kind: 'manifest'; path?: string; meeting?: MeetingRef };

export interface UiState {
  accounts: AccountSummary[];
  /** Filled once listAccounts has answered (before that we do not know whether to show sign-in). */
  accountsLoaded: boolean;
  connections: Record<string, ConnectionState>;
  /** Whether the page reaches the app's own process (browser mode; always so in Electron). */
  host: 'connected' | 'lost';
  /** The local realm server's process, when this launch runs one (null: none, or not heard yet). */
  localRealm: LocalRealmStatus | null;
  uploads: Record<string, UploadProgress>;
  /** Main's drafts (persisted locally, synced with the server), per account. */
  drafts: Record<string, LocalDraft[]>;
  /**
   * Accounts shown from the local cache: the server has not answered since launch. 'seed': the
   * cache holds what the app was built with (a first launch's demo account), not a run's copy.
   */
  fromCache: Record<string, boolean | 'seed'>;
  /**
   * Whether the view was chosen (a launch fragment, a navigation, a restored conversation): the
   * home view (web_home_view) only decides the first view of a launch when nothing else has.
   */
  routeChosen: boolean;
  route: Route;
  /** Route history for Esc / back. */
  previous: Route[];
  /** Message the keyboard cursor is on (arrow keys), per open narrow. */
  selectedMessageId: number | null;
  /** The message being edited in place (its row shows the edit box), in the open view. */
  editingMessageId: number | null;
  /** The message whose edit history is open below it (its marker or its menu opened it). */
  historyMessageId: number | null;
  /** Request to open the compose box (c, x, r, quote): a counter so repeated presses re-trigger. */
  composeRequest: ComposeRequest | null;
  /** The seq of the last request a compose box took (or a navigation dropped). */
  composeHandled: number;
  /** The right sidebar's user list is shown (remembered across launches). */
  userListOpen: boolean;
  /** Overlay: the conversation switcher (Ctrl+K), a user's card or profile, the status editor. */
  overlay:
    | { kind: 'switcher' }
    | { kind: 'profile'; userId: number }
    /** The user card anchored to a name (viewport coordinates of the name). */
    | { kind: 'user'; userId: number; anchor: { top: number; bottom: number; left: number } }
    | { kind: 'status' }
    /** The keyboard shortcuts (`?`). */
    | { kind: 'help' }
    | null;
}

/** Where a message goes: a channel's topic, or the people of a direct conversation. */
export type ComposeDestination =
  { type: 'stream'; streamId: number; topic: string } | { type: 'private'; to: number[] };

export interface ComposeRequest {
  kind: 'channel' | 'dm' | 'reply' | 'quote';
  seq: number;
  text?: string;
  /** A reply to a clicked message: its conversation (a box already holding text keeps its own). */
  to?: ComposeDestination;
  /** The view it was made for (the route at the time): only that view's compose box takes it. */
  route: Route;
}

export const ALL_MESSAGES_ROUTE: Route = { kind: 'narrow', narrow: [] };

/** The view the app opens on by the user's web_home_view (shell/home-view.ts applies it). */
export function homeRoute(view: UserSettings['web_home_view']): Route {
  if (publicHomeView(view) === 'recent_topics') return { kind: 'recent' };
  if (view === 'all_messages') return ALL_MESSAGES_ROUTE;
  return { kind: 'inbox' };
}

/**
 * The view a launch URL names (`#view=inbox` or `#view=recent`, beside browser mode's secret), else
 * all messages: benchmarks and links open a given view without a click.
 */
function launchRoute(): Route | null {
  let view: string | null = null;
  try {
    view = new URLSearchParams(globalThis.location?.hash.replace(/^#/, '') ?? '').get('view');
  } catch {
    // No location (tests in Node): the default view.
  }
  if (view === 'inbox' || view === 'recent') return { kind: view };
  if (view === 'all') return ALL_MESSAGES_ROUTE;
  return null;
}

const launchView = launchRoute();

// Before the store, which reads it as it is made: read later, the key was not yet defined and the
// people list opened every launch whatever was chosen last time.
const USER_LIST_KEY = 'tributary.userListOpen';

export const uiStore = createStore<UiState>()(() => ({
  accounts: [],
  accountsLoaded: false,
  connections: {},
  host: 'connected',
  localRealm: null,
  uploads: {},
  drafts: {},
  fromCache: {},
  route: launchView ?? ALL_MESSAGES_ROUTE,
  routeChosen: launchView !== null,
  previous: [],
  selectedMessageId: null,
  editingMessageId: null,
  historyMessageId: null,
  composeRequest: null,
  composeHandled: 0,
  overlay: null,
  userListOpen: readUserListOpen(),
}));

function readUserListOpen(): boolean {
  // Kept as "true" / "false": JSON, so older windows' choices still read.
  return readKept(USER_LIST_KEY, (kept) => (kept === false ? false : undefined), true);
}

export function toggleUserList(): void {
  const open = !uiStore.getState().userListOpen;
  uiStore.setState({ userListOpen: open });
  writeKept(USER_LIST_KEY, open);
}

export function useUi<T>(selector: (state: UiState) => T): T {
  return useStore(uiStore, selector);
}

/** Opens the edit box in the message's row (one message at a time, as in the web app). */
export function startEditing(messageId: number): void {
  uiStore.setState({ editingMessageId: messageId });
}

export function stopEditing(): void {
  uiStore.setState({ editingMessageId: null });
}

/** Opens a message's edit history below it, or closes it when it is the one open. */
export function toggleEditHistory(messageId: number): void {
  const open = uiStore.getState().historyMessageId;
  uiStore.setState({ historyMessageId: open === messageId ? null : messageId });
}

export function navigate(route: Route): void {
  const { route: current, previous, composeRequest } = uiStore.getState();
  uiStore.setState({
    route,
    routeChosen: true,
    previous: [...previous.slice(-20), current],
    selectedMessageId: null,
    editingMessageId: null,
    historyMessageId: null,
    // A request nobody took was for the view being left.
    composeHandled: composeRequest?.seq ?? 0,
  });
}

/**
 * Shows `route` in place of the current one, which leaves the history: a view that no longer exists
 * (a topic moved away) or a form that is done (sign-in) is never gone back to.
 */
/**
 * Back to the route a page opens on, as if it had opened with an account: the launch URL's view,
 * else All messages until the home view (web_home_view) replaces it. For a first launch, whose
 * page opens before the launcher has signed in to the demo realm (the sign-in route meanwhile).
 */
export function restoreStartRoute(): void {
  uiStore.setState({ route: launchView ?? ALL_MESSAGES_ROUTE, routeChosen: launchView !== null });
}

export function replaceRoute(route: Route): void {
  uiStore.setState({ route, routeChosen: true });
}

export function goBack(): void {
  const { previous, composeRequest } = uiStore.getState();
  // The sign-in form is a step, not a place: back never reopens it.
  const at = previous.findLastIndex((r) => r.kind !== 'signin');
  const last = previous[at];
  if (!last) return;
  uiStore.setState({
    route: last,
    previous: previous.slice(0, at),
    selectedMessageId: null,
    editingMessageId: null,
    historyMessageId: null,
    composeHandled: composeRequest?.seq ?? 0,
  });
}

/**
 * Where Back and Cancel lead from a screen outside the chat (sign-in, the manifest viewer): the view
 * the person came from, else the chat when there is an account, else sign-in.
 */
export function leaveScreen(hasAccount: boolean): void {
  const { previous } = uiStore.getState();
  if (previous.some((r) => r.kind !== 'signin')) goBack();
  else replaceRoute(hasAccount ? ALL_MESSAGES_ROUTE : { kind: 'signin' });
}

/**
 * Asks the compose box of the current view to open (and insert `text`). Made right after a
 * navigation, it waits for the new view's compose box to show that view (its draft restored), so
 * the text is not wiped by the change of view.
 */
export function requestCompose(
  kind: ComposeRequest['kind'],
  text?: string,
  to?: ComposeDestination,
): void {
  const { composeRequest, route } = uiStore.getState();
  const seq = (composeRequest?.seq ?? 0) + 1;
  uiStore.setState({ composeRequest: { kind, seq, text, to, route } });
}

/**
 * The compose request for `shownRoute` that no compose box has taken yet, marked taken; null when
 * there is none (or it is for another view).
 */
export function takeComposeRequest(shownRoute: Route): ComposeRequest | null {
  const { composeRequest, composeHandled } = uiStore.getState();
  if (!composeRequest || composeRequest.seq <= composeHandled) return null;
  if (composeRequest.route !== shownRoute) return null;
  uiStore.setState({ composeHandled: composeRequest.seq });
  return composeRequest;
}
