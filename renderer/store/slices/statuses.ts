// User statuses (text and emoji) by user id. An event carries only the fields that changed; an
// empty string clears a field, and a status with nothing left is removed.
import type { UserStatus } from '../../../shared/api/types';
import type { ServerEvent, ServerEventType } from '../../../shared/api/events';
import type { EventContext } from '../context';
import type { SliceDraft } from '../sliceDraft';

export interface StatusesState {
  readonly version: number;
  readonly byUser: Map<number, UserStatus>;
}

function clean(status: UserStatus): UserStatus | undefined {
  const out: UserStatus = {};
  if (status.status_text) out.status_text = status.status_text;
  if (status.emoji_name) {
    out.emoji_name = status.emoji_name;
    if (status.emoji_code) out.emoji_code = status.emoji_code;
    if (status.reaction_type) out.reaction_type = status.reaction_type;
  }
  if (status.away) out.away = true;
  if (status.scheduled_end_time && Object.keys(out).length > 0) {
    out.scheduled_end_time = status.scheduled_end_time;
  }
  return Object.keys(out).length > 0 ? out : undefined;
}

export function statusesFrom(statuses: Record<string, UserStatus> | undefined): StatusesState {
  const byUser = new Map<number, UserStatus>();
  for (const [id, status] of Object.entries(statuses ?? {})) {
    const c = clean(status);
    if (c) byUser.set(Number(id), c);
  }
  return { version: 0, byUser };
}

/** The event types handleStatusesEvent reacts to (the dispatcher calls it for these only). */
export const statusesEventTypes: readonly ServerEventType[] = ['user_status'];

export function handleStatusesEvent(
  d: SliceDraft<StatusesState>,
  ev: ServerEvent,
  _ctx: EventContext,
): void {
  if (ev.type !== 'user_status') return;
  const merged: Record<string, unknown> = { ...(d.read.byUser.get(ev.user_id) ?? {}) };
  for (const key of ['status_text', 'emoji_name', 'emoji_code', 'reaction_type', 'away'] as const) {
    if (ev[key] !== undefined) merged[key] = ev[key];
  }
  // The server drops the clear-after time on any change that does not pass it again.
  if (ev.scheduled_end_time === undefined) delete merged.scheduled_end_time;
  else merged.scheduled_end_time = ev.scheduled_end_time;
  // Clearing the emoji name clears the whole emoji.
  if (ev.emoji_name === '') {
    delete merged.emoji_code;
    delete merged.reaction_type;
  }
  const next = clean(merged as UserStatus);
  if (next) d.write.byUser.set(ev.user_id, next);
  else if (d.read.byUser.has(ev.user_id)) d.write.byUser.delete(ev.user_id);
}
