// Presence rows (table user_presence) and the two shapes the API gives them: the modern one keyed
// by user id ({active_timestamp, idle_timestamp}) and the legacy one keyed by email (a "website"
// client entry plus "aggregated"). Timings are the public server's (config.ts PRESENCE).
import type { Db } from '../../db';
import { PRESENCE } from '../../config';

export interface PresenceRow {
  user_id: number;
  email: string;
  date_joined: string;
  last_active_time: number | null;
  last_connected_time: number;
  last_update_id: number;
}

export interface ModernPresence {
  active_timestamp: number;
  idle_timestamp: number;
}

export interface LegacyClientPresence {
  client: 'website';
  status: 'active' | 'idle';
  timestamp: number;
  pushable: false;
}

/** What one report changed: whether others should hear of it now, and the row as it is after. */
export interface PresenceReport {
  announce: boolean;
  row: PresenceRow | null;
}

const BECAME_ONLINE_AFTER_SECONDS =
  PRESENCE.offlineThresholdSeconds - PRESENCE.pingIntervalSeconds - 10;
const NEVER = 24 * 60 * 60;

/**
 * Stores one client report as the public server does: a write only when the stored times are
 * older than updateMinFreqSeconds (so many windows pinging cost one write a minute), an
 * announcement only for a first report or a user coming back after missing pings. Reports of
 * users with presence_enabled off are ignored: they keep the offline entry resetPresence left.
 */
export function recordPresence(
  db: Db,
  userId: number,
  now: number,
  active: boolean,
): PresenceReport {
  const current = db
    .prepare<
      [number],
      {
        presence_enabled: number | null;
        last_active_time: number | null;
        last_connected_time: number | null;
      }
    >(
      `SELECT json_extract(s.settings, '$.presence_enabled') AS presence_enabled,
              p.last_active_time, p.last_connected_time
         FROM users u
         LEFT JOIN user_settings s ON s.user_id = u.id
         LEFT JOIN user_presence p ON p.user_id = u.id
        WHERE u.id = ?`,
    )
    .get(userId);
  if (!current || current.presence_enabled === 0) return { announce: false, row: null };
  if (current.last_connected_time === null) {
    db.prepare(
      `INSERT INTO user_presence (user_id, last_active_time, last_connected_time, last_update_id)
       VALUES (?, ?, ?, (SELECT COALESCE(MAX(last_update_id), 0) + 1 FROM user_presence))`,
    ).run(userId, active ? now : null, now);
    return { announce: true, row: presenceRow(db, userId) };
  }
  const sinceActive = current.last_active_time === null ? NEVER : now - current.last_active_time;
  const sinceConnected = now - current.last_connected_time;
  const touchActive = active && sinceActive > PRESENCE.updateMinFreqSeconds;
  const touchConnected = touchActive || sinceConnected > PRESENCE.updateMinFreqSeconds;
  if (touchConnected) {
    db.prepare(
      `UPDATE user_presence
          SET last_active_time = ?, last_connected_time = MAX(last_connected_time, ?),
              last_update_id = (SELECT MAX(last_update_id) + 1 FROM user_presence)
        WHERE user_id = ?`,
    ).run(touchActive ? now : current.last_active_time, now, userId);
  }
  const becameOnline = active && sinceActive > BECAME_ONLINE_AFTER_SECONDS;
  return { announce: becameOnline, row: becameOnline ? presenceRow(db, userId) : null };
}

/**
 * Replaces a user's presence outright, as the public server does when presence_enabled changes:
 * turned on, active now; turned off, last seen (active and connected) long enough ago to read as
 * offline (the threshold plus two minutes for clock skew), which stays while reports are ignored.
 * The public server leaves the active time unset there, which reads as the join date: a user who
 * joined minutes ago would look active, so both times are set.
 */
export function resetPresence(db: Db, userId: number, now: number, enabled: boolean): PresenceRow {
  const connected = enabled ? now : now - PRESENCE.offlineThresholdSeconds - 120;
  db.prepare(
    `INSERT OR REPLACE INTO user_presence
       (user_id, last_active_time, last_connected_time, last_update_id)
     VALUES (?, ?, ?, (SELECT COALESCE(MAX(last_update_id), 0) + 1 FROM user_presence))`,
  ).run(userId, connected, connected);
  return presenceRow(db, userId)!;
}

/**
 * A sighting from before now (the demo realm's people, server/demo/demo-presence.ts): kept only
 * where it is newer than what is stored, so a real report always wins. Users with
 * presence_enabled off are skipped, as their reports are.
 */
