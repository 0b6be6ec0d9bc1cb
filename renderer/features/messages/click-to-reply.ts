// A click on a message replies to it, as in the public web app: the message becomes the selected
// one and the compose box opens on its conversation, without leaving the view. Clicks meant for
// something inside the message (a link, a button, a picture, a spoiler, a widget, the editor) or
// that end a text selection do not.
import type { MouseEvent } from 'react';
import type { MessageWithFlags } from '../../../shared/api/types';
import { requestCompose, uiStore } from '../../store/ui-store';
import { destinationOfMessage } from '../compose/Compose';

/** What inside a message handles its own clicks. */
const OWN_CLICKS = [
  'a',
  'button',
  'input',
  'textarea',
  'select',
  'label',
  'summary',
  'audio',
  'video',
  'img',
  '[role="button"]',
  '[role="menu"]',
  '[role="dialog"]',
  '.spoiler-header',
  '.edit-form',
  '.widget',
  '.reactions',
  '.meeting-cards',
].join(',');

export function isReplyClick(event: MouseEvent): boolean {
  if (event.button !== 0 || event.defaultPrevented) return false;
  if (event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return false;
  const target = event.target as Element | null;
  if (!target?.closest || target.closest(OWN_CLICKS)) return false;
  // Selecting text to copy it ends with a click: that is not a reply.
  const selection = globalThis.getSelection?.();
  return !selection || selection.isCollapsed || selection.toString().trim() === '';
}

export function replyToClickedMessage(message: MessageWithFlags, selfUserId: number): void {
  uiStore.setState({ selectedMessageId: message.id });
  requestCompose('reply', undefined, destinationOfMessage(message, selfUserId) ?? undefined);
}
