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
      resolve();
    };
    if (typeof requestIdleCallback === 'function') requestIdleCallback(run, { timeout: 2000 });
    else setTimeout(run, 0);
  });
  return warmed;
}
