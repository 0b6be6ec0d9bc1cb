// User rows and the user object of spec 2.3 as a given viewer sees it. Email visibility is kept
// simple (see README "Conformance"): the API email is stored at creation; delivery_email is shown
// according to the user's email_address_visibility setting; bots always expose theirs.
import { createHash } from 'node:crypto';
import { uploadedAvatarUrl } from './avatar-files';
import type { Db } from '../../db';
import type { AuthUser } from '../../realm/context';
import { toAuthUser } from '../../http/auth';
import { isAdmin, isGuest, isModerator, Role } from '../../realm/roles';
import { badRequest } from '../../http/errors';
import { canAccessUser } from '../../realm/permissions';
import { sharedTableCache } from '../../db/table-cache';

export interface UserRow {
  id: number;
  email: string;
  delivery_email: string;
  full_name: string;
  role: number;
  is_active: number;
  is_bot: number;
  bot_type: number | null;
  bot_owner_id: number | null;
  timezone: string;
  avatar_source: string;
  avatar_version: number;
  date_joined: string;
  is_imported_stub: number;
}

/** allUserRows reads them in this order. */
const USER_COLUMNS = `id, email, delivery_email, full_name, role, is_active, is_bot, bot_type,
  bot_owner_id, timezone, avatar_source, avatar_version, date_joined, is_imported_stub`;

export function getUserRow(db: Db, id: number): UserRow | undefined {
  return db.prepare<[number], UserRow>(`SELECT ${USER_COLUMNS} FROM users WHERE id = ?`).get(id);
}

export function getUserRowByEmail(db: Db, email: string): UserRow | undefined {
  return db
    .prepare<[string, string], UserRow>(
      `SELECT ${USER_COLUMNS} FROM users WHERE email = ? OR delivery_email = ? LIMIT 1`,
    )
    .get(email, email);
}

/**
 * Reading another user as the public server's access_user_by_id does: an unknown or inaccessible
 * id, or a bot unless allowed, is "No such user"; a deactivated user, unless allowed, is "User is
 * deactivated" (both 400 BAD_REQUEST).
 */
export function accessUserRow(
  db: Db,
  viewer: AuthUser,
  target: UserRow | undefined,
  allow: { bots?: boolean; deactivated?: boolean } = {},
): UserRow {
  if (!target || !canAccessUser(db, viewer, target.id)) throw badRequest('No such user');
  if (target.is_bot === 1 && !allow.bots) throw badRequest('No such user');
  if (target.is_active !== 1 && !allow.deactivated) throw badRequest('User is deactivated');
  return target;
}

/**
 * A user named by email, as the public server's access_user_by_email: the API email, or the real
 * email when the viewer may see it (case-insensitive).
 */
export function findUserRowByEmail(db: Db, viewer: AuthUser, email: string): UserRow | undefined {
  const wanted = email.trim();
  const rows = db
    .prepare<[string, string], UserRow>(
      `SELECT ${USER_COLUMNS} FROM users
        WHERE email = ? COLLATE NOCASE OR delivery_email = ? COLLATE NOCASE ORDER BY id`,
    )
    .all(wanted, wanted);
  const byApiEmail = rows.find((row) => row.email.toLowerCase() === wanted.toLowerCase());
  if (byApiEmail) return byApiEmail;
  const visibility = emailVisibilityByUser(db);
  return rows.find((row) => canSeeDeliveryEmail(viewer, row, visibility.get(row.id) ?? 1));
}

/**
 * Every user, in id order. Read as arrays and made into rows here: better-sqlite3 builds each row
 * object a property at a time, which for a 10,000-user organization took about a third longer (two
 * reads: 125 against 93 ms, medians of twelve at load 6) on the path of every register.
 */
export function allUserRows(db: Db): UserRow[] {
  const rows = db
    .prepare<[], unknown[]>(`SELECT ${USER_COLUMNS} FROM users ORDER BY id`)
    .raw(true)
    .all();
  return rows.map((r): UserRow => ({
    id: r[0] as number,
    email: r[1] as string,
    delivery_email: r[2] as string,
    full_name: r[3] as string,
    role: r[4] as number,
    is_active: r[5] as number,
    is_bot: r[6] as number,
    bot_type: r[7] as number | null,
    bot_owner_id: r[8] as number | null,
    timezone: r[9] as string,
    avatar_source: r[10] as string,
    avatar_version: r[11] as number,
    date_joined: r[12] as string,
    is_imported_stub: r[13] as number,
  }));
}

