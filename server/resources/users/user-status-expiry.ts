// Clear-after for statuses (scheduled_end_time): one timer per server, armed for the soonest end
// time and re-armed whenever a status changes. On start, whatever ended while the server was down
// is cleared at once, as the public server's worker does.
import type { RealmContext } from '../../realm/context';
import { deadlineTimer, type DeadlineTimer } from '../../realm/deadline-timer';

const timers = new WeakMap<RealmContext, DeadlineTimer>();

/** Re-arms the timer after a status (and so perhaps its end time) changed. */
export function rescheduleStatusExpiry(ctx: RealmContext): void {
  timers.get(ctx)?.rearm();
}

/** Starts clearing ended statuses with `clear` (which must reset the row's end time). */
export function startStatusExpiry(ctx: RealmContext, clear: (userId: number) => void): () => void {
  const clearEnded = () => {
    const ended = ctx.db
      .prepare<[number], { user_id: number }>(
        'SELECT user_id FROM user_status WHERE scheduled_end_time <= ? ORDER BY scheduled_end_time',
      )
      .all(ctx.nowSeconds());
    for (const row of ended) clear(row.user_id);
  };
  const soonestEnd = () =>
    ctx.db
      .prepare<[], { at: number | null }>('SELECT MIN(scheduled_end_time) AS at FROM user_status')
      .get()?.at ?? undefined;
  const timer = deadlineTimer(soonestEnd, clearEnded);
  timers.set(ctx, timer);
  clearEnded();
  timer.rearm();
  return timer.stop;
}
