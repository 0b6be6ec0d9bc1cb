// The emoji sheet's positions (virtual:emoji-sprites.css: one rule per emoji, about 100 KB, half of
// the app's CSS) load apart from the app's stylesheets: the page's first render does not wait to
// parse them. Emoji are drawn once they are in (message-content.css draws the sheet only under
// data-emoji-sheet), and the 5.8 MB sheet itself is fetched by the first emoji drawn.
let loading: Promise<void> | null = null;

/** Loads the positions (once) and then lets emoji draw the sheet. */
export function loadEmojiSheet(root: HTMLElement = document.documentElement): Promise<void> {
  loading ??= import('virtual:emoji-sprites.css').then(() => {
    root.dataset.emojiSheet = '';
  });
  return loading;
}

/** Loads them while the page is idle after its first render (soon, even if it never is). */
export function loadEmojiSheetWhenIdle(): void {
  const load = () => void loadEmojiSheet().catch(() => (loading = null));
  if (typeof requestIdleCallback === 'function') requestIdleCallback(load, { timeout: 2000 });
  else setTimeout(load, 0);
}
