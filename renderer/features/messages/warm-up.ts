// Idle warm-up of the message list's code paths, as the sanitizer's (lib/sanitize.ts): the app calls
// it after its first render. (Below it, the idle preparation of the HTML that lists will show first.)
// The first Virtualizer an app builds compiles the whole of @tanstack/virtual-core (a large class
// whose methods are closures made in its constructor): about 5 ms of the first list's first paint
// otherwise, on a page that was idle just before.
import {
  Virtualizer,
  elementScroll,
  observeElementOffset,
  observeElementRect,
} from '@tanstack/react-virtual';
import type { ChatState, ChatStore } from '../../store';
import type { NarrowList, NarrowsState } from '../../store/slices/narrows';
import { messageBodyHtml } from './rich-content';

let warmed: Promise<void> | null = null;

/**
 * A message row of each kind of text (sender line, bold, a link, a code block in the monospace
 * font, math), laid out once out of sight and removed: the first layout of such text looks up and
 * loads its fonts (KaTeX's too), which no other part of the app's first screen uses. No emoji: its
 * style would start the 5.8 MB emoji sheet, which the first emoji on screen loads soon enough and
 * which, fetched here, competed with the launch's first message for the host and the page.
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
    '<span class="katex"><span class="katex-html">' +
    '<span class="mord mathnormal">x</span><span class="mord">1</span>' +
    // Large operators and delimiters (∑, ∫, big parentheses) and blackboard bold: each its own font.
    '<span class="mop op-symbol small-op">∑</span><span class="mop op-symbol large-op">∫</span>' +
    '<span class="delimsizing size1">(</span><span class="delimsizing size2">(</span>' +
    '<span class="delimsizing size3">(</span><span class="delimsizing size4">(</span>' +
    '<span class="mord mathbb">R</span></span></span></p>' +
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

/** Newest messages of each message list whose HTML is prepared ahead (a screenful and then some). */
const WARM_ROWS = 40;
/** Ids already prepared, per account; cleared when it grows past this (the caches are bounded too). */
const WARMED_LIMIT = 4000;

/**
 * Sanitizes and decorates, while the page is idle, the HTML of the newest messages of every message
 * list as lists fill and grow, so that opening a conversation finds its rows' HTML in the caches of
 * lib/sanitize.ts and rich-content.ts. DOMPurify takes 1–3 ms for a message with math or
 * highlighted code: for a screen of such rows that is most of a first paint. The work runs in idle
 * slices and stops when the page needs the thread. `drained()` resolves once nothing is left to do.
 */
export function warmMessageBodiesWhenIdle(store: ChatStore): {
  stop: () => void;
  drained: () => Promise<void>;
} {
  /** The narrows state last looked at per account, and every list object already queued (a list
   * that changes is a new object). */
  const seen = new Map<string, NarrowsState>();
  const queued = new WeakSet<NarrowList>();
  const warmed = new Map<string, Set<number>>();
  const queue: Array<{ accountId: string; id: number }> = [];
  let scheduled = false;
  let waiters: Array<() => void> = [];

  const work = (deadline?: IdleDeadline) => {
    scheduled = false;
    const accounts = store.getState().accounts;
    // Without idle callbacks (jsdom), a few per timer tick.
    let budget = deadline === undefined ? 8 : Infinity;
    while (queue.length > 0 && budget-- > 0 && (deadline?.timeRemaining() ?? 2) > 1) {
      const { accountId, id } = queue.shift()!;
      const content = accounts[accountId]?.messages.byId.get(id)?.content;
      if (content !== undefined) messageBodyHtml(content, accountId);
    }
    if (queue.length > 0) schedule();
    else {
      for (const resolve of waiters) resolve();
      waiters = [];
    }
  };
  const schedule = () => {
    if (scheduled) return;
    scheduled = true;
    if (typeof requestIdleCallback === 'function') requestIdleCallback(work);
    else setTimeout(() => work(), 0);
  };

  const enqueue = (accountId: string, list: NarrowList) => {
    let done = warmed.get(accountId);
    if (!done || done.size > WARMED_LIMIT) warmed.set(accountId, (done = new Set()));
    for (let i = list.ids.length - 1; i >= Math.max(0, list.ids.length - WARM_ROWS); i--) {
      const id = list.ids.at(i)!;
      if (done.has(id)) continue;
      done.add(id);
      queue.push({ accountId, id });
    }
  };

  const check = (state: ChatState) => {
    for (const [accountId, account] of Object.entries(state.accounts)) {
      if (seen.get(accountId) === account.narrows) continue;
      seen.set(accountId, account.narrows);
      for (const list of account.narrows.lists.values()) {
        if (queued.has(list)) continue;
        queued.add(list);
        enqueue(accountId, list);
      }
    }
    if (queue.length > 0) schedule();
  };
  check(store.getState());
  return {
    stop: store.subscribe(check),
    drained: () =>
      queue.length === 0 && !scheduled
        ? Promise.resolve()
        : new Promise<void>((resolve) => waiters.push(resolve)),
  };
}
