// One timer per job, armed for the soonest of its deadlines (UNIX seconds) and re-armed whenever
// they change: scheduled messages and reminders, statuses that clear themselves.

// setTimeout holds at most ~24.8 days; far deadlines are simply re-checked when this wait ends.
const MAX_WAIT_MS = 6 * 60 * 60 * 1000;

export interface DeadlineTimer {
  /** Re-arms for the soonest deadline now (after deadlines were added, changed or removed). */
  rearm(): void;
  stop(): void;
}

/** `soonest` reads the next deadline (undefined: none); `fire` handles whatever fell due. */
export function deadlineTimer(soonest: () => number | undefined, fire: () => void): DeadlineTimer {
  let timer: NodeJS.Timeout | undefined;
  let stopped = false;
  const rearm = () => {
    if (stopped) return;
    if (timer) clearTimeout(timer);
    timer = undefined;
    const next = soonest();
    if (next === undefined) return;
    const waitMs = Math.min(Math.max(0, next * 1000 - Date.now()), MAX_WAIT_MS);
    timer = setTimeout(() => {
      timer = undefined;
      fire();
      rearm();
    }, waitMs);
  };
  return {
    rearm,
    stop() {
      stopped = true;
      if (timer) clearTimeout(timer);
    },
  };
}
