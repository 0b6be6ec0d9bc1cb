// The images the viewer steps through: every inline image of the open conversation's loaded
// messages, oldest first (not only the rows the virtualized list has on screen), read from each
// message's sanitized HTML. Realm images show their original through the media route; images from
// other hosts only once the person has loaded them (their blob: URL).
import { narrowKey } from '../../../../shared/narrow';
import { sanitizeMessageHtml } from '../../../lib/sanitize';
import { mediaUrl } from '../../../bridge/media';
import { appStore } from '../../../store/hooks';
import { selectActiveAccount } from '../../../store';
import { uiStore } from '../../../store/ui-store';
import { loadedRemoteUrl } from './remote-media';

export interface ViewerItem {
  /** `<message id>:<position among the message's image previews>`. */
  key: string;
  messageId: number;
  /** What the viewer shows at once (the thumbnail) and the full image it swaps in. */
  thumbSrc: string;
  fullSrc: string;
  name: string;
  /** The upload's realm path (for the original's download), for realm images. */
  realmPath: string | null;
  senderName: string;
  /** UNIX seconds. */
  timestamp: number;
}

const IMAGE_LINKS = '.message_inline_image:not(.message_inline_video) > a';

/** The image preview links of one message's content element, in order. */
export function imageLinks(root: ParentNode): HTMLAnchorElement[] {
  return [...root.querySelectorAll<HTMLAnchorElement>(IMAGE_LINKS)];
}

function fileName(link: Element, path: string | null): string {
  const title = link.getAttribute('title');
  if (title) return title;
  const last = (path ?? '').split(/[?#]/)[0].split('/').pop() ?? '';
  try {
    return decodeURIComponent(last) || 'image';
  } catch {
    return last || 'image';
  }
}

interface MessageFacts {
  id: number;
  content: string;
  senderName: string;
  timestamp: number;
}

async function itemsOfMessage(accountId: string, message: MessageFacts): Promise<ViewerItem[]> {
  if (!message.content.includes('message_inline_image')) return [];
  const template = document.createElement('template');
  // Inert: a template's content loads nothing.
  template.innerHTML = sanitizeMessageHtml(message.content, accountId);
  const items: ViewerItem[] = [];
  for (const [position, link] of imageLinks(template.content).entries()) {
    const image = link.querySelector('img');
    if (!image) continue;
    const realmPath = link.getAttribute('data-realm-href');
    const remote = image.getAttribute('data-remote-src');
    let thumbSrc: string | null = null;
    let fullSrc: string | null = null;
    if (realmPath) {
      thumbSrc = image.getAttribute('src');
      fullSrc = mediaUrl(accountId, realmPath);
    } else if (remote) {
      thumbSrc = fullSrc = (await loadedRemoteUrl(remote)) ?? null;
    }
    if (!thumbSrc || !fullSrc) continue;
    items.push({
      key: `${message.id}:${position}`,
      messageId: message.id,
      thumbSrc,
      fullSrc,
      name: fileName(link, realmPath ?? remote),
      realmPath: realmPath?.startsWith('/user_uploads/') ? realmPath : null,
      senderName: message.senderName,
      timestamp: message.timestamp,
    });
  }
  return items;
}

/** The ids of the open conversation's loaded messages, or just this one outside a conversation. */
function conversationIds(messageId: number): number[] {
  const account = selectActiveAccount(appStore.getState());
  const { route } = uiStore.getState();
  const list =
    route.kind === 'narrow' ? account?.narrows.lists.get(narrowKey(route.narrow)) : undefined;
  const ids: number[] = [];
  for (let i = 0; list && i < list.ids.length; i++) ids.push(list.ids.at(i)!);
  return ids.includes(messageId) ? ids : [messageId];
}

/** Every viewable image of the conversation holding `messageId`. */
export async function conversationImages(
  accountId: string,
  messageId: number,
): Promise<ViewerItem[]> {
  const account = selectActiveAccount(appStore.getState());
  const items: ViewerItem[] = [];
  for (const id of conversationIds(messageId)) {
    const message = account?.messages.byId.get(id);
    if (!message) continue;
    const sender = account?.users.users.get(message.sender_id);
    items.push(
      ...(await itemsOfMessage(accountId, {
        id,
        content: message.content,
        senderName: sender?.full_name ?? message.sender_full_name,
        timestamp: message.timestamp,
      })),
    );
  }
  return items;
}