export function recordSighting(
  db: Db,
  userId: number,
  activeAt: number,
  connectedAt: number,
): void {
  db.prepare(
    `INSERT INTO user_presence (user_id, last_active_time, last_connected_time, last_update_id)
     SELECT @userId, @activeAt, @connectedAt,
            (SELECT COALESCE(MAX(last_update_id), 0) + 1 FROM user_presence)
      WHERE COALESCE((SELECT json_extract(settings, '$.presence_enabled') FROM user_settings
                       WHERE user_id = @userId), 1) != 0
     ON CONFLICT (user_id) DO UPDATE
        SET last_active_time = MAX(COALESCE(last_active_time, 0), excluded.last_active_time),
            last_connected_time = MAX(last_connected_time, excluded.last_connected_time),
            last_update_id = excluded.last_update_id
      WHERE excluded.last_connected_time > user_presence.last_connected_time
         OR excluded.last_active_time > COALESCE(user_presence.last_active_time, 0)`,
  ).run({ userId, activeAt, connectedAt });
}

function presenceRow(db: Db, userId: number): PresenceRow | null {
  return (
    db
      .prepare<[number], PresenceRow>(
        `SELECT p.user_id, u.email, u.date_joined, p.last_active_time, p.last_connected_time,
                p.last_update_id
           FROM user_presence p JOIN users u ON u.id = p.user_id WHERE p.user_id = ?`,
      )
      .get(userId) ?? null
  );
}

export interface PresenceQuery {
  /** Only rows changed after this id (the client's presence_last_update_id). */
  lastUpdateId: number | null;
  /** Only users connected within this many days; 0 returns nothing. */
  historyLimitDays: number | null;
  /** Only this user, however long ago they were connected. */
  userId?: number;
}

/**
 * Presence rows of active human users. Without a positive lastUpdateId only users connected within
 * the history limit (14 days by default) are listed.
 */
export function readPresences(db: Db, now: number, query: PresenceQuery): PresenceRow[] {
  if (query.historyLimitDays === 0) return [];
  const days = query.historyLimitDays ?? PRESENCE.defaultHistoryLimitDays;
  const since =
    query.userId === undefined && (query.lastUpdateId === null || query.lastUpdateId <= 0)
      ? now - days * 24 * 60 * 60
      : null;
  return db
    .prepare<[{ lastUpdateId: number; since: number | null; userId: number | null }], PresenceRow>(
      `SELECT p.user_id, u.email, u.date_joined, p.last_active_time, p.last_connected_time,
              p.last_update_id
         FROM user_presence p
         JOIN users u ON u.id = p.user_id
        WHERE u.is_active = 1 AND u.is_bot = 0
          AND p.last_update_id > @lastUpdateId
          AND (@since IS NULL OR p.last_connected_time >= @since)
          AND (@userId IS NULL OR p.user_id = @userId)
        ORDER BY p.user_id`,
    )
    .all({ lastUpdateId: query.lastUpdateId ?? -1, since, userId: query.userId ?? null });
}

/** A never-set time reads as the user's join time, as on the public server. */
function times(row: PresenceRow): { active: number; connected: number } {
  const joined = Math.floor(Date.parse(row.date_joined) / 1000);
  return {
    active: row.last_active_time ?? joined,
    connected: row.last_connected_time ?? joined,
  };
}

export function modernPresence(row: PresenceRow): ModernPresence {
  const { active, connected } = times(row);
  return { active_timestamp: active, idle_timestamp: connected };
}

export function legacyClientPresence(row: PresenceRow): LegacyClientPresence {
  const { active, connected } = times(row);
  const isActive = active + PRESENCE.legacyActivityOffsetSeconds >= connected;
  return {
    client: 'website',
    status: isActive ? 'active' : 'idle',
    timestamp: isActive ? active : connected,
    pushable: false,
  };
}

export function legacyPresence(row: PresenceRow): Record<string, unknown> {
  const website = legacyClientPresence(row);
  return {
    aggregated: { client: website.client, status: website.status, timestamp: website.timestamp },
    website,
  };
}

/** The `presences` member: by user id (slim) or by email (legacy). */
export function presencesByUser(
  rows: readonly PresenceRow[],
  slim: boolean,
): Record<string, unknown> {
  const presences: Record<string, unknown> = {};
  for (const row of rows) {
    if (slim) presences[String(row.user_id)] = modernPresence(row);
    else presences[row.email] = legacyPresence(row);
  }
  return presences;
}

/** presence_last_update_id: the newest row returned, else what the client sent, else -1. */
export function lastUpdateIdOf(rows: readonly PresenceRow[], clientValue: number | null): number {
  if (rows.length > 0) return Math.max(...rows.map((row) => row.last_update_id));
  return clientValue ?? -1;
}
