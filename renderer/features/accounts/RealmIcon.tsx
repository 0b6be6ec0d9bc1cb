// The organization's icon where the app shows the organization (account switcher, Organization
// profile): the server's image through the media route, or the name's first letter when the icon is
// the server's default (an external identicon the app does not fetch) or fails to load.
import { useState } from 'react';
import { mediaUrl } from '../../bridge/media';
import './realm-icon.css';

export function RealmIcon({
  accountId,
  iconUrl,
  realmName,
  className,
}: {
  accountId: string;
  /** register's realm_icon_url (kept current by the realm update_dict event). */
  iconUrl: string | undefined;
  realmName: string;
  className: string;
}) {
  const [failedSrc, setFailedSrc] = useState<string | null>(null);
  const src = iconUrl ? mediaUrl(accountId, iconUrl) : null;
  if (src && src !== failedSrc) {
    return <img className={className} src={src} alt="" onError={() => setFailedSrc(src)} />;
  }
  return (
    <span className={`${className} letter`} aria-hidden="true">
      {realmName.trim().charAt(0).toUpperCase() || '?'}
    </span>
  );
}
