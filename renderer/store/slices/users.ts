// Users of the realm (active, deactivated and cross-realm bots), by id. Deactivation is a
// realm_user update with is_active false (never a remove); the user stays known so old messages
// still show a name. Group membership is dropped by the userGroups slice.
import type { RegisterResponse, User, UserRole, WireUser } from '../../../shared/api/types';
import type {
  ServerEvent,
  RealmUserUpdatePerson,
  ServerEventType,
} from '../../../shared/api/events';
import type { EventContext } from '../context';
import type { SliceDraft } from '../sliceDraft';

export interface UsersState {
  readonly version: number;
  readonly users: Map<number, User>;
  /** Lower-cased API email -> user id. */
  readonly idByEmail: Map<string, number>;
  /**
   * The snapshot came without the people (a first sign-in: electron/accounts/session.ts); they
   * arrive with the `people` push (peopleArrived). Views say "loading" rather than "unknown".
   */
  readonly loading: boolean;
}

export function emptyUsers(): UsersState {
  return { version: 0, users: new Map(), idByEmail: new Map(), loading: false };
}

function putUser(s: UsersState, user: User): void {
  const old = s.users.get(user.user_id);
  if (old && old.email.toLowerCase() !== user.email.toLowerCase()) {
    s.idByEmail.delete(old.email.toLowerCase());
  }
  s.users.set(user.user_id, user);
  s.idByEmail.set(user.email.toLowerCase(), user.user_id);
}

type OwnFields = 'user_id' | 'email' | 'delivery_email' | 'full_name' | 'avatar_url';
type RoleFields = 'is_admin' | 'is_owner' | 'is_moderator' | 'is_guest';

export function usersFromRegister(
  reg: Pick<RegisterResponse, 'realm_users' | 'realm_non_active_users' | 'cross_realm_bots'> &
    Partial<Pick<RegisterResponse, OwnFields | RoleFields>>,
  peoplePending = false,
): UsersState {
  const s = { ...emptyUsers(), loading: peoplePending };
  for (const u of reg.cross_realm_bots ?? []) putUser(s, normalizeUser(u, true));
  for (const u of reg.realm_non_active_users ?? []) putUser(s, normalizeUser(u, false));
  for (const u of reg.realm_users ?? []) putUser(s, normalizeUser(u, true));
  // Without the people, the register still says who the user is (main puts /users/me's answer in
  // it): their role decides which settings they may change before everyone else arrives.
  if (peoplePending && reg.user_id !== undefined && reg.email !== undefined) {
    putUser(s, ownUser(reg as Pick<RegisterResponse, OwnFields | RoleFields>));
  }
  return s;
}

/** The user's own entry from the register's own-user fields (named as the public server's). */
function ownUser(reg: Pick<RegisterResponse, OwnFields | RoleFields>): User {
  return normalizeUser(
    {
      user_id: reg.user_id,
      email: reg.email,
      delivery_email: reg.delivery_email ?? null,
      full_name: reg.full_name ?? '',
      avatar_url: reg.avatar_url ?? null,
      is_owner: reg.is_owner,
      is_admin: reg.is_admin,
      is_guest: reg.is_guest,
      // The booleans' role (roleFromFlags) has no moderator: the register says that one apart.
      ...(reg.is_moderator ? { role: 300 as UserRole } : {}),
    },
    true,
  );
}

/**
 * The one place a user from the wire becomes the store's User, so every screen can read every field.
 * The public server leaves things implicit: `is_active` is absent from `realm_users` (active) and
 * `realm_non_active_users` (not), so the list a user came in says it (`listedActive`); a realm_user
 * add names a new, active user. Humans carry no `bot_type`/`bot_owner_id`; servers before FL59 send
 * the is_admin/is_guest booleans without `role`, older ones lack `delivery_email`, `timezone`,
 * `date_joined` or `avatar_version`.
 */
