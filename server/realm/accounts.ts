// Creating users and keeping system-group membership in step with roles. Shared by POST /users,
// the seeds and (later) bot creation.
import type { Db } from '../db';
import { parseJson } from '../db';
import {
  deferPasswordHash,
  deferredPasswordHash,
  forgetDeferredPasswordHash,
  generateApiKey,
  holdsDeferredPassword,
} from '../http/auth';
import { SYSTEM_GROUPS } from './roles';

export interface NewUser {
  email: string;
  deliveryEmail?: string;
  fullName: string;
  role: number;
  /**
   * The seeds' passwords: stored as a marker and hashed once the server listens
   * (finishDeferredPasswordHashes); a sign-in before then waits for the hash (http/auth.ts).
   */
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
  const passwordHash =
    user.passwordHash ?? (user.password ? deferPasswordHash(user.password) : null);
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

/**
 * Stores the hashes of the passwords createUser deferred, one at a time on libuv's thread pool
 * (so at most one core, and never the event loop), each in its marker's place unless the person
 * changed their password meanwhile. Markers of an earlier process that stopped first are left
 * for resumeDeferredPasswordHashes. `stopped` is asked after each hash (the server closing).
 */
export async function finishDeferredPasswordHashes(
  db: Db,
  stopped: () => boolean = () => false,
): Promise<void> {
  const markers = db
    .prepare<[], { password_hash: string }>(
      "SELECT password_hash FROM users WHERE password_hash LIKE 'pending$%' ORDER BY id",
    )
    .all()
    .map((row) => row.password_hash);
  for (const marker of markers) {
    const hash = deferredPasswordHash(marker);
    if (!hash) continue;
    const stored = await hash;
    if (stopped()) return;
    db.prepare('UPDATE users SET password_hash = ? WHERE password_hash = ?').run(stored, marker);
    forgetDeferredPasswordHash(marker);
  }
}

/**
 * Markers left by a process that stopped before storing their hashes (a first launch closed
 * within seconds): deferred again with the seeded password (`seededPasswords`, by email, read
 * only if there are any), so finishDeferredPasswordHashes stores them. A marker with no known
 * password stays refused.
 */
export function resumeDeferredPasswordHashes(
  db: Db,
  seededPasswords: () => Map<string, string>,
): void {
  const rows = db
    .prepare<[], { id: number; email: string; password_hash: string }>(
      "SELECT id, email, password_hash FROM users WHERE password_hash LIKE 'pending$%'",
    )
    .all();
  if (rows.length === 0) return;
  const passwordsByEmail = seededPasswords();
  for (const row of rows) {
    const password = passwordsByEmail.get(row.email);
    if (password === undefined || holdsDeferredPassword(row.password_hash)) continue;
    db.prepare('UPDATE users SET password_hash = ? WHERE id = ? AND password_hash = ?').run(
      deferPasswordHash(password),
      row.id,
      row.password_hash,
    );
  }
}
