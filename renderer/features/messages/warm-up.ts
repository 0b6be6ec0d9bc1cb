// Idle warm-up of the message list's code paths, as the sanitizer's (lib/sanitize.ts): the app calls
// it after its first render. The first Virtualizer an app builds compiles the whole of
// @tanstack/virtual-core (a large class whose methods are closures made in its constructor): about
// 5 ms of the first list's first paint otherwise, on a page that was idle just before.
import {
  Virtualizer,
  elementScroll,
  observeElementOffset,
  observeElementRect,
} from '@tanstack/react-virtual';

let warmed: Promise<void> | null = null;

/**
 * A message row of each kind of text (sender line, bold, a link, a code block in the monospace
 * font, an emoji), laid out once out of sight and removed: the first layout of such text looks up
 * and loads its fonts, which no other part of the app's first screen uses, and the emoji's style
 * starts loading the emoji sheet.
 */
function layOutSampleRow(): void {
  const wrap = document.createElement('div');
  wrap.className = 'message-list-wrap';
  wrap.setAttribute('aria-hidden', 'true');
  wrap.style.cssText = 'position:fixed;left:-10000px;top:0;width:800px;visibility:hidden';
  // Static markup of our own (no message content), in the row's structure (MessageRow.tsx).
  wrap.innerHTML =
    '<div class="message-list"><div class="message-row"><div class="recipient-header">' +
    '<button type="button" class="link">#general</button> › <button type="button" class="link">topic</button></div>' +
    '<div class="message"><span class="gutter avatar initials">AB</span>' +
    '<div class="body"><div class="sender-line"><button type="button" class="sender link">Sender</button>' +
    '<time>10:00 AM</time></div><div class="content"><p>Text ' +
    '<strong>bold</strong> <em>em</em> <a href="#">link</a> <code>code</code> ' +
    '<span class="emoji emoji-1f642">:smile:</span></p>' +
    '<div class="codehilite"><pre><span></span><code>const x = 1;</code></pre></div></div>' +
    '</div></div></div></div>';
  document.body.append(wrap);
  void wrap.offsetHeight;
  wrap.remove();
}

/** Builds a throwaway virtualizer over a detached element and computes its rows, once, when idle. */
export function warmMessageListWhenIdle(): Promise<void> {
  warmed ??= new Promise<void>((resolve) => {
    const run = () => {
      const element = document.createElement('div');
      const virtualizer = new Virtualizer<HTMLDivElement, HTMLDivElement>({
        count: 1000,
        getScrollElement: () => element,
        estimateSize: () => 48,
        scrollToFn: elementScroll,
        observeElementRect,
        observeElementOffset,
        initialRect: { width: 800, height: 800 },
        initialOffset: 1000 * 48 - 800,
        overscan: 6,
      });
      virtualizer.getVirtualItems();
      virtualizer.getVirtualItemForOffset(100);
      virtualizer.getTotalSize();
      layOutSampleRow();
      resolve();
    };
    if (typeof requestIdleCallback === 'function') requestIdleCallback(run, { timeout: 2000 });
    else setTimeout(run, 0);
  });
  return warmed;
}
