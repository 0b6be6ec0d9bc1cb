// Keeps a copy of the chat as it is on screen for the next launch's first screen (renderer/first-screen.ts
// shows it before the app has loaded). Taken from a clone of #root, never the live DOM, a while after
// the screen settles (when the page is idle) and when the page is hidden or left; only of a chat view
// with its content (a message list with messages, the Inbox, Recent), never of sign-in, settings or an
// open dialog. Main cleans it again and seals it (electron/first-screen); this side drops what would
// confuse the next page (test ids, element ids, typed text) and records what the clone cannot carry:
// the scroll offsets of its scrolled boxes, the theme on <html>, the window's width.
import type { FirstScreen } from '../../../shared/ipc/first-screen';
import {
  FIRST_SCREEN_MAX_CHARS,
  type FirstScreenLaunchKey,
} from '../../../shared/ipc/first-screen-view';
import type { Api } from '../../bridge/api';
import { firstScreenShowing, firstScreenView } from '../../lib/first-screen-handoff';
import { markFirstScreenTimes } from '../../lib/first-screen-times';
import { selectActiveAccount, type ChatStore } from '../../store';
import { homeRoute, uiStore, type Route } from '../../store/ui-store';
import type { UserSettings } from '../../../shared/api/types';

/** After the last change on screen, how long it must hold still before a copy is taken. */
const SETTLE_MS = 2_000;
/** At most one copy per this long (a busy channel changes the screen all the time). */
const MIN_INTERVAL_MS = 5_000;

/** <html>'s theme as renderer/lib/theme.ts sets it: what the early script applies before the app. */
const THEME_ATTRIBUTES = ['data-theme', 'data-color-scheme', 'data-emojiset'];
const THEME_VARIABLES = ['--font-size', '--line-height'];

/** Transient things that may sit inside #root: not part of the screen to come back to. */
const TRANSIENT =
  '[role="tooltip"], [role="menu"], [role="dialog"], [data-radix-popper-content-wrapper]';

/** The view a launch URL can name (`view=`) that `route` is, or null. */
function launchView(route: Route): 'inbox' | 'recent' | 'all' | null {
  if (route.kind === 'inbox' || route.kind === 'recent') return route.kind;
  return route.kind === 'narrow' && route.narrow.length === 0 ? 'all' : null;
}

/**
 * The launch URLs this screen is what opens (shared/ipc/first-screen.ts): its own view's fragment,
 * and '' when it is the home view (homeRoute). Main knows the conversation a launch without a view
 * reopens, and adds or drops '' by it.
 */
export function launchKeys(
  route: Route,
  homeView: UserSettings['web_home_view'],
): FirstScreenLaunchKey[] {
  const view = launchView(route);
  if (!view) return [];
  return view === launchView(homeRoute(homeView)) ? [`view=${view}`, ''] : [`view=${view}`];
}

/**
 * #root's markup as a next page may show it, or null when it is over the size cap. Its times are
 * marked for the next page to label again at its own now (lib/first-screen-times.ts).
 */
export function copyOfScreen(root: HTMLElement, twentyFourHour = false): string | null {
  const copy = root.cloneNode(true) as HTMLElement;
  // Offsets first, element by element (clone and original list their elements in the same order).
  const live = root.querySelectorAll('*');
  const copied = copy.querySelectorAll('*');
  live.forEach((element, index) => {
    const top = element.scrollTop;
    if (top > 0)
      copied[index]?.setAttribute('data-first-screen-scroll-top', String(Math.round(top)));
  });
  for (const element of copy.querySelectorAll(TRANSIENT)) element.remove();
  for (const element of copy.querySelectorAll('[data-testid], [id]')) {
    element.removeAttribute('data-testid');
    element.removeAttribute('id');
  }
  // A select shows its chosen option by property, which a clone does not carry.
  const selects = copy.querySelectorAll('select');
  root.querySelectorAll('select').forEach((select, index) => {
    selects[index]?.options[select.selectedIndex]?.setAttribute('selected', '');
  });
  for (const input of copy.querySelectorAll('input')) input.removeAttribute('value');
  for (const area of copy.querySelectorAll('textarea')) area.textContent = '';
  markFirstScreenTimes(copy, twentyFourHour);
  const html = copy.innerHTML;
  return html.length > FIRST_SCREEN_MAX_CHARS ? null : html;
}

function themeOf(html: HTMLElement): FirstScreen['theme'] {
  const theme: FirstScreen['theme'] = {};
  for (const name of THEME_ATTRIBUTES) {
    const value = html.getAttribute(name);
    if (value) theme[name] = value;
  }
  for (const name of THEME_VARIABLES) {
    const value = html.style.getPropertyValue(name).trim();
    if (value) theme[name] = value;
  }
  return theme;
}

/** Whether #root shows a chat view with its content, and nothing over it. */
function showsChat(root: HTMLElement, route: Route): boolean {
  const { accountsLoaded, overlay } = uiStore.getState();
  if (!accountsLoaded || overlay || firstScreenShowing() || root.querySelector(TRANSIENT))
    return false;
  if (route.kind === 'narrow') return root.querySelector('[data-testid="message"]') !== null;
  return root.querySelector('.view.inbox, .view.recent') !== null;
}

/**
 * Watches the screen and hands main a copy when it settles and when the page is hidden or left.
 * Returns the function that stops it.
 */
export function startFirstScreenCapture(api: Api, store: ChatStore): () => void {
  const root = document.getElementById('root');
  if (!root) return () => undefined;
  let lastSent = '';
  let lastAt = -Infinity;
  let settle: ReturnType<typeof setTimeout> | undefined;
  let idle: number | undefined;

  const capture = () => {
    const { route } = uiStore.getState();
    const view = firstScreenView(route);
    const chat = store.getState();
    const accountId = chat.activeAccountId;
    const account = selectActiveAccount(chat);
    if (!view || !accountId || !account || !showsChat(root, route)) return;
    const keys = launchKeys(route, account.settings.user.web_home_view);
    const html = copyOfScreen(root, !!account.settings.user.twenty_four_hour_time);
    if (!html || html === lastSent) return;
    lastSent = html;
    lastAt = performance.now();
    const screen = {
      html,
      view,
      width: window.innerWidth,
      theme: themeOf(document.documentElement),
    };
    void api.saveFirstScreen({ accountId, keys, screen }).catch(() => undefined);
  };

  const schedule = () => {
    clearTimeout(settle);
    const wait = Math.max(SETTLE_MS, lastAt + MIN_INTERVAL_MS - performance.now());
    settle = setTimeout(() => {
      if (typeof requestIdleCallback !== 'function') return capture();
      if (idle !== undefined) cancelIdleCallback(idle);
      idle = requestIdleCallback(() => ((idle = undefined), capture()), { timeout: SETTLE_MS });
    }, wait);
  };
  const now = () => {
    clearTimeout(settle);
    capture();
  };
  const onVisibility = () => document.visibilityState === 'hidden' && now();

  const observer = new MutationObserver(schedule);
  observer.observe(root, { subtree: true, childList: true, characterData: true, attributes: true });
  root.addEventListener('scroll', schedule, { capture: true, passive: true });
  document.addEventListener('visibilitychange', onVisibility);
  window.addEventListener('pagehide', now);
  return () => {
    observer.disconnect();
    clearTimeout(settle);
    if (idle !== undefined) cancelIdleCallback(idle);
    root.removeEventListener('scroll', schedule, { capture: true });
    document.removeEventListener('visibilitychange', onVisibility);
    window.removeEventListener('pagehide', now);
  };
}
