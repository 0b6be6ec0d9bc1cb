// Opens the image viewer for an image clicked in a message: in its own React root over the app
// (nothing of it lives in the message rows), at that image among the conversation's images, and
// gives focus back to the image's link when it closes.
import { createRoot, type Root } from 'react-dom/client';
import { mediaUrl } from '../../../bridge/media';
import { ImageViewer } from './ImageViewer';
import { conversationImages, imageLinks, type ViewerItem } from './viewer-items';

let open: { root: Root; host: HTMLElement; returnFocus: HTMLElement } | null = null;

export function closeImageViewer(): void {
  if (!open) return;
  const { root, host, returnFocus } = open;
  open = null;
  root.unmount();
  host.remove();
  returnFocus.focus();
}

/** The clicked image alone, from the page (a message the store does not hold). */
function itemOnPage(
  accountId: string,
  messageId: number,
  key: string,
  image: HTMLImageElement,
  link: HTMLElement,
): ViewerItem {
  const realmPath = link.getAttribute('data-realm-href');
  const thumbSrc = image.getAttribute('src') ?? '';
  return {
    key,
    messageId,
    thumbSrc,
    fullSrc: (realmPath && mediaUrl(accountId, realmPath)) || thumbSrc,
    name: link.getAttribute('title') || 'image',
    realmPath: realmPath?.startsWith('/user_uploads/') ? realmPath : null,
    senderName: '',
    timestamp: 0,
  };
}

export function openImageViewer(
  accountId: string,
  image: HTMLImageElement,
  link: HTMLElement,
): void {
  closeImageViewer();
  const row = link.closest('[data-message-id]');
  const messageId = Number(row?.getAttribute('data-message-id'));
  const content = link.closest('.content') ?? row ?? link;
  const key = `${messageId}:${imageLinks(content).indexOf(link as HTMLAnchorElement)}`;
  const host = document.createElement('div');
  host.className = 'media-viewer-host';
  document.body.append(host);
  const root = createRoot(host);
  open = { root, host, returnFocus: link };
  void conversationImages(accountId, messageId).then((found) => {
    if (open?.root !== root) return;
    let items = found;
    let start = items.findIndex((item) => item.key === key);
    if (start < 0) {
      items = [itemOnPage(accountId, messageId, key, image, link)];
      start = 0;
    }
    root.render(
      <ImageViewer
        accountId={accountId}
        items={items}
        startIndex={start}
        onClose={closeImageViewer}
      />,
    );
  });
}
