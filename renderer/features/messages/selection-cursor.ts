// The message list's keyboard cursor as keys outside the list reach it: `j`/`k` move it from
// anywhere (the arrows only while the list has the focus), and the shell's message keys (`s`, `+`,
// Ctrl+S, Shift+M) act on the message it is on. The open message list registers itself here; there
// is one at a time.

export type SelectionMove = 'next' | 'previous' | 'first' | 'last';

export interface SelectionCursor {
  /** Moves the selection (from the last message in view when none is selected yet). */
  move(to: SelectionMove): void;
  /** The selected message, else the last one in view (where the web app's pointer would be). */
  current(): number | null;
}

let open: SelectionCursor | null = null;

/** Registers the open list's cursor; the returned function unregisters it. */
export function registerSelectionCursor(cursor: SelectionCursor): () => void {
  open = cursor;
  return () => {
    if (open === cursor) open = null;
  };
}

/** Moves the open list's selection; false when no message list is open. */
export function moveSelection(to: SelectionMove): boolean {
  if (!open) return false;
  open.move(to);
  return true;
}

/** The message a key acts on: the selected one, else the last in view; null with no list open. */
export function currentMessageId(): number | null {
  return open?.current() ?? null;
}
