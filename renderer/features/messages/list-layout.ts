// What the last message list measured: its viewport and its typical row height. A list opened next
// (another narrow, in the same window) starts from these instead of fixed guesses, so its first
// frame already renders the rows that end up in view: fewer rows mounted after the first layout,
// and no second render pass for a viewport that turned out smaller than guessed.

export interface ListRect {
  width: number;
  height: number;
}

/**
 * Before any list has been measured. Rows with a sender line are about 42 px, but a guess that low
 * costs about 12% more CPU per frame when the first list is scrolled fast through rows not yet
 * measured (bench:render, 1,200 px per frame), so the first list keeps the generous 64.
 */
const DEFAULT_ROW_PX = 64;

let rect: ListRect | null = null;
let rowPx = DEFAULT_ROW_PX;

/** The viewport to assume before the list is laid out. */
export function expectedListRect(): ListRect {
  if (rect) return rect;
  // Nothing measured yet: the window's height bounds the list's.
  const height = typeof window === 'undefined' ? 800 : window.innerHeight || 800;
  return { width: 800, height };
}

/** The height to assume for a row not measured yet. */
export function expectedRowPx(): number {
  return rowPx;
}

/**
 * Records what a list measured: its viewport, and the mean of its rows' measured heights (rounded
 * down: a low estimate renders a row too many on the first frame, a high one leaves a gap that a
 * second pass fills).
 */
export function rememberListLayout(
  measuredRect: ListRect | null,
  rowSizes: Iterable<number>,
): void {
  if (measuredRect && measuredRect.height > 0) rect = measuredRect;
  let total = 0;
  let count = 0;
  for (const size of rowSizes) {
    total += size;
    count++;
  }
  if (count > 0) rowPx = Math.max(16, Math.floor(total / count));
}

/** Forgets what was measured, as a new window starts (the renderer tests start each file so). */
export function forgetListLayout(): void {
  rect = null;
  rowPx = DEFAULT_ROW_PX;
}
