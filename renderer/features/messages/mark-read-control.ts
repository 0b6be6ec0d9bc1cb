// The open message list's mark-on-scroll, as the message actions see it. "Mark as unread from here"
// suspends it, as the web app does: otherwise the list would mark the messages on screen read again
// within a moment (they are in view, and the flag change re-renders them). The list resumes it when
// the reader scrolls or moves through it; opening another conversation mounts a fresh list.
import { createContext, useContext } from 'react';

export interface MarkReadControl {
  /** Stop marking what is in view as read (pending marks are dropped). */
  suspend(): void;
  /** Mark as read again what is in view (after a failed mark-unread, or the reader's scroll). */
  resume(): void;
}

const outsideAList: MarkReadControl = { suspend: () => undefined, resume: () => undefined };

export const MarkReadControlContext = createContext<MarkReadControl>(outsideAList);

export function useMarkReadControl(): MarkReadControl {
  return useContext(MarkReadControlContext);
}

/** Keys that move through the list (and so resume marking): not Tab, Enter, Space or Esc on its buttons. */
export const READING_KEYS = new Set(['ArrowUp', 'ArrowDown', 'PageUp', 'PageDown', 'Home', 'End']);
