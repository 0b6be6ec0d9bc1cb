// The user's pending message reminders, from register's `reminders` (FL399) and kept current by
// `reminders` events (add, remove; a delivered one is removed), as the public web app keeps them.
// A server without them in its snapshot leaves `byId` null: the list is then read with GET
// /reminders whenever it is shown and after every new snapshot (a reconnect).
import type { Reminder } from '../../../shared/api/types';
import type { ServerEvent, ServerEventType } from '../../../shared/api/events';
import type { EventContext } from '../context';
import type { SliceDraft } from '../sliceDraft';

export interface RemindersState {
  readonly version: number;
  /** reminder id -> reminder; null when the server's snapshot has no reminders. */
  readonly byId: Map<number, Reminder> | null;
}

export function remindersFrom(reminders: readonly Reminder[] | undefined): RemindersState {
  return {
    version: 0,
    byId: reminders ? new Map(reminders.map((r) => [r.reminder_id, r])) : null,
  };
}

/** Soonest first, as the web app lists them. */
export function remindersInOrder(reminders: Iterable<Reminder>): Reminder[] {
  return [...reminders].sort(
    (a, b) =>
      a.scheduled_delivery_timestamp - b.scheduled_delivery_timestamp ||
      a.reminder_id - b.reminder_id,
  );
}

export const remindersEventTypes: readonly ServerEventType[] = ['reminders'];

export function handleRemindersEvent(
  d: SliceDraft<RemindersState>,
  ev: ServerEvent,
  _ctx: EventContext,
): void {
  if (ev.type !== 'reminders' || !d.read.byId) return;
  if (ev.op === 'add') {
    for (const r of ev.reminders) d.write.byId!.set(r.reminder_id, r);
  } else if (d.read.byId.has(ev.reminder_id)) {
    d.write.byId!.delete(ev.reminder_id);
  }
}
