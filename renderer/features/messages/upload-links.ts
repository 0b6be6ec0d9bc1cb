// Links to files uploaded to the realm inside message HTML. The sanitizer points them at main's
// authenticated media route and keeps the realm path in data-realm-href. In browser mode the page
// opens that route in a new tab (it is served on the page's own origin). In Electron the window may
// not open anything but app:// and the system handler takes only http(s) links, so main opens the
// file instead (openUpload: the realm's short-lived download URL in the system browser).
import { MEDIA_SCHEME } from '../../../shared/ipc/wire';
import { api } from '../../bridge/api';

/** Opens an upload link of this account; false for links that are not uploads. */
export function openUploadLink(anchor: Element, accountId: string | undefined): boolean {
  const realmPath = anchor.getAttribute('data-realm-href');
  const href = anchor.getAttribute('href');
  if (!realmPath || !href) return false;
  if (href.startsWith(`${MEDIA_SCHEME}:`)) {
    if (accountId)
      void api()
        .openUpload({ accountId, path: realmPath })
        .catch(() => undefined);
  } else window.open(href, '_blank', 'noopener');
  return true;
}
