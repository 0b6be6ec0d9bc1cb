// Creating users and keeping system-group membership in step with roles. Shared by POST /users,
// the seeds and (later) bot creation.
import type { Db } from '../db';
import { parseJson } from '../db';
import { generateApiKey, hashPassword } from '../http/auth';
import { SYSTEM_GROUPS } from './roles';

export interface NewUser {
  email: string;
  deliveryEmail?: string;
  fullName: string;
  role: number;
  password?: string | null;
  /** Already hashed (hashPasswordAsync), for requests: hashing here would hold the event loop. */
  passwordHash?: string | null;
  isBot?: boolean;
  botType?: number | null;
  botOwnerId?: number | null;
  botConfig?: Record<string, unknown> | null;
  timezone?: string;
  canCreateUsers?: boolean;
  apiKey?: string;
  /** ISO time; defaults to now. */
  dateJoined?: string;
}

export interface CreatedUser {
  id: number;
  apiKey: string;
}

export function createUser(db: Db, user: NewUser): CreatedUser {
  const apiKey = user.apiKey ?? generateApiKey();
  const passwordHash = user.passwordHash ?? (user.password ? hashPassword(user.password) : null);
  return db.transaction((): CreatedUser => {
    const result = db
      .prepare(
        `INSERT INTO users (email, delivery_email, full_name, role, api_key, password_hash, is_bot,
           bot_type, bot_owner_id, bot_config, timezone, date_joined, can_create_users)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      )
      .run(
        user.email,
        user.deliveryEmail ?? user.email,
        user.fullName,
        user.role,
        apiKey,
        passwordHash,
        user.isBot ? 1 : 0,
        user.botType ?? null,
        user.botOwnerId ?? null,
        user.botConfig ? JSON.stringify(user.botConfig) : null,
        user.timezone ?? '',
        user.dateJoined ?? new Date().toISOString(),
        user.canCreateUsers ? 1 : 0,
      );
    const id = Number(result.lastInsertRowid);
    const defaults = db
      .prepare<[], { settings: string }>(
        'SELECT settings FROM realm_user_settings_defaults WHERE id = 1',
      )
      .get();
    db.prepare('INSERT INTO user_settings (user_id, settings) VALUES (?, ?)').run(
      id,
      defaults?.settings ?? '{}',
    );
    syncRoleGroups(db, id, user.role);
    return { id, apiKey };
  })();
}

/** Puts the user directly in the system group of their role (and removes them from the others). */
export function syncRoleGroups(db: Db, userId: number, role: number): void {
  const systemNames = SYSTEM_GROUPS.map((g) => g.name);
  const placeholders = systemNames.map(() => '?').join(',');
  db.prepare(
    `DELETE FROM user_group_members WHERE user_id = ? AND group_id IN
       (SELECT id FROM user_groups WHERE is_system_group = 1 AND name IN (${placeholders}))`,
  ).run(userId, ...systemNames);
  const target = SYSTEM_GROUPS.find((g) => g.directRole === role);
  if (target) {
    db.prepare(
      `INSERT INTO user_group_members (group_id, user_id)
         SELECT id, ? FROM user_groups WHERE is_system_group = 1 AND name = ?`,
    ).run(userId, target.name);
  }
}

export function userSettings(db: Db, userId: number): Record<string, unknown> {
  const row = db
    .prepare<[number], { settings: string }>('SELECT settings FROM user_settings WHERE user_id = ?')
    .get(userId);
  return parseJson<Record<string, unknown>>(row?.settings, {});
}
