// User groups by id. A user's deactivation drops them from every group's members here (the server
// does not send remove_members for it), so mention and permission checks stop counting them. The
// server keeps those memberships, and reactivation (a realm_user update, again without member
// events) gives them back: the groups a user was dropped from are remembered until then.
import type { UserGroup } from '../../../shared/api/types';
import type { ServerEvent, ServerEventType } from '../../../shared/api/events';
import type { EventContext } from '../context';
import type { SliceDraft } from '../sliceDraft';

export interface UserGroupsState {
  readonly version: number;
  readonly groups: Map<number, UserGroup>;
  /** Deactivated user id -> the groups their deactivation dropped them from. */
  readonly suspended: Map<number, Set<number>>;
}

export function userGroupsFrom(groups: readonly UserGroup[] | undefined): UserGroupsState {
  return {
    version: 0,
    groups: new Map((groups ?? []).map((g) => [g.id, g])),
    suspended: new Map(),
  };
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
    if (ev.person.is_active) restoreMemberships(d, ev.person.user_id);
    else suspendMemberships(d, ev.person.user_id);
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
        // Removed while deactivated: not given back on reactivation.
        if (ev.op === 'remove_members') forgetSuspended(d, g.id, ev.user_ids);
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

function suspendMemberships(d: SliceDraft<UserGroupsState>, userId: number): void {
  const dropped = new Set<number>();
  for (const g of d.read.groups.values()) {
    if (!g.members.includes(userId)) continue;
    d.write.groups.set(g.id, { ...g, members: g.members.filter((m) => m !== userId) });
    dropped.add(g.id);
  }
  if (dropped.size > 0) d.write.suspended.set(userId, dropped);
}

function restoreMemberships(d: SliceDraft<UserGroupsState>, userId: number): void {
  const dropped = d.read.suspended.get(userId);
  if (!dropped) return;
  const s = d.write;
  s.suspended.delete(userId);
  for (const groupId of dropped) {
    const g = s.groups.get(groupId); // a group removed meanwhile stays gone
    if (g && !g.members.includes(userId))
      s.groups.set(groupId, { ...g, members: [...g.members, userId] });
  }
}

function forgetSuspended(
  d: SliceDraft<UserGroupsState>,
  groupId: number,
  userIds: readonly number[],
): void {
  for (const userId of userIds) {
    if (d.read.suspended.get(userId)?.has(groupId)) d.write.suspended.get(userId)!.delete(groupId);
  }
}
