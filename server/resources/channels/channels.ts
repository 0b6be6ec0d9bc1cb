// Channels: the channel object (spec 2.4), GET /streams (4.15), the `streams` register state and
// stream create events. Subscriptions live in resources/channels/subscriptions.ts.
import type { Db } from '../../db';
import type { ResourceModule } from '../module';
import type { AuthUser, RealmContext } from '../../realm/context';
import { p } from '../../http/params';
import { badRequest } from '../../http/errors';
import { isAdmin, isGuest } from '../../realm/roles';
import {
  canReadChannelContent,
  canSeeChannelMetadata,
  isSubscribed,
  systemGroupId,
  type GroupSettingValue,
} from '../../realm/permissions';
import {
  allChannels,
  channelGroupSettings,
  subscriberIds,
  type ChannelRow,
} from './channels-store';
import { allUserRows, toViewer, type UserRow } from '../users/users-store';

const RECENT_SECONDS = 7 * 86400;

interface ChannelStats {
  firstMessageId: number | null;
  lastTimestamp: number | null;
  subscriberCount: number;
}

/**
 * Through the recipient's (recipient_id, id) index: two index seeks per channel. The newest message
 * by id is the latest sent (ids grow with send time). MIN(id) and MAX(timestamp) over the channel_id
 * index read every message row of the channel: with 2,000 channel objects in a large
 * organization's register that was over a second.
 */
function channelStats(db: Db, id: number): ChannelStats {
  const messages = db
    .prepare<[number], { first: number | null; last: number | null }>(
      `SELECT (SELECT MIN(m.id) FROM messages m WHERE m.recipient_id = r.id) AS first,
              (SELECT m.timestamp FROM messages m WHERE m.recipient_id = r.id
                ORDER BY m.id DESC LIMIT 1) AS last
         FROM recipients r WHERE r.channel_id = ?`,
    )
    .get(id);
  return {
    firstMessageId: messages?.first ?? null,
    lastTimestamp: messages?.last ?? null,
    subscriberCount: subscriberIds(db, id).length,
  };
}

/** The legacy stream_post_policy derived from can_send_message_group (inaccurate by design). */
function streamPostPolicy(db: Db, value: GroupSettingValue | undefined): number {
  if (typeof value !== 'number') return 1;
  if (value === systemGroupId(db, 'role:administrators')) return 2;
  if (value === systemGroupId(db, 'role:fullmembers')) return 3;
  if (value === systemGroupId(db, 'role:moderators')) return 4;
  return 1;
}

/** Channel object (spec 2.4 and the remaining public fields). */
export function channelObject(ctx: RealmContext, row: ChannelRow): Record<string, unknown> {
  const stats = channelStats(ctx.db, row.id);
  const groups = channelGroupSettings(row);
  const postPolicy = streamPostPolicy(ctx.db, groups.can_send_message_group);
  return {
    stream_id: row.id,
    name: row.name,
    is_archived: row.is_archived === 1,
    description: row.description,
    rendered_description: row.rendered_description,
    date_created: row.date_created,
    creator_id: row.creator_id,
    invite_only: row.invite_only === 1,
    is_web_public: row.is_web_public === 1,
    stream_post_policy: postPolicy,
    is_announcement_only: postPolicy === 2,
    message_retention_days: row.message_retention_days,
    history_public_to_subscribers: row.history_public_to_subscribers === 1,
    topics_policy: row.topics_policy,
    first_message_id: stats.firstMessageId,
    folder_id: row.folder_id,
    is_recently_active:
      stats.lastTimestamp !== null && stats.lastTimestamp >= ctx.nowSeconds() - RECENT_SECONDS,
    stream_weekly_traffic: null,
    subscriber_count: stats.subscriberCount,
    ...groups,
  };
}

/** Users who may see the channel's metadata (receive its create/update events). */
export function channelMetadataAudience(
  ctx: RealmContext,
  row: ChannelRow,
  users: readonly UserRow[] = allUserRows(ctx.db),
): number[] {
  // canSeeChannelMetadata's rule, with the subscriber check read once for the channel: asking it
  // per user rebuilds every user's subscription cache after a subscription change, which made
  // one request's events cost a query per user of the realm.
  const subscribers = new Set(subscriberIds(ctx.db, row.id));
  return users
    .filter((u) => {
      if (u.is_active !== 1) return false;
      if (subscribers.has(u.id)) return true;
      if (isGuest(u.role)) return row.is_web_public === 1;
      if (row.invite_only === 0) return true;
      return canSeeChannelMetadata(ctx.db, toViewer(u), row);
    })
    .map((u) => u.id);
}

/** The realm's default channels (public by rule), as realm_default_streams and the event carry them. */
export function defaultChannelIds(db: Db): number[] {
  return allChannels(db)
    .filter((row) => row.is_default_stream === 1 && row.is_archived === 0)
    .map((row) => row.id);
}

