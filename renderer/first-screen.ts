// The page's early script: shows the last screen of the chat the moment the page arrives, while the
// app's own script (far larger) still loads and renders. Main keeps that screen, cleaned and sealed
// (electron/first-screen); here it is asked for with the launch's view (the URL fragment's view=,
// as renderer/store/ui-store.ts reads it) and put in an inert overlay over #root, which the app
// removes once its own screen is painted (lib/first-screen-handoff.ts). Its times are labelled again
// as of now with the app's own functions (lib/first-screen-times.ts, the one module it bundles). The
// build puts its text inline, first in the page's <head> (vite.config.ts), so it runs as soon as the
// parser reaches it, while the stylesheet and the app's script are still on their way. In browser
// mode the host usually put the screens in the page itself, just before this script
// (electron/host/first-screen-route.ts `inPage`): then nothing is asked and the copy is ready before
// the parse ends. Any failure shows nothing.
import { relabelFirstScreenTimes } from './lib/first-screen-times';

/** The layout's breakpoints (shell/layout.ts, styles/app.css): a screen shows only in its own band. */
const BREAKPOINTS = [770, 1024, 1200];
/** The views a launch URL can name (ui-store.ts launchRoute). */
const LAUNCH_VIEWS = ['inbox', 'recent', 'all'];
/** Nothing the app does removes it by then (it failed to start): the stale screen goes anyway. */
const FALLBACK_MS = 10_000;

interface KeptScreen {
  html: string;
  view: string;
  width: number;
  theme: Record<string, string>;
}

type FirstScreenBridge = { firstScreen?: (input: { key: string }) => Promise<KeptScreen | null> };

const band = (width: number) => BREAKPOINTS.filter((b) => width >= b).length;

/** Shared/ipc/wire.ts FIRST_SCREEN_ELEMENT_ID; early-listener.mjs PAGE_TOKEN_PARAM. */
const IN_PAGE_ID = 'first-screen-kept';
const PAGE_TOKEN_PARAM = 'screen';

/**
 * The screen the host put in the page for this launch's view, null when it put the account's
 * screens and none is for this view, undefined when it put none (then the script asks).
 */
function screenInPage(key: string): KeptScreen | null | undefined {
  // Used once by the host: a reload or a copied address has no use for it.
  const url = new URL(location.href);
  if (url.searchParams.has(PAGE_TOKEN_PARAM)) {
    url.searchParams.delete(PAGE_TOKEN_PARAM);
    history.replaceState(history.state, '', url.pathname + url.search + url.hash);
  }
  const element = document.getElementById(IN_PAGE_ID);
  if (!element) return undefined;
  element.remove();
  const kept = JSON.parse(element.textContent ?? '') as Array<{
    keys: string[];
    screen: KeptScreen;
  }>;
  return kept.find((screen) => screen.keys.includes(key))?.screen ?? null;
}

async function fetchScreen(key: string): Promise<KeptScreen | null> {
  const fragment = new URLSearchParams(location.hash.slice(1));
  // Electron: the preload's method; browser mode: the host, with the launch's secret (still in the
  // fragment, or where renderer/bridge/install.ts moved it if the app's script ran first).
  const bridge = (window as { tributary?: FirstScreenBridge }).tributary;
  if (bridge) return bridge.firstScreen ? bridge.firstScreen({ key }) : null;
  const secret = fragment.get('secret') ?? sessionStorage.getItem('tributary.bridgeSecret');
  if (!secret) return null;
  // Path and header: shared/ipc/wire.ts (FIRST_SCREEN_PATH, FIRST_SCREEN_SECRET_HEADER).
  const answer = await fetch(`/first-screen?key=${encodeURIComponent(key)}`, {
    headers: { 'x-tributary-secret': secret },
    cache: 'no-store',
  });
  return answer.status === 200 ? ((await answer.json()) as KeptScreen) : null;
}

/**
 * Browser mode's realm pictures (/media/…) need the media cookie, which the bridge's handshake sets only once the
 * app's script runs: asked for now, each one not in the browser's cache failed with a 401 (a console
 * error apiece, and no retry). So a picture is shown only from the cache (only-if-cached never
 * reaches the network); the rest keep their place empty until the live app replaces the copy.
 */
