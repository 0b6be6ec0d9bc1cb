// How message HTML's images and videos come out of the sanitizer (renderer/lib/sanitize.ts): realm
// media through the media route, a box reserved from data-original-dimensions, remote media never
// loaded but marked for a click-to-load placeholder, and videos that fetch only their metadata.
import { afterEach, describe, expect, it } from 'vitest';
import { sanitizeMessageHtml } from '../../../renderer/lib/sanitize';
import { uiStore } from '../../../renderer/store/ui-store';
import type { AccountSummary } from '../../../shared/ipc/accounts';

function parse(html: string): HTMLElement {
  const div = document.createElement('div');
  div.innerHTML = html;
  return div;
}

const THUMBNAILED =
  '<div class="message_inline_image"><a href="/user_uploads/1/ab/xyz/sunrise.png" title="sunrise.png">' +
  '<img data-original-dimensions="1200x800" data-original-content-type="image/png" ' +
  'src="/user_uploads/thumbnail/1/ab/xyz/sunrise.png/840x560.webp"></a></div>';

afterEach(() => uiStore.setState({ accounts: [] }));

describe('images and videos in message HTML', () => {
  it('loads an uploaded thumbnail through the media route and reserves its box', () => {
    const out = parse(sanitizeMessageHtml(THUMBNAILED, 'acct-1'));
    const img = out.querySelector('.message_inline_image img')!;
    expect(img.getAttribute('src')).toBe(
      '/media/acct-1/user_uploads/thumbnail/1/ab/xyz/sunrise.png/840x560.webp',
    );
    expect(img.getAttribute('data-original-dimensions')).toBe('1200x800');
    expect(img.getAttribute('data-original-content-type')).toBe('image/png');
    // 10em tall, as wide as 1200x800 makes it; the attributes give the browser its shape early.
    expect([img.getAttribute('width'), img.getAttribute('height')]).toEqual(['1200', '800']);
    expect(img.getAttribute('style')).toBe('width: 15.000em; aspect-ratio: 1200 / 800');
    const link = out.querySelector('a')!;
    expect(link.getAttribute('data-realm-href')).toBe('/user_uploads/1/ab/xyz/sunrise.png');
    expect(link.hasAttribute('data-remote-host')).toBe(false);
  });

  it('keeps a small image at its own size', () => {
    const html = THUMBNAILED.replace('1200x800', '90x60');
    const img = parse(sanitizeMessageHtml(html, 'acct-1')).querySelector('img')!;
    expect(img.getAttribute('style')).toBe('width: 90px; aspect-ratio: 90 / 60');
  });

  it("keeps the box of the public server's loading placeholder, without loading its spinner", () => {
    const html =
      '<div class="message_inline_image"><a href="/user_uploads/1/ab/xyz/big.png" title="big.png">' +
      '<img class="image-loading-placeholder" data-original-dimensions="800x1600" ' +
      'src="/static/images/loading/loader-black.svg"></a></div>';
    const img = parse(sanitizeMessageHtml(html, 'acct-1')).querySelector('img')!;
    expect(img.hasAttribute('src')).toBe(false);
    expect(img.getAttribute('class')).toBe('image-loading-placeholder');
    expect(img.getAttribute('style')).toBe('width: 5.000em; aspect-ratio: 800 / 1600');
    expect(img.hasAttribute('data-remote-src')).toBe(false);
  });

  it('never loads an image from another host: a placeholder link names the host instead', () => {
    const html =
      '<div class="message_inline_image"><a href="https://pics.example.com/cat.png">' +
      '<img src="https://pics.example.com/cat.png"></a></div>';
    const out = parse(sanitizeMessageHtml(html, 'acct-1'));
    const img = out.querySelector('img')!;
    expect(img.hasAttribute('src')).toBe(false);
    expect(img.getAttribute('data-remote-src')).toBe('https://pics.example.com/cat.png');
    const link = out.querySelector('a')!;
    expect(link.getAttribute('data-remote-host')).toBe('pics.example.com');
    expect(link.getAttribute('data-remote-kind')).toBe('image');
    expect(link.getAttribute('aria-label')).toBe('Image from pics.example.com: click to load');
  });

  it('takes no placeholder state from the server', () => {
    const html =
      '<p><a href="https://example.com/" data-remote-host="evil" data-remote-kind="image">x</a>' +
      '<img data-remote-src="https://evil.example/track.png"></p>';
    const out = parse(sanitizeMessageHtml(html, 'acct-1'));
    expect(out.querySelector('[data-remote-host], [data-remote-kind]')).toBeNull();
    expect(out.querySelector('[data-remote-src]')).toBeNull();
  });

  it("counts camo and absolute URLs on the account's own server as the account's", () => {
    uiStore.setState({
      accounts: [{ id: 'acct-1', site: 'https://chat.example.org' } as AccountSummary],
    });
    const html =
      '<div class="message_inline_image"><a href="https://x.test/a.png">' +
      '<img src="https://chat.example.org/external_content/abc/def"></a></div>' +
      '<div class="message_inline_image"><a href="https://x.test/b.png">' +
      '<img src="/external_content/123/456"></a></div>' +
      '<div class="message_inline_image"><a href="https://x.test/c.png">' +
      '<img src="https://chat.example.org/api/v1/users/me"></a></div>';
    const [camoAbsolute, camo, api] = [
      ...parse(sanitizeMessageHtml(html, 'acct-1')).querySelectorAll('img'),
    ];
    expect(camoAbsolute.getAttribute('src')).toBe('/media/acct-1/external_content/abc/def');
    expect(camo.getAttribute('src')).toBe('/media/acct-1/external_content/123/456');
    // The same server, but not a media path: not loaded through the route.
    expect(api.hasAttribute('src')).toBe(false);
    expect(api.getAttribute('data-remote-src')).toBe('https://chat.example.org/api/v1/users/me');
  });

  it('plays uploaded videos through the media route, fetching metadata only', () => {
    const html =
      '<div class="message_inline_image message_inline_video"><a href="/user_uploads/1/cd/v/clip.mp4">' +
      '<video preload="auto" autoplay poster="https://evil.example/p.png" src="/user_uploads/1/cd/v/clip.mp4"></video></a></div>';
    const video = parse(sanitizeMessageHtml(html, 'acct-1')).querySelector('video')!;
    expect(video.getAttribute('src')).toBe('/media/acct-1/user_uploads/1/cd/v/clip.mp4');
    expect(video.getAttribute('preload')).toBe('metadata');
    expect(video.hasAttribute('controls')).toBe(true);
    expect(video.hasAttribute('autoplay')).toBe(false);
    expect(video.hasAttribute('poster')).toBe(false);
  });

  it('puts a remote video behind a placeholder too', () => {
    const html =
      '<div class="message_inline_image message_inline_video"><a href="https://v.example/a.mp4">' +
      '<video preload="metadata" src="https://v.example/a.mp4"></video></a></div>';
    const out = parse(sanitizeMessageHtml(html, 'acct-1'));
    expect(out.querySelector('video')!.hasAttribute('src')).toBe(false);
    expect(out.querySelector('a')!.getAttribute('aria-label')).toBe(
      'Video from v.example: click to load',
    );
  });
});
