// Backoff shared by the API client's retries and the event loop: exponential from about 0.1 s,
// doubling to a 10 s cap, with jitter so many clients (or accounts) do not retry in lockstep.

export const BACKOFF_BASE_MS = 100;
export const BACKOFF_CAP_MS = 10_000;

/** Delay before retry number `attempt` (0-based): half fixed, half random, within the cap. */
export function backoffDelay(attempt: number, random: () => number = Math.random): number {
  const ceiling = Math.min(BACKOFF_CAP_MS, BACKOFF_BASE_MS * 2 ** Math.min(attempt, 20));
  return Math.round(ceiling / 2 + (random() * ceiling) / 2);
}

export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason ?? new Error('aborted'));
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal?.reason ?? new Error('aborted'));
    };
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}
