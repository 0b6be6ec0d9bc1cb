// What a screen can show a moment later than the rest: rendered once the page has been idle after
// a condition became true (the account's state loaded), so a launch's first render (and its first
// messages) does not wait for it.
import { useEffect, useState } from 'react';

/**
 * False until `after` is true and the page has then been idle once (or `timeoutMs` passed); true
 * from then on. Without idle callbacks (jsdom) a timer stands in for them.
 */
export function useIdleAfter(after: boolean, timeoutMs = 1000): boolean {
  const [ready, setReady] = useState(false);
  useEffect(() => {
    if (!after || ready) return;
    if (typeof requestIdleCallback === 'function') {
      const id = requestIdleCallback(() => setReady(true), { timeout: timeoutMs });
      return () => cancelIdleCallback(id);
    }
    const timer = setTimeout(() => setReady(true), 0);
    return () => clearTimeout(timer);
  }, [after, ready, timeoutMs]);
  return ready;
}
