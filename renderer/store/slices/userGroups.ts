// User groups by id. A user's deactivation drops them from every group's members here (the server
// does not send remove_members for it), so mention and permission checks stop counting them.
import type { UserGroup } from '../../../shared/api/types';
import type { ServerEvent, ServerEventType } from '../../../shared/api/events';
import type { EventContext } from '../context';
import type { SliceDraft } from '../sliceDraft';

export interface UserGroupsState {
  readonly version: number;
  readonly groups: Map<number, UserGroup>;
}

export function userGroupsFrom(groups: readonly UserGroup[] | undefined): UserGroupsState {
  return { version: 0, groups: new Map((groups ?? []).map((g) => [g.id, g])) };
}

function withIds(list: readonly number[], ids: readonly number[], add: boolean): number[] {
  const set = new Set(list);
  for (const id of ids) {
    if (add) set.add(id);
    else set.delete(id);
  }
  return [...set];
}

/** The event types handleUserGroupsEvent reacts to (the dispatcher calls it for these only). */
export const userGroupsEventTypes: readonly ServerEventType[] = ['user_group', 'realm_user'];

export function handleUserGroupsEvent(
  d: SliceDraft<UserGroupsState>,
  ev: ServerEvent,
  _ctx: EventContext,
): void {
  if (ev.type === 'realm_user' && ev.op === 'update' && 'is_active' in ev.person) {
    if (ev.person.is_active) return;
    const userId = ev.person.user_id;
    for (const g of d.read.groups.values()) {
      if (g.members.includes(userId)) {
        d.write.groups.set(g.id, { ...g, members: g.members.filter((m) => m !== userId) });
      }
    }
    return;
  }
  if (ev.type !== 'user_group') return;
  switch (ev.op) {
    case 'add':
      d.write.groups.set(ev.group.id, ev.group);
      return;
    case 'remove':
      if (d.read.groups.has(ev.group_id)) d.write.groups.delete(ev.group_id);
      return;
    default: {
      const g = d.read.groups.get(ev.group_id);
      if (!g) return;
      let next: UserGroup;
      if (ev.op === 'update') next = { ...g, ...ev.data };
      else if ('user_ids' in ev) {
        next = { ...g, members: withIds(g.members, ev.user_ids, ev.op === 'add_members') };
      } else {
        next = {
          ...g,
          direct_subgroup_ids: withIds(
            g.direct_subgroup_ids,
            ev.direct_subgroup_ids,
            ev.op === 'add_subgroups',
          ),
        };
      }
      d.write.groups.set(g.id, next);
    }
  }
}
