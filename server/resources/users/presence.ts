// Presence (api-notes §4.7): POST /users/me/presence (every client reports about once a minute),
// GET /realm/presence, GET /users/{user_id_or_email}/presence, the presence register state and
// presence events. Storage and shapes are in presence-store.ts.
import type { ResourceModule } from '../module';
import type { RealmContext } from '../../realm/context';
import { p } from '../../http/params';
import { badRequest } from '../../http/errors';
import { PRESENCE } from '../../config';
import { activeUserIds, findUserRowByEmail, getUserRow } from './users-store';
import {
  lastUpdateIdOf,
  legacyClientPresence,
  legacyPresence,
  modernPresence,
  presencesByUser,
  readPresences,
  recordPresence,
  resetPresence,
  type PresenceRow,
} from './presence-store';

/** The public server's server_timestamp: seconds as a float. */
const serverTimestamp = () => Date.now() / 1000;

/**
 * A presence event in the legacy shape the public server still sends (one "website" client);
 * queues registered with slim_presence get it without the deprecated email.
 */
function announcePresence(ctx: RealmContext, row: PresenceRow, force = false): void {
  const recipients = activeUserIds(ctx.db);
  // As on the public server: in big realms the polling alone keeps clients up to date.
  if (recipients.length > PRESENCE.userLimitForEvents && !force) return;
  const slim = {
    type: 'presence',
    user_id: row.user_id,
    server_timestamp: serverTimestamp(),
    presence: { website: legacyClientPresence(row) },
  };
  const full = { ...slim, email: row.email };
  ctx.events.send(recipients, (queue) => (queue.options.slimPresence ? slim : full));
}

/**
 * After presence_enabled changed (settings, or the legacy `away` status): everyone sees the new
 * state at once, as on the public server, rather than after the next poll.
 */
export function presenceEnabledChanged(ctx: RealmContext, userId: number, enabled: boolean): void {
  announcePresence(ctx, resetPresence(ctx.db, userId, ctx.nowSeconds(), enabled), true);
}

/** One client report: stored as the public server stores it, announced when it says so. */
export function reportPresence(ctx: RealmContext, userId: number, active: boolean): void {
  const report = recordPresence(ctx.db, userId, ctx.nowSeconds(), active);
  if (report.announce && report.row) announcePresence(ctx, report.row);
}

export const presenceResource: ResourceModule = {
  name: 'presence',
  routes(api, ctx) {
    api.post(
      '/users/me/presence',
      {
        params: {
          status: p.string(),
          ping_only: p.bool().default(false),
          // Recorded by the public server for its activity statistics only; nothing reads it here.
          new_user_input: p.bool().default(false),
          slim_presence: p.bool().default(false),
          last_update_id: p.int().optional(),
          history_limit_days: p.int().optional(),
        },
      },
      ({ user, params }) => {
        if (user.is_bot) throw badRequest('This endpoint does not accept bot requests.');
        if (params.status !== 'active' && params.status !== 'idle') {
          throw badRequest(`Invalid status: ${params.status}`);
        }
        reportPresence(ctx, user.id, params.status === 'active');
        if (params.ping_only) return {};
        const now = ctx.nowSeconds();
        const lastUpdateId = params.last_update_id ?? null;
        // Sending last_update_id means the client speaks the modern API.
        const slim = params.slim_presence || lastUpdateId !== null;
        const rows = readPresences(ctx.db, now, {
          lastUpdateId,
          historyLimitDays: params.history_limit_days ?? null,
        });
        return {
          presences: presencesByUser(rows, slim),
          server_timestamp: serverTimestamp(),
          presence_last_update_id: lastUpdateIdOf(rows, lastUpdateId),
        };
      },
    );

    api.get('/realm/presence', {}, () => {
      const rows = readPresences(ctx.db, ctx.nowSeconds(), {
        lastUpdateId: null,
        historyLimitDays: null,
      });
      return { presences: presencesByUser(rows, false), server_timestamp: serverTimestamp() };
    });

    api.get(
      '/users/:user_id_or_email/presence',
      { params: { slim_presence: p.bool().default(false) } },
      ({ user, params, path }) => {
        const key = path.user_id_or_email;
        const target = /^\d+$/.test(key)
          ? getUserRow(ctx.db, Number(key))
          : findUserRowByEmail(ctx.db, user, key);
        if (!target || target.is_active !== 1) throw badRequest('No such user');
        if (target.is_bot === 1) throw badRequest('Presence is not supported for bot users.');
        const now = ctx.nowSeconds();
        const [row] = readPresences(ctx.db, now, {
          lastUpdateId: null,
          historyLimitDays: null,
          userId: target.id,
        });
        if (!row) throw badRequest(`No presence data for ${key}`);
        if (params.slim_presence) return { presence: modernPresence(row) };
        const legacy = legacyPresence(row) as Record<string, Record<string, unknown>>;
        // This endpoint reports "offline" past the threshold and leaves out client and pushable.
        if (now - (legacy.aggregated.timestamp as number) > PRESENCE.offlineThresholdSeconds) {
          legacy.aggregated.status = 'offline';
        }
        for (const entry of Object.values(legacy)) {
          delete entry.client;
          delete entry.pushable;
        }
        return { presence: legacy };
      },
    );
  },

  initialState(ctx, _user, request) {
    if (!request.wants('presence')) return {};
    const rows = readPresences(ctx.db, ctx.nowSeconds(), {
      lastUpdateId: null,
      historyLimitDays: request.presenceHistoryLimitDays ?? null,
    });
    return {
      presences: presencesByUser(rows, request.slimPresence),
      presence_last_update_id: lastUpdateIdOf(rows, null),
      server_timestamp: serverTimestamp(),
    };
  },
};
