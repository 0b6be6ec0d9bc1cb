// Hardening applied to every web contents and to the renderer's session: navigation stays on app://,
// new windows are refused (links go to the system browser when they are http, https or mailto),
// permissions are denied except notifications, and the session cannot open network connections of
// its own: everything but app:// and the media protocol is cancelled.
import type { Session, WebContents } from 'electron';
import { MEDIA_SCHEME } from '../../shared/ipc/wire';
import { isAllowedExternalUrl } from './external-urls';
import { APP_HOST, APP_SCHEME } from './app-protocol';

export const APP_URL = `${APP_SCHEME}://${APP_HOST}/`;

export function isAppUrl(url: string): boolean {
  try {
    const parsed = new URL(url);
    return parsed.protocol === `${APP_SCHEME}:` && parsed.host === APP_HOST;
  } catch {
    return false;
  }
}

export function hardenWebContents(
  contents: Pick<WebContents, 'on' | 'setWindowOpenHandler'>,
  openExternal: (url: string) => void,
): void {
  contents.on('will-navigate', (event, url) => {
    if (!isAppUrl(url)) event.preventDefault();
  });
  contents.on('will-redirect', (event, url) => {
    if (!isAppUrl(url)) event.preventDefault();
  });
  contents.on('will-attach-webview', (event) => event.preventDefault());
  contents.setWindowOpenHandler(({ url }) => {
    if (isAllowedExternalUrl(url)) openExternal(url);
    return { action: 'deny' };
  });
}

// Writing to the clipboard (copy buttons on code blocks, "copy link"), never reading it.
const ALLOWED_PERMISSIONS = new Set(['notifications', 'clipboard-sanitized-write']);

export function installSessionGuards(
  session: Pick<
    Session,
    'setPermissionRequestHandler' | 'setPermissionCheckHandler' | 'webRequest'
  >,
): void {
  session.setPermissionRequestHandler((_contents, permission, callback) =>
    callback(ALLOWED_PERMISSIONS.has(permission)),
  );
  session.setPermissionCheckHandler((_contents, permission) => ALLOWED_PERMISSIONS.has(permission));
  session.webRequest.onBeforeRequest((details, callback) => {
    callback({ cancel: !isAllowedRequestUrl(details.url) });
  });
}

export function isAllowedRequestUrl(url: string): boolean {
  try {
    const { protocol } = new URL(url);
    return (
      protocol === `${APP_SCHEME}:` || protocol === `${MEDIA_SCHEME}:` || protocol === 'devtools:'
    );
  } catch {
    return false;
  }
}
