// Clicks and keys inside a message's content, handled on the content box rather than on each
// control: spoiler headers open and close their spoiler, a code block's button copies its code,
// and anything else goes to the link handler (content-links.ts). The controls themselves are added
// to the HTML by rich-content.ts.
import type { KeyboardEvent, MouseEvent } from 'react';
import { handleContentLinkClick } from './content-links';

function toggleSpoiler(header: Element): void {
  const block = header.closest('.spoiler-block');
  if (!block) return;
  const open = block.classList.toggle('spoiler-open');
  header.setAttribute('aria-expanded', String(open));
  block.querySelector(':scope > .spoiler-content')?.setAttribute('aria-hidden', String(!open));
}

function copyCode(button: HTMLElement): void {
  const code = button.closest('.codehilite')?.querySelector('code');
  if (!code) return;
  // Allowed in Electron by the session's clipboard-sanitized-write permission (write only).
  void navigator.clipboard?.writeText(code.textContent ?? '').then(
    () => {
      button.classList.add('copied');
      button.title = 'Copied!';
      setTimeout(() => {
        button.classList.remove('copied');
        button.title = 'Copy code';
      }, 1500);
    },
    () => undefined,
  );
}

export function handleContentClick(event: MouseEvent<HTMLElement>): void {
  const target = event.target as Element;
  const copy = target.closest?.('.copy-code');
  if (copy instanceof HTMLElement) {
    event.preventDefault();
    copyCode(copy);
    return;
  }
  const header = target.closest?.('.spoiler-header');
  // A link in a spoiler's header opens the link, as in the public app.
  if (header && !target.closest('a')) {
    toggleSpoiler(header);
    return;
  }
  handleContentLinkClick(event);
}

export function handleContentKeyDown(event: KeyboardEvent<HTMLElement>): void {
  if (event.key !== 'Enter' && event.key !== ' ') return;
  const target = event.target as Element;
  if (!target.classList?.contains('spoiler-header')) return;
  // Not the list's Enter (reply) nor its Space (scroll).
  event.preventDefault();
  event.stopPropagation();
  toggleSpoiler(target);
}
