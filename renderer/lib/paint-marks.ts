// Performance marks for the moments benchmarks measure (bench/large-org reads them with
// performance.getEntriesByName). A mark costs microseconds and each name is marked once per page, so
// the timeline does not grow with use.
const marked = new Set<string>();

export function markOnce(name: string): void {
  if (marked.has(name)) return;
  marked.add(name);
  performance.mark(name);
}

/**
 * Marks `name` once the frame holding what was just committed has been painted: the frame's
 * callback posts a task, which runs after the paint (a timer would also wait for React's passive
 * effects and other work queued behind the frame).
 */
export function markAfterPaint(name: string): void {
  if (marked.has(name)) return;
  marked.add(name);
  afterNextPaint(() => performance.mark(name));
}

/**
 * Runs `task` once the next frame (holding what was just committed) has been painted. Without
 * frames (a test's DOM) it runs after the current task.
 */
export function afterNextPaint(task: () => void): void {
  if (typeof requestAnimationFrame !== 'function') {
    setTimeout(task, 0);
    return;
  }
  requestAnimationFrame(() => {
    const channel = new MessageChannel();
    channel.port1.onmessage = () => {
      channel.port1.close();
      task();
    };
    channel.port2.postMessage(null);
  });
}
