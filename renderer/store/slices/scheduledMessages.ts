// Scheduled messages: the user's messages the server will send later, from the snapshot and kept
// current by scheduled_messages events (a delivered or deleted one is removed).
import type { ScheduledMessage } from '../../../shared/api/types';
import type { ServerEvent, ServerEventType } from '../../../shared/api/events';
import type { EventContext } from '../context';
import type { SliceDraft } from '../sliceDraft';

export interface ScheduledMessagesState {
  readonly version: number;
  readonly byId: Map<number, ScheduledMessage>;
}

export function scheduledMessagesFrom(
  messages: readonly ScheduledMessage[] | undefined,
): ScheduledMessagesState {
  return { version: 0, byId: new Map((messages ?? []).map((m) => [m.scheduled_message_id, m])) };
}

/** Soonest first, as the web app lists them. */
export function scheduledMessagesInOrder(state: ScheduledMessagesState): ScheduledMessage[] {
  return [...state.byId.values()].sort(
    (a, b) =>
      a.scheduled_delivery_timestamp - b.scheduled_delivery_timestamp ||
      a.scheduled_message_id - b.scheduled_message_id,
  );
}

export const scheduledMessagesEventTypes: readonly ServerEventType[] = ['scheduled_messages'];

export function handleScheduledMessagesEvent(
  d: SliceDraft<ScheduledMessagesState>,
  ev: ServerEvent,
  _ctx: EventContext,
): void {
  if (ev.type !== 'scheduled_messages') return;
  switch (ev.op) {
    case 'add':
      for (const m of ev.scheduled_messages) d.write.byId.set(m.scheduled_message_id, m);
      return;
    case 'update':
      d.write.byId.set(ev.scheduled_message.scheduled_message_id, ev.scheduled_message);
      return;
    case 'remove':
      if (d.read.byId.has(ev.scheduled_message_id)) d.write.byId.delete(ev.scheduled_message_id);
      return;
  }
}
