// The right sidebar's rows: people grouped by presence (active, idle, offline), each group by name.
// As the public web app's buddy list: only active human users (bots and deactivated users are not
// listed), the current user first in their group; in a channel, only its subscribers. Muted users
// are left out too, as the API asks of presence lists.
import type { User } from '../../../shared/api/types';
import type { PresenceStatus } from '../../store';

export interface UserListGroup {
  status: PresenceStatus;
  title: string;
  userIds: number[];
}

export type UserListRow =
  | { kind: 'header'; status: PresenceStatus; title: string; count: number }
  | { kind: 'user'; userId: number; status: PresenceStatus };

const TITLES: Record<PresenceStatus, string> = {
  active: 'Active',
  idle: 'Idle',
  offline: 'Offline',
};

/** Lower-cased, accents removed, so "jose" finds "José". */
export function foldForSearch(text: string): string {
  return text.normalize('NFD').replace(/\p{M}/gu, '').toLowerCase();
}

/** Every word of the query starts a word of the name, or the query is in the email. */
export function matchesUserQuery(user: User, query: string): boolean {
  const q = foldForSearch(query.trim());
  if (!q) return true;
  const name = foldForSearch(user.full_name);
  if (name.startsWith(q)) return true;
  const nameWords = name.split(/\s+/);
  const queryWords = q.split(/\s+/);
  if (queryWords.every((w) => nameWords.some((n) => n.startsWith(w)))) return true;
  return user.email.toLowerCase().includes(q);
}

export function groupUsers(options: {
  users: Iterable<User>;
  statusOf: (userId: number) => PresenceStatus;
  selfUserId: number;
  /** Only these (a channel's subscribers); undefined for everyone. */
  only?: ReadonlySet<number>;
  /** The users the current user muted (left out). */
  muted?: { has(userId: number): boolean };
  query?: string;
}): UserListGroup[] {
  const byStatus: Record<PresenceStatus, { user: User; self: boolean }[]> = {
    active: [],
    idle: [],
    offline: [],
  };
  for (const user of options.users) {
    if (!user.is_active || user.is_bot) continue;
    if (options.only && !options.only.has(user.user_id)) continue;
    if (options.muted?.has(user.user_id)) continue;
    if (options.query && !matchesUserQuery(user, options.query)) continue;
    byStatus[options.statusOf(user.user_id)].push({
      user,
      self: user.user_id === options.selfUserId,
    });
  }
  const collator = new Intl.Collator(undefined, { sensitivity: 'base' });
  return (['active', 'idle', 'offline'] as const)
    .map((status) => ({
      status,
      title: TITLES[status],
      userIds: byStatus[status]
        .sort(
          (a, b) =>
            Number(b.self) - Number(a.self) || collator.compare(a.user.full_name, b.user.full_name),
        )
        .map((entry) => entry.user.user_id),
    }))
    .filter((group) => group.userIds.length > 0);
}

/** The groups as flat rows (a header, then its people), for a virtualized list. */
export function userListRows(groups: readonly UserListGroup[]): UserListRow[] {
  const rows: UserListRow[] = [];
  for (const group of groups) {
    rows.push({
      kind: 'header',
      status: group.status,
      title: group.title,
      count: group.userIds.length,
    });
    for (const userId of group.userIds) rows.push({ kind: 'user', userId, status: group.status });
  }
  return rows;
}
