// Statuses: POST /users/me/status (4.10), POST /users/{user_id}/status (4.9, administrators),
// the user_status register state and user_status events (to every active user). A status may carry
// scheduled_end_time (clear-after, as the public server's): only its owner is told of it, any
// change that does not pass it drops it, and at that time the server clears the status itself.
import type { ResourceModule } from '../module';
import type { AuthUser, RealmContext } from '../../realm/context';
import { p } from '../../http/params';
import { badRequest } from '../../http/errors';
import { LIMITS } from '../../config';
import { isAdmin } from '../../realm/roles';
import { checkEmoji } from '../../realm/emoji';
import { userSettings } from '../../realm/accounts';
import { accessUserRow, activeUserIds, getUserRow } from './users-store';
import { customEmojiTable } from '../realm/realm-emoji';
import { presenceEnabledChanged } from './presence';
import type { Db } from '../../db';
import { publicName } from '../../../shared/api/public-names';
import { rescheduleStatusExpiry, startStatusExpiry } from './user-status-expiry';

const statusParams = {
  status_text: p.string().optional(),
  emoji_name: p.string().optional(),
  emoji_code: p.string().optional(),
  reaction_type: p.string().optional(),
};

interface StatusChange {
  status_text?: string;
  emoji_name?: string;
  emoji_code?: string;
  reaction_type?: string;
  away?: boolean;
}

interface StatusRow {
  user_id: number;
  status_text: string;
  emoji_name: string;
  emoji_code: string;
  reaction_type: string;
  scheduled_end_time: number | null;
}

const NO_STATUS: Omit<StatusRow, 'user_id'> = {
  status_text: '',
  emoji_name: '',
  emoji_code: '',
  reaction_type: '',
  scheduled_end_time: null,
};

function statusRow(db: Db, userId: number): StatusRow | undefined {
  return db.prepare<[number], StatusRow>('SELECT * FROM user_status WHERE user_id = ?').get(userId);
}

/** Validates the parameters (spec 4.9 errors) and returns what changes. */
function validateStatus(
  db: Db,
  params: StatusChange & { scheduled_end_time?: number },
): StatusChange {
  const change: StatusChange = {};
  if (
    params.scheduled_end_time === undefined &&
    params.status_text === undefined &&
    params.emoji_name === undefined &&
    params.emoji_code === undefined &&
    params.reaction_type === undefined &&
    params.away === undefined
  ) {
    throw badRequest('Client did not pass any new values.');
  }
  if (params.status_text !== undefined) {
    const text = params.status_text.trim();
    if (text.includes('\u0000')) throw badRequest('Status text must not contain null bytes');
    if ([...text].length > LIMITS.maxStatusTextLength) {
      throw badRequest(
        `status_text is too long (limit: ${LIMITS.maxStatusTextLength} characters).`,
      );
    }
    change.status_text = text;
  }
  if (params.emoji_name === undefined) {
    if (params.emoji_code !== undefined || params.reaction_type !== undefined) {
      throw badRequest(
        'Client must pass emoji_name if they pass either emoji_code or reaction_type.',
      );
    }
  } else if (params.emoji_name === '') {
    change.emoji_name = '';
    change.emoji_code = '';
    change.reaction_type = '';
  } else {
    const checked = checkEmoji(
      params.emoji_name,
      params.emoji_code,
      params.reaction_type,
      customEmojiTable(db),
    );
    if (!checked.ok) throw badRequest(checked.msg);
    change.emoji_name = checked.emoji_name;
    change.emoji_code = checked.emoji_code;
    change.reaction_type = checked.reaction_type;
  }
  if (params.away !== undefined) change.away = params.away;
  return change;
}

/**
 * Checks a clear-after time against the current status, as the public server does: there must be
 * a status to clear. True when nothing but the end time changes: every other key the change
 * carries (away included, stored as presence_enabled) equals what is stored, so the others need no
 * event.
 */
function onlyEndTimeChanges(
  db: Db,
  userId: number,
  change: StatusChange,
  currentAway: boolean,
): boolean {
  const current = statusRow(db, userId) ?? { ...NO_STATUS, user_id: userId };
  if (
    change.status_text === undefined &&
    change.emoji_name === undefined &&
    !current.status_text &&
    !current.emoji_name
  ) {
    throw badRequest('Client does not have any status set.');
  }
  const stored: Required<StatusChange> = {
    status_text: current.status_text,
    emoji_name: current.emoji_name,
    emoji_code: current.emoji_code,
    reaction_type: current.reaction_type,
    away: currentAway,
  };
  return (Object.keys(change) as Array<keyof StatusChange>).every(
    (key) => change[key] === undefined || change[key] === stored[key],
  );
}

