// Clicks on images and videos in message content (one delegated handler on the content, called
// before the link handler): a remote placeholder loads its media, an image opens the viewer, and a
// video's link never navigates (its own controls play it).
import type { MouseEvent } from 'react';
import { loadRemoteMedia, remoteMediaOf } from './remote-media';
import { openImageViewer } from './open-viewer';
import './media.css';

/** Handles a click inside message content; true when it was on an image or video preview. */
export function handleMediaClick(event: MouseEvent<HTMLElement>): boolean {
  const target = event.target as Element;
  const link = target.closest?.('a');
  const preview = link?.closest('.message_inline_image');
  if (!link || !preview || !event.currentTarget.contains(preview)) return false;
  event.preventDefault();
  if (remoteMediaOf(link)) {
    void loadRemoteMedia(link);
    return true;
  }
  if (preview.classList.contains('message_inline_video')) return true;
  const image = link.querySelector('img');
  const accountId = event.currentTarget.dataset.accountId;
  if (image && accountId && image.getAttribute('src')) openImageViewer(accountId, image, link);
  return true;
}