/** The bots, system bots included, in id order. */
export function botUserRows(db: Db): UserRow[] {
  return db
    .prepare<[], UserRow>(`SELECT ${USER_COLUMNS} FROM users WHERE is_bot = 1 ORDER BY id`)
    .all();
}

/**
 * The user ids `sql` reads for `key` (its one parameter), without the deactivated users (usually
 * none): for lists read without joining each row to its user (subscriberIds, groupObject), the
 * join having been most of those lists' cost in a large organization's first register
 * (docs/benchmarks.md, eleventh pass).
 */
export function activeUserIdsFrom(db: Db, sql: string, key: number): number[] {
  const ids = db.prepare<[number], number>(sql).pluck().all(key);
  const inactive = sharedTableCache(
    db,
    'inactive-user-ids',
    ['users'],
    (db) =>
      new Set(db.prepare<[], number>('SELECT id FROM users WHERE is_active <> 1').pluck().all()),
  ).get(0);
  return inactive.size === 0 ? ids : ids.filter((id) => !inactive.has(id));
}

export function activeUserIds(db: Db): number[] {
  return db
    .prepare<[], { id: number }>('SELECT id FROM users WHERE is_active = 1 ORDER BY id')
    .all()
    .map((r) => r.id);
}

/**
 * email_address_visibility per user (1 everyone, 2 members, 3 admins, 4 nobody, 5 moderators).
 * Cached until user_settings changes: every register and user list read it, and parsing 10,000
 * settings documents each time was a tenth of a large organization's register.
 */
export function emailVisibilityByUser(db: Db): ReadonlyMap<number, number> {
  return sharedTableCache(db, 'email-visibility', ['user_settings'], emailVisibilityUncached).get(
    0,
  );
}

// Read from the covering index user_settings_email_visibility (db/migrations.ts, version 16), which
// is on this very expression: change one only with the other.
export const EMAIL_VISIBILITY_SQL = `CASE WHEN json_valid(settings)
  THEN json_extract(settings, '$.email_address_visibility') END`;

function emailVisibilityUncached(db: Db): Map<number, number> {
  const map = new Map<number, number>();
  // The one field is read inside SQLite: the documents are 2 KB each, and handing 10,000 of them to
  // JavaScript as strings to parse was a fifth of a large organization's first (cold) register.
  for (const row of db
    .prepare<[], { user_id: number; value: unknown }>(
      `SELECT user_id, ${EMAIL_VISIBILITY_SQL} AS value FROM user_settings`,
    )
    .all()) {
    map.set(row.user_id, typeof row.value === 'number' ? row.value : 1);
  }
  return map;
}

/**
 * One user's email_address_visibility, as emailVisibilityByUser has it, for a view of that one user
 * (GET /users/{id}): reading the whole table for it held a large organization's sign-in (its first
 * GET /users/me) for a second or more, charged to the owner's time budget before their register.
 */
export function emailVisibilityOf(db: Db, userId: number): ReadonlyMap<number, number> {
  const row = db
    .prepare<[number], { value: unknown }>(
      `SELECT ${EMAIL_VISIBILITY_SQL} AS value FROM user_settings WHERE user_id = ?`,
    )
    .get(userId);
  return new Map([[userId, typeof row?.value === 'number' ? row.value : 1]]);
}

export function canSeeDeliveryEmail(
  viewer: AuthUser,
  target: UserRow,
  visibility: number,
): boolean {
  if (viewer.id === target.id || target.is_bot === 1) return true;
  switch (visibility) {
    case 1:
      return true;
    case 2:
      return !isGuest(viewer.role);
    case 3:
      return isAdmin(viewer.role);
    case 5:
      return isModerator(viewer.role);
    default:
      return false;
  }
}