/** Stores a change; `endTime` is the new clear-after time (null: none, as after any change). */
function applyStatus(
  ctx: RealmContext,
  userId: number,
  change: StatusChange,
  endTime: number | null = null,
): void {
  const wasEnabled = userSettings(ctx.db, userId).presence_enabled !== false;
  const onlyEndTime = endTime !== null && onlyEndTimeChanges(ctx.db, userId, change, !wasEnabled);
  const storedEndTime = statusRow(ctx.db, userId)?.scheduled_end_time ?? null;
  ctx.db.transaction(() => {
    const current = statusRow(ctx.db, userId) ?? { ...NO_STATUS, user_id: userId };
    const next = {
      status_text: change.status_text ?? current.status_text,
      emoji_name: change.emoji_name ?? current.emoji_name,
      emoji_code: change.emoji_code ?? current.emoji_code,
      reaction_type: change.reaction_type ?? current.reaction_type,
    };
    ctx.db
      .prepare(
        `INSERT INTO user_status
           (user_id, status_text, emoji_name, emoji_code, reaction_type, timestamp, scheduled_end_time)
         VALUES (?, ?, ?, ?, ?, ?, ?)
         ON CONFLICT(user_id) DO UPDATE SET status_text = excluded.status_text,
           emoji_name = excluded.emoji_name, emoji_code = excluded.emoji_code,
           reaction_type = excluded.reaction_type, timestamp = excluded.timestamp,
           scheduled_end_time = excluded.scheduled_end_time`,
      )
      .run(
        userId,
        next.status_text,
        next.emoji_name,
        next.emoji_code,
        next.reaction_type,
        ctx.nowSeconds(),
        endTime,
      );
    if (change.away !== undefined) {
      // away is the legacy inverse of presence_enabled.
      const settings = userSettings(ctx.db, userId);
      settings.presence_enabled = !change.away;
      ctx.db
        .prepare('UPDATE user_settings SET settings = ? WHERE user_id = ?')
        .run(JSON.stringify(settings), userId);
    }
  })();
  rescheduleStatusExpiry(ctx);
  // The event carries only what changed, as the public API does; the end time goes to the owner.
  const event = {
    type: 'user_status',
    user_id: userId,
    ...change,
    ...(change.reaction_type === undefined
      ? {}
      : { reaction_type: publicName(change.reaction_type) }),
  };
  let others = activeUserIds(ctx.db);
  // A change that drops a stored end time tells the owner so (null), as it told them of it.
  if (endTime !== null || storedEndTime !== null) {
    ctx.events.send([userId], { ...event, scheduled_end_time: endTime });
    others = others.filter((id) => id !== userId);
  }
  if (!onlyEndTime) ctx.events.send(others, event);
  if (change.away !== undefined && change.away === wasEnabled) {
    presenceEnabledChanged(ctx, userId, !change.away);
  }
  if (change.away !== undefined) {
    ctx.events.send([userId], {
      type: 'user_settings',
      op: 'update',
      property: 'presence_enabled',
      value: !change.away,
    });
  }
}

export const userStatusResource: ResourceModule = {
  name: 'user-status',
  routes(api, ctx) {
    api.post(
      '/users/me/status',
      {
        params: {
          ...statusParams,
          away: p.bool().optional(),
          scheduled_end_time: p.int().optional(),
        },
      },
      ({ user, params }) => {
        const change = validateStatus(ctx.db, params);
        applyStatus(ctx, user.id, change, params.scheduled_end_time ?? null);
      },
    );

    api.get('/users/:user_id/status', { ids: ['user_id'] }, ({ user, ids }) => {
      const target = accessUserRow(ctx.db, user, getUserRow(ctx.db, ids.user_id));
      return { status: userStatusOf(ctx.db, target.id, user.id) };
    });

    api.post(
      '/users/:user_id/status',
      { ids: ['user_id'], params: statusParams },
      ({ user, params, ids }) => {
        if (!mayChangeOthersStatus(user)) throw badRequest('Insufficient permission');
        const target = getUserRow(ctx.db, ids.user_id);
        if (!target || target.is_active !== 1) throw badRequest('No such user');
        applyStatus(ctx, target.id, validateStatus(ctx.db, params));
      },
    );
  },

  initialState(ctx, user, request) {
    if (!request.wants('user_status')) return {};
    const statuses: Record<string, Record<string, unknown>> = {};
    const rows = ctx.db
      .prepare<[], StatusRow>(
        `SELECT s.* FROM user_status s JOIN users u ON u.id = s.user_id WHERE u.is_active = 1`,
      )
      .all();
    for (const row of rows) {
      const entry = statusEntry(row, false, user.id);
      if (Object.keys(entry).length > 0) statuses[String(row.user_id)] = entry;
    }
    const away = ctx.db
      .prepare<[], { user_id: number }>(
        `SELECT user_id FROM user_settings WHERE ${PRESENCE_ENABLED_SQL} = 0`,
      )
      .all();
    for (const row of away) (statuses[String(row.user_id)] ??= {}).away = true;
    return { user_status: statuses };
  },

  start(ctx) {
    // Clearing ends the clear-after too, so nobody but the owner needs more than the cleared fields.
    return startStatusExpiry(ctx, (userId) =>
      applyStatus(ctx, userId, {
        status_text: '',
        emoji_name: '',
        emoji_code: '',
        reaction_type: '',
      }),
    );
  },
};

// Looked up in the index user_settings_presence_enabled (db/migrations.ts, version 17), which is on
// this very expression: change one only with the other.
export const PRESENCE_ENABLED_SQL = `CASE WHEN json_valid(settings)
  THEN json_extract(settings, '$.presence_enabled') END`;

/**
 * One user's status as register's user_status and GET /users/{id}/status show it to `viewerId`
 * (the end time only to the status's owner).
 */
function statusEntry(
  row: StatusRow | undefined,
  away: boolean,
  viewerId: number,
): Record<string, unknown> {
  const entry: Record<string, unknown> = {};
  if (away) entry.away = true;
  if (row?.status_text) entry.status_text = row.status_text;
  if (row?.emoji_name) {
    entry.emoji_name = row.emoji_name;
    entry.emoji_code = row.emoji_code;
    entry.reaction_type = publicName(row.reaction_type);
  }
  if (row?.scheduled_end_time && row.user_id === viewerId) {
    entry.scheduled_end_time = row.scheduled_end_time;
  }
  return entry;
}

export function userStatusOf(db: Db, userId: number, viewerId: number): Record<string, unknown> {
  return statusEntry(
    statusRow(db, userId),
    userSettings(db, userId).presence_enabled === false,
    viewerId,
  );
}

function mayChangeOthersStatus(user: AuthUser): boolean {
  // FL 407: administrators; FL 473: bots with an administrator role as well.
  return isAdmin(user.role);
}