export function normalizeUser(raw: WireUser, listedActive?: boolean): User {
  const role = raw.role ?? roleFromFlags(raw);
  const flags = roleFlags(role);
  return {
    ...raw,
    delivery_email: raw.delivery_email ?? null,
    date_joined: raw.date_joined ?? '',
    is_active: listedActive ?? raw.is_active ?? true,
    is_owner: raw.is_owner ?? flags.is_owner,
    is_admin: raw.is_admin ?? flags.is_admin,
    is_guest: raw.is_guest ?? flags.is_guest,
    is_bot: raw.is_bot ?? false,
    bot_type: raw.bot_type ?? null,
    bot_owner_id: raw.bot_owner_id ?? null,
    role,
    timezone: raw.timezone ?? '',
    avatar_url: raw.avatar_url ?? null,
    avatar_version: raw.avatar_version ?? 1,
  };
}

/** The role the pre-FL59 booleans describe. */
function roleFromFlags(raw: Partial<User>): UserRole {
  if (raw.is_owner) return 100;
  if (raw.is_admin) return 200;
  if (raw.is_guest) return 600;
  return 400;
}

/** The is_owner / is_admin / is_guest booleans that go with a role. */
function roleFlags(role: UserRole): Pick<User, 'is_owner' | 'is_admin' | 'is_guest'> {
  return { is_owner: role === 100, is_admin: role <= 200, is_guest: role === 600 };
}

/** A user with one realm_user update applied (each update carries exactly one change). */
export function applyPersonUpdate(user: User, person: RealmUserUpdatePerson): User {
  const next: User = { ...user };
  if ('full_name' in person) next.full_name = person.full_name;
  if ('avatar_url' in person) {
    next.avatar_url = person.avatar_url;
    next.avatar_version = person.avatar_version;
  }
  if ('timezone' in person) next.timezone = person.timezone;
  if ('bot_owner_id' in person) next.bot_owner_id = person.bot_owner_id;
  if ('role' in person) Object.assign(next, { role: person.role }, roleFlags(person.role));
  if ('delivery_email' in person) next.delivery_email = person.delivery_email;
  if ('new_email' in person) next.email = person.new_email;
  if ('is_active' in person) next.is_active = person.is_active;
  if ('is_imported_stub' in person) {
    next.is_imported_stub = person.is_imported_stub;
    next.date_joined = person.date_joined;
  }
  if ('custom_profile_field' in person) {
    const { id, value, rendered_value } = person.custom_profile_field;
    const data = { ...(user.profile_data ?? {}) };
    if (value === null) delete data[String(id)];
    else data[String(id)] = rendered_value === undefined ? { value } : { value, rendered_value };
    next.profile_data = data;
  }
  return next;
}

/**
 * The people a snapshot without them was waiting for: the lists replace the (empty) ones. The
 * `realm_user` events main held meanwhile are applied after this, by the caller (store.ts).
 */
export function peopleArrived(
  d: SliceDraft<UsersState>,
  people: Pick<RegisterResponse, 'realm_users' | 'realm_non_active_users' | 'cross_realm_bots'>,
): void {
  const fresh = usersFromRegister(people);
  const w = d.write;
  w.users = fresh.users;
  w.idByEmail = fresh.idByEmail;
  w.loading = false;
}

/** The event types handleUsersEvent reacts to (the dispatcher calls it for these only). */
export const usersEventTypes: readonly ServerEventType[] = ['realm_user'];

export function handleUsersEvent(
  d: SliceDraft<UsersState>,
  ev: ServerEvent,
  _ctx: EventContext,
): void {
  if (ev.type !== 'realm_user') return;
  switch (ev.op) {
    case 'add':
      putUser(d.write, normalizeUser(ev.person));
      return;
    case 'remove': {
      // Only guests losing access to a user get this; that user is no longer visible to them.
      const old = d.read.users.get(ev.person.user_id);
      if (!old) return;
      d.write.users.delete(old.user_id);
      d.write.idByEmail.delete(old.email.toLowerCase());
      return;
    }
    case 'update': {
      const old = d.read.users.get(ev.person.user_id);
      if (!old) return; // an update for a user we cannot see
      putUser(d.write, applyPersonUpdate(old, ev.person));
      return;
    }
  }
}