/** default_streams event (ids, FL 330) to every active non-guest, as the public server sends it. */
export function announceDefaultChannels(ctx: RealmContext): void {
  const audience = allUserRows(ctx.db)
    .filter((u) => u.is_active === 1 && !isGuest(u.role))
    .map((u) => u.id);
  ctx.events.send(audience, {
    type: 'default_streams',
    default_streams: defaultChannelIds(ctx.db),
  });
}

export function sendChannelCreate(
  ctx: RealmContext,
  rows: ChannelRow | readonly ChannelRow[],
  userIds: number[],
): void {
  if (userIds.length === 0) return;
  const streams = (Array.isArray(rows) ? rows : [rows]).map((row) => channelObject(ctx, row));
  ctx.events.send(userIds, { type: 'stream', op: 'create', streams });
}

/** Channels the user may see the metadata of; archived ones only when asked for. */
export function visibleChannels(
  ctx: RealmContext,
  user: AuthUser,
  includeArchived: boolean,
): ChannelRow[] {
  return allChannels(ctx.db).filter(
    (row) => (includeArchived || row.is_archived === 0) && canSeeChannelMetadata(ctx.db, user, row),
  );
}

export const channelsResource: ResourceModule = {
  name: 'channels',
  routes(api, ctx) {
    api.get(
      '/streams',
      {
        params: {
          include_public: p.bool().default(true),
          include_web_public: p.bool().default(false),
          include_subscribed: p.bool().default(true),
          exclude_archived: p.bool().default(true),
          include_all: p.bool().default(false),
          include_default: p.bool().default(false),
          include_owner_subscribed: p.bool().default(false),
          include_can_access_content: p.bool().default(false),
          include_all_active: p.bool().default(false),
        },
      },
      ({ user, params }) => {
        if (params.include_all_active && !isAdmin(user.role)) {
          throw badRequest('User not authorized for this query');
        }
        const ownerId = user.is_bot && params.include_owner_subscribed ? user.bot_owner_id : null;
        const channels = allChannels(ctx.db).filter((row) => {
          if (params.exclude_archived && row.is_archived === 1) return false;
          if (!canSeeChannelMetadata(ctx.db, user, row)) return false;
          if (params.include_all || params.include_all_active) return true;
          if (params.include_public && row.invite_only === 0 && !isGuest(user.role)) return true;
          if (params.include_web_public && row.is_web_public === 1) return true;
          if (params.include_subscribed && isSubscribed(ctx.db, user.id, row.id)) return true;
          if (params.include_default && row.is_default_stream === 1) return true;
          if (params.include_can_access_content && canReadChannelContent(ctx.db, user, row))
            return true;
          if (ownerId !== null && isSubscribed(ctx.db, ownerId, row.id)) return true;
          return false;
        });
        return {
          streams: channels.map((row) => {
            const object = channelObject(ctx, row);
            if (params.include_default) object.is_default = row.is_default_stream === 1;
            return object;
          }),
        };
      },
    );

    api.get('/streams/:stream_id', { ids: ['stream_id'] }, ({ user, ids }) => {
      const row = allChannels(ctx.db).find((c) => c.id === ids.stream_id);
      if (!row || !canSeeChannelMetadata(ctx.db, user, row)) throw badRequest('Invalid channel ID');
      return { stream: channelObject(ctx, row) };
    });

    api.get('/get_stream_id', { params: { stream: p.string() } }, ({ user, params }) => {
      const row = allChannels(ctx.db).find(
        (c) => c.name.toLowerCase() === params.stream.toLowerCase(),
      );
      if (!row || !canSeeChannelMetadata(ctx.db, user, row)) {
        throw badRequest(`Invalid channel name '${params.stream}'`);
      }
      return { stream_id: row.id };
    });

    api.get('/streams/:stream_id/members', { ids: ['stream_id'] }, ({ user, ids }) => {
      const row = allChannels(ctx.db).find((c) => c.id === ids.stream_id);
      if (!row || !canSeeChannelMetadata(ctx.db, user, row)) throw badRequest('Invalid channel ID');
      return { subscribers: subscriberIds(ctx.db, row.id) };
    });
  },

  initialState(ctx, user, request) {
    const state: Record<string, unknown> = {};
    const archived = request.capabilities.archived_channels === true;
    if (request.wants('stream')) {
      state.streams = visibleChannels(ctx, user, archived).map((row) => channelObject(ctx, row));
    }
    if (request.wants('default_streams')) {
      state.realm_default_streams = allChannels(ctx.db)
        .filter((row) => row.is_default_stream === 1 && canSeeChannelMetadata(ctx.db, user, row))
        .map((row) => row.id);
    }
    return state;
  },
};
