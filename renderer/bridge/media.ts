// Where the page loads a realm image or file from. The renderer never contacts the chat server: in
// Electron the media protocol, in browser mode the host's /media route, both served by main with the
// account's credentials. `realmUrl` is what the server gave (e.g. /user_uploads/1/ab/x.png).
import { MEDIA_SCHEME } from '../../shared/ipc/wire';

export function mediaUrl(
  accountId: string,
  realmUrl: string,
  loc: Location = window.location,
): string | null {
  let path: string;
  try {
    const parsed = new URL(realmUrl, 'http://realm.invalid');
    // Absolute URLs to other hosts are not the realm's: not fetched.
    if (parsed.host !== 'realm.invalid' && !realmUrl.startsWith('/')) return null;
    path = `${parsed.pathname.replace(/^\/+/, '')}${parsed.search}`;
  } catch {
    return null;
  }
  const account = encodeURIComponent(accountId);
  return loc.protocol === 'app:'
    ? `${MEDIA_SCHEME}://${account}/${path}`
    : `/media/${account}/${path}`;
}