export function avatarUrl(row: UserRow, medium = false): string {
  if (row.avatar_source === 'U') return uploadedAvatarUrl(row.id, row.avatar_version, medium);
  const hash = createHash('md5').update(row.delivery_email.toLowerCase()).digest('hex');
  return `https://secure.gravatar.com/avatar/${hash}?d=identicon${medium ? '&s=500' : ''}&version=${row.avatar_version}`;
}

export interface UserViewOptions {
  clientExtavatar: boolean;
  /** profile_data for non-bots: field id -> {value, rendered_value}. Omitted when undefined. */
  profileData?: Map<number, Record<string, { value: string; rendered_value?: string }>>;
  visibility?: ReadonlyMap<number, number>;
}

export function userObject(
  row: UserRow,
  viewer: AuthUser,
  options: UserViewOptions,
): Record<string, unknown> {
  const visibility = options.visibility?.get(row.id) ?? 1;
  const seesEmail = canSeeDeliveryEmail(viewer, row, visibility);
  const user: Record<string, unknown> = {
    user_id: row.id,
    delivery_email: seesEmail ? row.delivery_email : null,
    email: row.email,
    full_name: row.full_name,
    date_joined: row.date_joined,
    is_active: row.is_active === 1,
    is_owner: row.role === Role.owner,
    is_admin: isAdmin(row.role),
    is_guest: isGuest(row.role),
    is_bot: row.is_bot === 1,
    bot_type: row.bot_type,
    bot_owner_id: row.bot_owner_id,
    role: row.role,
    timezone: row.timezone,
    // Null means "compute the external avatar yourself" and needs the real email (spec 2.3).
    avatar_url:
      options.clientExtavatar && seesEmail && row.avatar_source === 'G' ? null : avatarUrl(row),
    avatar_version: row.avatar_version,
    is_imported_stub: row.is_imported_stub === 1,
  };
  if (row.is_bot !== 1 && options.profileData) {
    user.profile_data = options.profileData.get(row.id) ?? {};
  }
  return user;
}

/**
 * The users of realm_users (`active`) or realm_non_active_users, system bots left out, as the JSON
 * array text `userObject` would give for each of them (with profile_data), built by SQLite: for a
 * 10,000-user organization, building the objects in JavaScript and serializing them was the
 * largest part of the first (cold) register after the realm's start (docs/benchmarks.md, tenth
 * and eleventh passes). Every field follows userObject; test/server/users-json.test.ts holds the
 * two equal for every kind of viewer and user. Assumes every user is accessible, as canAccessUser
 * says today.
 */
export function userListJson(
  db: Db,
  viewer: AuthUser,
  options: { clientExtavatar: boolean; active: boolean; leaveOut: readonly string[] },
): string {
  ensureAvatarUrlFunction(db);
  return db.prepare<[Record<string, number | string>], { json: string }>(USER_LIST_JSON_SQL).get({
    viewer: viewer.id,
    member: isGuest(viewer.role) ? 0 : 1,
    admin: isAdmin(viewer.role) ? 1 : 0,
    moderator: isModerator(viewer.role) ? 1 : 0,
    extavatar: options.clientExtavatar ? 1 : 0,
    active: options.active ? 1 : 0,
    leaveOut: JSON.stringify(options.leaveOut),
  })!.json;
}

const sqlBoolean = (condition: string) =>
  `json(CASE WHEN ${condition} THEN 'true' ELSE 'false' END)`;

/** userObject's fields in its order, over the row `u` and the viewer's `sees` (canSeeDeliveryEmail). */
const USER_JSON_FIELDS: readonly (readonly [string, string])[] = [
  ['user_id', 'id'],
  ['delivery_email', 'CASE WHEN sees THEN delivery_email END'],
  ['email', 'email'],
  ['full_name', 'full_name'],
  ['date_joined', 'date_joined'],
  ['is_active', sqlBoolean('is_active = 1')],
  ['is_owner', sqlBoolean(`role = ${Role.owner}`)],
  ['is_admin', sqlBoolean(`role <= ${Role.administrator}`)],
  ['is_guest', sqlBoolean(`role = ${Role.guest}`)],
  ['is_bot', sqlBoolean('is_bot = 1')],
  ['bot_type', 'bot_type'],
  ['bot_owner_id', 'bot_owner_id'],
  ['role', 'role'],
  ['timezone', 'timezone'],
  [
    'avatar_url',
    `CASE WHEN @extavatar AND sees AND avatar_source = 'G' THEN NULL
      ELSE tributary_avatar_url(id, avatar_source, avatar_version, delivery_email) END`,
  ],
  ['avatar_version', 'avatar_version'],
  ['is_imported_stub', sqlBoolean('is_imported_stub = 1')],
];

