// The image viewer: what it shows (sender, date, name, position), stepping through the
// conversation's images with buttons and arrow keys, zoom by buttons, keys, wheel and double-click,
// the original's download link, Esc and Close, focus kept inside while open and given back to the
// image's link after; and the click on an image in message content that opens it.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { act, cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { ImageViewer } from '../../../renderer/features/messages/media/ImageViewer';
import type { ViewerItem } from '../../../renderer/features/messages/media/viewer-items';
import { handleContentLinkClick } from '../../../renderer/features/messages/content-links';
import { sanitizeMessageHtml } from '../../../renderer/lib/sanitize';
import { formatDateTime } from '../../../renderer/lib/format';

afterEach(cleanup);

const item = (n: number, sender: string): ViewerItem => ({
  key: `${10 + n}:0`,
  messageId: 10 + n,
  thumbSrc: `/media/acct-1/user_uploads/thumbnail/1/ab/x${n}/p${n}.png/840x560.webp`,
  fullSrc: `/media/acct-1/user_uploads/1/ab/x${n}/p${n}.png`,
  name: `p${n}.png`,
  realmPath: `/user_uploads/1/ab/x${n}/p${n}.png`,
  senderName: sender,
  timestamp: 1_700_000_000 + n * 60,
});
const items = [item(1, 'Olivia Owner'), item(2, 'Emma Member'), item(3, 'Farid Member')];

function renderViewer(startIndex = 0) {
  const onClose = vi.fn();
  render(
    <ImageViewer accountId="acct-1" items={items} startIndex={startIndex} onClose={onClose} />,
  );
  return { onClose, dialog: screen.getByRole('dialog') };
}

const key = (k: string, init: KeyboardEventInit = {}) =>
  act(() => {
    document.activeElement!.dispatchEvent(
      new KeyboardEvent('keydown', { key: k, bubbles: true, cancelable: true, ...init }),
    );
  });

