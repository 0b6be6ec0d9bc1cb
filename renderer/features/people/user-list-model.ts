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

const ASCII = /^[\x20-\x7e]*$/;

/** Each user's name as the list orders it (folded once per user record: records are immutable). */
const nameKeys = new WeakMap<User, string>();
function nameKey(user: User): string {
  let key = nameKeys.get(user);
  if (key === undefined) {
    // Most names are ASCII, where folding is lower-casing (NFD and the mark pattern cost more).
    const name = user.full_name;
    key = ASCII.test(name) ? name.toLowerCase() : foldForSearch(name);
    nameKeys.set(user, key);
  }
  return key;
}

/**
 * The users in the list's order, by folded name (case and accents ignored, as the collator's base
 * sensitivity did). Sorting 10,000 people with Intl.Collator took about 100 ms of the first paint in
 * a large organization; folded keys compare as plain strings. Callers memoize the result per users
 * slice, so a presence change regroups the people without sorting them again.
 */
export function sortUsersByName(users: Iterable<User>): User[] {
  return [...users].sort((a, b) => {
    const ka = nameKey(a);
    const kb = nameKey(b);
    return ka < kb ? -1 : ka > kb ? 1 : a.user_id - b.user_id;
  });
}

export function groupUsers(options: {
  /** In any order, unless `sorted` says they are in sortUsersByName's. */
  users: Iterable<User>;
  sorted?: boolean;
  statusOf: (userId: number) => PresenceStatus;
  selfUserId: number;
  /** Only these (a channel's subscribers); undefined for everyone. */
  only?: ReadonlySet<number>;
  /** The users the current user muted (left out). */
  muted?: { has(userId: number): boolean };
  query?: string;
}): UserListGroup[] {
  const byStatus: Record<PresenceStatus, number[]> = { active: [], idle: [], offline: [] };
  let selfStatus: PresenceStatus | null = null;
  const ordered = options.sorted ? options.users : sortUsersByName(options.users);
  for (const user of ordered) {
    if (!user.is_active || user.is_bot) continue;
    if (options.only && !options.only.has(user.user_id)) continue;
    if (options.muted?.has(user.user_id)) continue;
    if (options.query && !matchesUserQuery(user, options.query)) continue;
    const status = options.statusOf(user.user_id);
    // The current user leads their group.
    if (user.user_id === options.selfUserId) selfStatus = status;
    else byStatus[status].push(user.user_id);
  }
  if (selfStatus) byStatus[selfStatus].unshift(options.selfUserId);
  return (['active', 'idle', 'offline'] as const)
    .map((status) => ({ status, title: TITLES[status], userIds: byStatus[status] }))
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