const PROFILE_DATA_SQL = `(SELECT json_group_object(field_id, CASE WHEN rendered_value IS NULL
    THEN json_object('value', value) ELSE json_object('value', value, 'rendered_value', rendered_value) END)
  FROM custom_profile_field_values WHERE user_id = listed.id)`;

const userJsonObject = (extra: readonly (readonly [string, string])[]) =>
  `json_object(${[...USER_JSON_FIELDS, ...extra].map(([key, sql]) => `'${key}', ${sql}`).join(', ')})`;

// Visibility is read as emailVisibilityByUser reads it, from the covering index on
// EMAIL_VISIBILITY_SQL (a non-number or a missing settings row is 1, everyone). The subquery's
// ORDER BY is the rowid scan's own order (no sort), kept by the concatenation above it, which
// joins the objects as text (json_group_array would parse each again: a subquery's JSON loses its
// subtype).
const USER_LIST_JSON_SQL = `
  WITH visibility AS MATERIALIZED (SELECT user_id, ${EMAIL_VISIBILITY_SQL} AS value FROM user_settings)
  SELECT '[' || coalesce(group_concat(object, ','), '') || ']' AS json FROM (
    SELECT CASE WHEN is_bot = 1 THEN ${userJsonObject([])}
      ELSE ${userJsonObject([['profile_data', PROFILE_DATA_SQL]])} END AS object
    FROM (
      SELECT u.*, (u.id = @viewer OR u.is_bot = 1 OR
          CASE CASE WHEN typeof(v.value) IN ('integer', 'real') THEN v.value ELSE 1 END
            WHEN 1 THEN 1 WHEN 2 THEN @member WHEN 3 THEN @admin WHEN 5 THEN @moderator ELSE 0 END
        ) AS sees
      FROM users u LEFT JOIN visibility v ON v.user_id = u.id
      WHERE (u.is_active = 1) = @active
        AND u.email COLLATE BINARY NOT IN (SELECT value FROM json_each(@leaveOut))
      ORDER BY u.id
    ) AS listed
  )`;

const avatarFunctionOn = new WeakSet<Db>();

function ensureAvatarUrlFunction(db: Db): void {
  if (avatarFunctionOn.has(db)) return;
  avatarFunctionOn.add(db);
  db.function(
    'tributary_avatar_url',
    { deterministic: true },
    (id, avatarSource, avatarVersion, deliveryEmail) =>
      avatarUrl({
        id: Number(id),
        avatar_source: String(avatarSource),
        avatar_version: Number(avatarVersion),
        delivery_email: String(deliveryEmail),
      } as UserRow),
  );
}

type ProfileData = Map<number, Record<string, { value: string; rendered_value?: string }>>;

/** Every user's profile_data; `userId`: that user's alone (a view of one user). */
export function profileDataByUser(db: Db, userId?: number): ProfileData {
  const map: ProfileData = new Map();
  const columns =
    'SELECT user_id, field_id, value, rendered_value FROM custom_profile_field_values';
  const rows = (
    userId === undefined
      ? db.prepare<[], ProfileValueRow>(columns).all()
      : db.prepare<[number], ProfileValueRow>(`${columns} WHERE user_id = ?`).all(userId)
  ) as ProfileValueRow[];
  for (const row of rows) {
    let entry = map.get(row.user_id);
    if (!entry) map.set(row.user_id, (entry = {}));
    entry[String(row.field_id)] =
      row.rendered_value === null
        ? { value: row.value }
        : { value: row.value, rendered_value: row.rendered_value };
  }
  return map;
}

interface ProfileValueRow {
  user_id: number;
  field_id: number;
  value: string;
  rendered_value: string | null;
}

/** The AuthUser view of a user row, for permission checks on someone else's behalf. */
export function toViewer(row: UserRow): AuthUser {
  return toAuthUser({ ...row, can_create_users: 0 });
}
