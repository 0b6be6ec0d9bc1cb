// Work that should follow a keystroke's frame rather than share it.

/**
 * Runs `task` in the first task after the browser's next frame (a requestAnimationFrame, then a
 * timer from it), so what the current task changed (a typed letter) is painted before `task` adds
 * its own changes. Not a delay: the task runs as soon as that frame is done. Returns a cancel.
 */
export function afterNextPaint(task: () => void): () => void {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const frame = requestAnimationFrame(() => {
    timer = setTimeout(task, 0);
  });
  return () => {
    cancelAnimationFrame(frame);
    clearTimeout(timer);
  };
}
