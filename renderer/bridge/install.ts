// Gives the page window.tributary in browser mode. In Electron the preload has already set it, so this
// does nothing there. The per-launch secret arrives in the URL fragment (#secret=...), is moved to
// sessionStorage (so a reload keeps working) and removed from the address bar. The /media cookie is
// set by the host on the bridge's handshake (HttpOnly: page scripts never see it).
import { createWebSocketBridge, type WebSocketLike } from '../../shared/ipc/bridge-client';
import { installUnsentHandover } from './unsent-handover';

const SECRET_KEY = 'tributary.bridgeSecret';

export function installBrowserBridge(win: Window = window): void {
  if (win.tributary) return;
  const params = new URLSearchParams(win.location.hash.replace(/^#/, ''));
  const fromHash = params.get('secret');
  if (fromHash) {
    win.sessionStorage.setItem(SECRET_KEY, fromHash);
    params.delete('secret');
    const rest = params.toString();
    win.history.replaceState(
      null,
      '',
      `${win.location.pathname}${win.location.search}${rest ? `#${rest}` : ''}`,
    );
  }
  const secret = fromHash ?? win.sessionStorage.getItem(SECRET_KEY);
  if (!secret) {
    throw new Error('Tributary: no bridge secret; open the URL printed by `npm start`.');
  }
  const origin = `${win.location.protocol === 'https:' ? 'wss' : 'ws'}://${win.location.host}`;
  win.tributary = createWebSocketBridge({
    origin,
    secret,
    createSocket: (url) => new WebSocket(url) as unknown as WebSocketLike,
  });
  installUnsentHandover(win, secret);
}
