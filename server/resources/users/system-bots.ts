// System bots: accounts the server itself writes with, which exist in every realm. The local realm
// has one, the Notification Bot (posts the notices of topic moves and resolutions). As in the
// public API it is a cross-realm bot: register lists it in `cross_realm_bots` with
// `is_system_bot: true`, not in `realm_users`.
//
// It is created with the realm (seed) and, for folders seeded before it existed, at start-up
// (seed/index.ts): always before any event queue exists, so no realm_user add event is owed.
import type { Db } from '../../db';
import { createUser } from '../../realm/accounts';
import type { AuthUser } from '../../realm/context';
import { Role } from '../../realm/roles';
import { getUserRowByEmail, toViewer, type UserRow } from './users-store';

export const NOTIFICATION_BOT_EMAIL = 'notification-bot@tributary.local';
const SYSTEM_BOT_EMAILS = new Set([NOTIFICATION_BOT_EMAIL]);

/** Creates the system bots that are missing. */
export function ensureSystemBots(db: Db): void {
  if (getUserRowByEmail(db, NOTIFICATION_BOT_EMAIL)) return;
  createUser(db, {
    email: NOTIFICATION_BOT_EMAIL,
    fullName: 'Notification Bot',
    role: Role.member,
    isBot: true,
    botType: 1,
    botOwnerId: null,
    timezone: '',
  });
}

export function isSystemBot(row: Pick<UserRow, 'email'>): boolean {
  return SYSTEM_BOT_EMAILS.has(row.email);
}

/** The Notification Bot as a sender (created on the spot only if start-up somehow missed it). */
export function notificationBot(db: Db): AuthUser {
  let row = getUserRowByEmail(db, NOTIFICATION_BOT_EMAIL);
  if (!row) {
    ensureSystemBots(db);
    row = getUserRowByEmail(db, NOTIFICATION_BOT_EMAIL)!;
  }
  // Always an active bot, whatever its row says: the server's own notices never stop.
  return { ...toViewer(row), is_active: true, is_bot: true };
}
