// Muted users: POST and DELETE /users/me/muted_users/{muted_user_id}, the muted_users register state
// and muted_users events (each carries the whole list, as on the public server). As the public
// server, muting marks the muted user's messages read for the muter; what muting hides is up to
// clients.
import type { Db } from '../../db';
import type { ResourceModule } from '../module';
import type { RealmContext } from '../../realm/context';
import { badRequest } from '../../http/errors';
import { accessUserRow, getUserRow } from './users-store';
import { unreadTargets, updateFlags } from '../messages/flags';

export interface MutedUser {
  id: number;
  timestamp: number;
}

export function mutedUsers(db: Db, userId: number): MutedUser[] {
  return db
    .prepare<[number], MutedUser>(
      'SELECT muted_user_id AS id, timestamp FROM muted_users WHERE user_id = ? ORDER BY timestamp, muted_user_id',
    )
    .all(userId);
}

function isMuted(db: Db, userId: number, mutedUserId: number): boolean {
  return (
    db
      .prepare('SELECT 1 FROM muted_users WHERE user_id = ? AND muted_user_id = ?')
      .get(userId, mutedUserId) !== undefined
  );
}

function announce(ctx: RealmContext, userId: number): void {
  ctx.events.send([userId], { type: 'muted_users', muted_users: mutedUsers(ctx.db, userId) });
}

export const mutedUsersResource: ResourceModule = {
  name: 'muted-users',
  routes(api, ctx) {
    api.post(
      '/users/me/muted_users/:muted_user_id',
      { ids: ['muted_user_id'] },
      ({ user, ids }) => {
        const targetId = ids.muted_user_id;
        if (targetId === user.id) throw badRequest('Cannot mute self');
        // As the public server: bots and deactivated users may be muted too.
        accessUserRow(ctx.db, user, getUserRow(ctx.db, targetId), {
          bots: true,
          deactivated: true,
        });
        if (isMuted(ctx.db, user.id, targetId)) throw badRequest('User already muted');
        ctx.db
          .prepare('INSERT INTO muted_users (user_id, muted_user_id, timestamp) VALUES (?, ?, ?)')
          .run(user.id, targetId, ctx.nowSeconds());
        announce(ctx, user.id);
        const unread = unreadTargets(ctx.db, user.id, 'AND m.sender_id = ?', [targetId]);
        if (unread.length > 0) updateFlags(ctx, user, unread, 'add', 'read');
      },
    );

    api.delete(
      '/users/me/muted_users/:muted_user_id',
      { ids: ['muted_user_id'] },
      ({ user, ids }) => {
        const targetId = ids.muted_user_id;
        accessUserRow(ctx.db, user, getUserRow(ctx.db, targetId), {
          bots: true,
          deactivated: true,
        });
        const removed = ctx.db
          .prepare('DELETE FROM muted_users WHERE user_id = ? AND muted_user_id = ?')
          .run(user.id, targetId);
        if (removed.changes === 0) throw badRequest('User is not muted');
        announce(ctx, user.id);
      },
    );
  },

  initialState(ctx, user, request) {
    if (!request.wants('muted_users')) return {};
    return { muted_users: mutedUsers(ctx.db, user.id) };
  },
};
