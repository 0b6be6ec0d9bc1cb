// Clear-after for statuses (scheduled_end_time): one timer per server, armed for the soonest end
// time and re-armed whenever a status changes. On start, whatever ended while the server was down
// is cleared at once, as the public server's worker does.
import type { RealmContext } from '../../realm/context';
import type { Db } from '../../db';

// setTimeout holds at most ~24.8 days; far end times are simply re-checked when this wait ends.
const MAX_WAIT_MS = 6 * 60 * 60 * 1000;

interface Expiry {
  timer: NodeJS.Timeout | undefined;
  stopped: boolean;
  clear: (userId: number) => void;
}

const expiries = new WeakMap<RealmContext, Expiry>();

function soonestEnd(db: Db): number | undefined {
  const row = db
    .prepare<[], { at: number | null }>('SELECT MIN(scheduled_end_time) AS at FROM user_status')
    .get();
  return row?.at ?? undefined;
}

function clearEnded(ctx: RealmContext, expiry: Expiry): void {
  const ended = ctx.db
    .prepare<[number], { user_id: number }>(
      'SELECT user_id FROM user_status WHERE scheduled_end_time <= ? ORDER BY scheduled_end_time',
    )
    .all(ctx.nowSeconds());
  for (const row of ended) expiry.clear(row.user_id);
}

/** Re-arms the timer after a status (and so perhaps its end time) changed. */
export function rescheduleStatusExpiry(ctx: RealmContext): void {
  const expiry = expiries.get(ctx);
  if (!expiry || expiry.stopped) return;
  if (expiry.timer) clearTimeout(expiry.timer);
  expiry.timer = undefined;
  const next = soonestEnd(ctx.db);
  if (next === undefined) return;
  const waitMs = Math.min(Math.max(0, next * 1000 - Date.now()), MAX_WAIT_MS);
  expiry.timer = setTimeout(() => {
    expiry.timer = undefined;
    clearEnded(ctx, expiry);
    rescheduleStatusExpiry(ctx);
  }, waitMs);
}

/** Starts clearing ended statuses with `clear` (which must reset the row's end time). */
export function startStatusExpiry(ctx: RealmContext, clear: (userId: number) => void): () => void {
  const expiry: Expiry = { timer: undefined, stopped: false, clear };
  expiries.set(ctx, expiry);
  clearEnded(ctx, expiry);
  rescheduleStatusExpiry(ctx);
  return () => {
    expiry.stopped = true;
    if (expiry.timer) clearTimeout(expiry.timer);
  };
}