describe('ImageViewer', () => {
  it('shows the image with its sender, date, name and place in the conversation', () => {
    const { dialog } = renderViewer(1);
    expect(dialog.getAttribute('aria-modal')).toBe('true');
    expect(screen.getByRole('dialog', { name: 'Image viewer: p2.png' })).toBe(dialog);
    expect(screen.getByText('Emma Member')).toBeTruthy();
    expect(screen.getByText(formatDateTime(items[1].timestamp))).toBeTruthy();
    expect(screen.getByText('2 of 3')).toBeTruthy();
    // The thumbnail at once; the original (hidden until loaded) is swapped in on load.
    const full = screen.getByRole('img', { name: 'p2.png' });
    expect(full.getAttribute('src')).toBe(items[1].fullSrc);
    expect(dialog.querySelector(`img[src="${items[1].thumbSrc}"]`)).not.toBeNull();
    fireEvent.load(full);
    expect(dialog.querySelector(`img[src="${items[1].thumbSrc}"]`)).toBeNull();
    expect(document.activeElement).toBe(dialog);
  });

  it('steps through the images with the buttons and the arrow keys, wrapping around', () => {
    renderViewer(0);
    fireEvent.click(screen.getByRole('button', { name: 'Next image' }));
    expect(screen.getByText('2 of 3')).toBeTruthy();
    key('ArrowRight');
    expect(screen.getByText('Farid Member')).toBeTruthy();
    key('ArrowRight');
    expect(screen.getByText('1 of 3')).toBeTruthy();
    key('ArrowLeft');
    expect(screen.getByText('3 of 3')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Previous image' }));
    expect(screen.getByText('2 of 3')).toBeTruthy();
  });

  it('zooms with buttons, keys, the wheel and a double-click, and back to fit', () => {
    const { dialog } = renderViewer(0);
    const scale = () => dialog.querySelector('.media-viewer-scale')!.textContent;
    const zoomOut = screen.getByRole('button', { name: 'Zoom out' }) as HTMLButtonElement;
    expect([scale(), zoomOut.disabled]).toEqual(['100%', true]);
    fireEvent.click(screen.getByRole('button', { name: 'Zoom in' }));
    expect(scale()).toBe('125%');
    key('+');
    expect(scale()).toBe('156%');
    key('-');
    expect(scale()).toBe('125%');
    fireEvent.click(screen.getByRole('button', { name: 'Fit' }));
    expect(scale()).toBe('100%');
    const stage = dialog.querySelector('.media-viewer-stage')!;
    fireEvent.wheel(stage, { deltaY: -200 });
    expect(Number.parseInt(scale()!, 10)).toBeGreaterThan(100);
    key('0');
    fireEvent.doubleClick(stage);
    expect(scale()).toBe('250%');
    expect(screen.getByRole('img', { name: 'p1.png' }).style.transform).toContain('scale(2.5)');
    // Moving to another image starts at fit again.
    key('ArrowRight');
    expect(scale()).toBe('100%');
  });

  it('pans a zoomed image by dragging, and not at fit', () => {
    const { dialog } = renderViewer(0);
    const stage = dialog.querySelector('.media-viewer-stage')!;
    const image = () => screen.getByRole('img', { name: 'p1.png' });
    const drag = () => {
      fireEvent.pointerDown(stage, { button: 0, clientX: 100, clientY: 100, pointerId: 1 });
      fireEvent.pointerMove(stage, { clientX: 140, clientY: 70, pointerId: 1 });
      fireEvent.pointerUp(stage, { pointerId: 1 });
    };
    drag();
    expect(image().style.transform).toBe('translate(0px, 0px) scale(1)');
    key('+');
    drag();
    expect(image().style.transform).toBe('translate(40px, -30px) scale(1.25)');
  });

  it("offers the original's download through the media route", () => {
    renderViewer(2);
    const download = screen.getByRole('link', { name: 'Download' });
    expect(download.getAttribute('href')).toBe(
      '/media/acct-1/user_uploads/download/1/ab/x3/p3.png',
    );
    expect(download.getAttribute('download')).toBe('p3.png');
  });

  it('closes on Esc and on Close, and no key reaches the app while open', () => {
    const appKeys = vi.fn();
    window.addEventListener('keydown', appKeys);
    try {
      const { onClose } = renderViewer(0);
      key('c');
      key('Escape');
      expect(onClose).toHaveBeenCalledTimes(1);
      fireEvent.click(screen.getByRole('button', { name: 'Close' }));
      expect(onClose).toHaveBeenCalledTimes(2);
      expect(appKeys).not.toHaveBeenCalled();
    } finally {
      window.removeEventListener('keydown', appKeys);
    }
  });

  it('keeps focus inside: Tab wraps around, and focus moved outside comes back', () => {
    const outside = document.createElement('button');
    document.body.append(outside);
    try {
      const { dialog } = renderViewer(0);
      const close = screen.getByRole('button', { name: 'Close' });
      const last = screen.getByRole('button', { name: 'Next image' });
      last.focus();
      key('Tab');
      // The first enabled control (Zoom out and Fit are disabled at fit).
      expect(document.activeElement).toBe(screen.getByRole('button', { name: 'Zoom in' }));
      key('Tab', { shiftKey: true });
      expect(document.activeElement).toBe(last);
      close.focus();
      act(() => outside.focus());
      expect(dialog.contains(document.activeElement)).toBe(true);
    } finally {
      outside.remove();
    }
  });
});

describe('clicking an image in a message', () => {
  it('opens the viewer at that image and gives focus back to its link on Esc', async () => {
    const html = sanitizeMessageHtml(
      '<p>Look</p><div class="message_inline_image"><a href="/user_uploads/1/ab/q/harbour.png" title="harbour.png">' +
        '<img data-original-dimensions="1200x800" src="/user_uploads/thumbnail/1/ab/q/harbour.png/840x560.webp"></a></div>',
      'acct-1',
    );
    render(
      <div data-message-id="77">
        <div
          className="content"
          data-account-id="acct-1"
          onClick={handleContentLinkClick}
          dangerouslySetInnerHTML={{ __html: html }}
        />
      </div>,
    );
    const link = document.querySelector<HTMLAnchorElement>('.message_inline_image a')!;
    const click = new MouseEvent('click', { bubbles: true, cancelable: true });
    act(() => {
      link.querySelector('img')!.dispatchEvent(click);
    });
    // The page never navigates to the image.
    expect(click.defaultPrevented).toBe(true);
    const dialog = await screen.findByRole('dialog', { name: 'Image viewer: harbour.png' });
    expect(screen.getByRole('img', { name: 'harbour.png' }).getAttribute('src')).toBe(
      '/media/acct-1/user_uploads/1/ab/q/harbour.png',
    );
    expect(document.activeElement).toBe(dialog);
    key('Escape');
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(document.activeElement).toBe(link);
  });
});