function holdRealmPicture(image: HTMLImageElement): void {
  const src = image.getAttribute('src') ?? '';
  if (!src.startsWith('/media/')) return;
  image.removeAttribute('src');
  image.removeAttribute('srcset');
  image.style.visibility = 'hidden';
  fetch(src, { cache: 'only-if-cached', mode: 'same-origin' })
    .then((answer) => (answer.ok ? answer.blob() : null))
    .then(
      (blob) => {
        if (!blob) return;
        const url = URL.createObjectURL(blob);
        image.addEventListener('load', () => {
          image.style.visibility = '';
          URL.revokeObjectURL(url);
        });
        image.src = url;
      },
      () => undefined,
    );
}

function show(screen: KeptScreen): void {
  const html = document.documentElement;
  // The app painted its own screen first (its script was cached), or the window is another width.
  if (html.dataset.firstScreen || band(screen.width) !== band(innerWidth)) return;
  html.dataset.firstScreen = 'shown';
  const theme = { ...screen.theme };
  // An automatic scheme follows the system as it is now, as the app will (lib/theme.ts): a copy
  // taken in a light window (or by the build's headless browser) is not shown light in a dark one.
  if (theme['data-color-scheme'] === 'automatic')
    theme['data-theme'] = matchMedia('(prefers-color-scheme: dark)').matches ? 'dark' : 'light';
  for (const [name, value] of Object.entries(theme)) {
    if (name.startsWith('--')) {
      if (!html.style.getPropertyValue(name)) html.style.setProperty(name, value);
    } else if (!html.hasAttribute(name)) html.setAttribute(name, value);
  }
  const overlay = document.createElement('div');
  overlay.id = 'first-screen';
  overlay.inert = true;
  overlay.setAttribute('aria-hidden', 'true');
  overlay.dataset.view = screen.view;
  overlay.style.cssText =
    'position:fixed;inset:0;z-index:2147483000;overflow:hidden;background:var(--bg)';
  // Parsed in a template, whose document loads nothing, so each picture is decided on first.
  const template = document.createElement('template');
  template.innerHTML = screen.html;
  relabelFirstScreenTimes(template.content, Date.now());
  // The desktop app's app:// protocol needs no cookie: its pictures load as they are.
  if (location.protocol !== 'app:') {
    for (const image of template.content.querySelectorAll('img')) holdRealmPicture(image);
  }
  overlay.append(template.content);
  setTimeout(() => overlay.remove(), FALLBACK_MS);
  whenRootParsed(() => {
    // The app decided first (its own screen, or another view): the copy has no place any more.
    if (html.dataset.firstScreen !== 'shown') return;
    document.body.append(overlay);
    // Before the first frame (the stylesheet is in by then): the virtual lists' rows are placed at
    // their scroll offset, so without it the list would show blank space.
    requestAnimationFrame(() => {
      for (const el of overlay.querySelectorAll<HTMLElement>('[data-first-screen-scroll-top]')) {
        el.scrollTop = Number(el.dataset.firstScreenScrollTop);
      }
      performance.mark('tributary:first-screen-shown');
    });
  });
}

/**
 * Runs `place` once the parser has made the page's #root (at once if it has): a copy read from the
 * page itself is ready while the parser is still in <head>, and goes into <body> after #root, where
 * the app's styles expect it. Nothing is painted before the parser gets there.
 */
function whenRootParsed(place: () => void): void {
  if (document.getElementById('root')) return place();
  const observer = new MutationObserver(() => {
    if (!document.getElementById('root')) return;
    observer.disconnect();
    place();
  });
  observer.observe(document.documentElement, { childList: true, subtree: true });
}

function launchKey(): string {
  const view = new URLSearchParams(location.hash.slice(1)).get('view') ?? '';
  return LAUNCH_VIEWS.includes(view) ? `view=${view}` : '';
}

try {
  const key = launchKey();
  const inPage = screenInPage(key);
  if (inPage) show(inPage);
  else if (inPage === undefined) {
    fetchScreen(key).then(
      (screen) => screen && show(screen),
      () => undefined,
    );
  }
} catch {
  // A page whose screens do not parse shows none.
}
