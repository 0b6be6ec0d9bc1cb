// The users the current user has muted (id -> when), from register's `muted_users` and
// `muted_users` events, which always carry the whole list.
import type { MutedUser } from '../../../shared/api/types';
import type { ServerEvent, ServerEventType } from '../../../shared/api/events';
import type { EventContext } from '../context';
import type { SliceDraft } from '../sliceDraft';

export interface MutedUsersState {
  readonly version: number;
  readonly byUser: Map<number, number>;
}

export function mutedUsersFrom(list: readonly MutedUser[] | undefined): MutedUsersState {
  return { version: 0, byUser: new Map((list ?? []).map((m) => [m.id, m.timestamp])) };
}

export const mutedUsersEventTypes: readonly ServerEventType[] = ['muted_users'];

export function handleMutedUsersEvent(
  d: SliceDraft<MutedUsersState>,
  ev: ServerEvent,
  _ctx: EventContext,
): void {
  if (ev.type !== 'muted_users') return;
  const w = d.write;
  w.byUser = new Map(ev.muted_users.map((m) => [m.id, m.timestamp]));
}
