// Clicks on links inside sanitized message HTML: a message's content and the old versions in its
// edit history. Narrow links open in the app (narrow-links.ts), uploads and external links through
// main (upload-links.ts), never in the app's window. The element carrying the handler names the
// account in data-account-id.
import type { MouseEvent } from 'react';
import { api } from '../../bridge/api';
import { openNarrowLink } from './narrow-links';
import { openUploadLink } from './upload-links';
import { handleMediaClick } from './media/media-click';

export function handleContentLinkClick(event: MouseEvent<HTMLElement>): void {
  if (handleMediaClick(event)) return;
  const anchor = (event.target as Element).closest?.('a');
  if (!anchor) return;
  event.preventDefault();
  const accountId = event.currentTarget.dataset.accountId;
  if (openNarrowLink(anchor, accountId) || openUploadLink(anchor, accountId)) return;
  const href = anchor.getAttribute('href');
  if (href && /^(https?:|mailto:)/i.test(href)) void api().openExternal({ url: href });
}
