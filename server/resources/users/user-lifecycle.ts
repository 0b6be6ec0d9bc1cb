// Deactivating and reactivating users: DELETE /users/{user_id}, DELETE /users/me and
// POST /users/{user_id}/reactivate. Deactivation sends peer_remove for the user's channels first
// (FL 377), then realm_user update {is_active: false}; the user's event queues are dropped and
// their API key stops working. Bots owned by a deactivated user are deactivated with them.
import type { ResourceModule } from '../module';
import type { AuthUser, RealmContext } from '../../realm/context';
import { ApiError, badRequest } from '../../http/errors';
import { Role } from '../../realm/roles';
import { requireAdmin } from '../../realm/permissions';
import { getChannel } from '../channels/channels-store';
import { channelMetadataAudience } from '../channels/channels';
import { sendBotUpdate } from './bot-events';
import { activeUserIds, getUserRow, type UserRow } from './users-store';

export function activeOwnerCount(ctx: RealmContext): number {
  return (
    ctx.db
      .prepare<[], { n: number }>(
        `SELECT COUNT(*) AS n FROM users WHERE role = 100 AND is_active = 1 AND is_bot = 0`,
      )
      .get()?.n ?? 0
  );
}

function channelIdsOf(ctx: RealmContext, userId: number): number[] {
  return ctx.db
    .prepare<[number], { channel_id: number }>(
      'SELECT channel_id FROM subscriptions WHERE user_id = ? AND active = 1',
    )
    .all(userId)
    .map((r) => r.channel_id);
}

function setActive(ctx: RealmContext, target: UserRow, active: boolean): void {
  const channels = channelIdsOf(ctx, target.id);
  if (!active) {
    // Peers learn first, while the user still counts as a subscriber they could see.
    for (const channelId of channels) {
      const channel = getChannel(ctx.db, channelId)!;
      const audience = channelMetadataAudience(ctx, channel).filter((id) => id !== target.id);
      ctx.events.send(audience, {
        type: 'subscription',
        op: 'peer_remove',
        stream_ids: [channelId],
        user_ids: [target.id],
      });
    }
  }
  ctx.db.prepare('UPDATE users SET is_active = ? WHERE id = ?').run(active ? 1 : 0, target.id);
  if (!active) {
    for (const queue of ctx.events.queuesOf(target.id)) ctx.events.delete(queue.id, target.id);
  }
  ctx.events.send(activeUserIds(ctx.db), {
    type: 'realm_user',
    op: 'update',
    person: { user_id: target.id, is_active: active },
  });
  if (target.is_bot === 1) sendBotUpdate(ctx, target, { is_active: active });
  if (active) {
    for (const channelId of channels) {
      const channel = getChannel(ctx.db, channelId)!;
      const audience = channelMetadataAudience(ctx, channel).filter((id) => id !== target.id);
      ctx.events.send(audience, {
        type: 'subscription',
        op: 'peer_add',
        stream_ids: [channelId],
        user_ids: [target.id],
      });
    }
  }
}

export function deactivateUser(ctx: RealmContext, actor: AuthUser, target: UserRow): void {
  if (target.is_active !== 1) throw badRequest('User is already deactivated');
  if (target.role === Role.owner && target.is_bot !== 1) {
    if (actor.role !== Role.owner) throw badRequest('Must be an organization owner');
    if (activeOwnerCount(ctx) <= 1) {
      throw new ApiError(
        'CANNOT_DEACTIVATE_LAST_USER',
        'Cannot deactivate the only organization owner.',
        400,
        {
          is_last_owner: true,
          entity: 'organization owner',
        },
      );
    }
  }
  setActive(ctx, target, false);
  const ownedBots = ctx.db
    .prepare<[number], { id: number }>(
      'SELECT id FROM users WHERE bot_owner_id = ? AND is_bot = 1 AND is_active = 1',
    )
    .all(target.id);
  for (const { id } of ownedBots) setActive(ctx, getUserRow(ctx.db, id)!, false);
}

export const userLifecycleResource: ResourceModule = {
  name: 'user-lifecycle',
  routes(api, ctx) {
    api.delete('/users/me', {}, ({ user }) => {
      deactivateUser(ctx, user, getUserRow(ctx.db, user.id)!);
    });

    api.delete('/users/:user_id', { ids: ['user_id'] }, ({ user, ids }) => {
      requireAdmin(user);
      const target = getUserRow(ctx.db, ids.user_id);
      if (!target || target.is_bot === 1) throw badRequest('No such user');
      deactivateUser(ctx, user, target);
    });

    api.post('/users/:user_id/reactivate', { ids: ['user_id'] }, ({ user, ids }) => {
      requireAdmin(user);
      const target = getUserRow(ctx.db, ids.user_id);
      if (!target) throw badRequest('No such user');
      if (target.is_active === 1) throw badRequest('User is already active');
      setActive(ctx, target, true);
    });
  },
};
