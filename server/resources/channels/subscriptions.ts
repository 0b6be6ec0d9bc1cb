// Subscriptions: GET/POST/DELETE /users/me/subscriptions (4.3), POST
// /users/me/subscriptions/properties (4.4), the subscriptions / unsubscribed / never_subscribed
// register state and subscription add/remove/update/peer_add/peer_remove events.
import * as z from 'zod';
import type { ResourceModule } from '../module';
import type { AuthUser, RealmContext } from '../../realm/context';
import { p, schemas } from '../../http/params';
import { ApiError, badRequest, checkListCap } from '../../http/errors';
import { LIMITS } from '../../config';
import { JsonBytes } from '../../http/raw-json';
import { checkChannelName } from '../../realm/text-rules';
import { isAdmin, isGuest, isOwner } from '../../realm/roles';
import {
  canAdministerChannel,
  canSeeChannelMetadata,
  channelGroupSettingAllows,
  isSubscribed,
  realmGroupSettingAllows,
  type GroupSettingValue,
} from '../../realm/permissions';
import { userSettings } from '../../realm/accounts';
import { loopSlicer, type LoopSlicer } from '../../realm/loop-slices';
import {
  allChannels,
  deactivateSubscription,
  getChannel,
  getChannelByName,
  activeSubscriptionsAmong,
  getSubscription,
  insertChannel,
  insertSubscriptions,
  subscriberIds,
  type ChannelRow,
  type SubscriptionRow,
} from './channels-store';
import {
  announceDefaultChannels,
  channelMetadataAudience,
  channelObject,
  sendChannelCreate,
} from './channels';
import {
  allUserRows,
  getUserRow,
  getUserRowByEmail,
  toViewer,
  type UserRow,
} from '../users/users-store';

const NOTIFICATION_PROPERTIES = [
  'desktop_notifications',
  'audible_notifications',
  'push_notifications',
  'email_notifications',
  'wildcard_mentions_notify',
] as const;

/** User setting each per-channel notification property inherits from when null. */
const NOTIFICATION_DEFAULTS: Record<string, string> = {
  desktop_notifications: 'enable_stream_desktop_notifications',
  audible_notifications: 'enable_stream_audible_notifications',
  push_notifications: 'enable_stream_push_notifications',
  email_notifications: 'enable_stream_email_notifications',
  wildcard_mentions_notify: 'wildcard_mentions_notify',
};

const GROUP_SETTING_PARAMS = [
  'can_add_subscribers_group',
  'can_remove_subscribers_group',
  'can_administer_channel_group',
  'can_send_message_group',
  'can_subscribe_group',
  'can_delete_any_message_group',
  'can_delete_own_message_group',
  'can_move_messages_out_of_channel_group',
  'can_move_messages_within_channel_group',
  'can_resolve_topics_group',
] as const;

const groupSettingParam = () => p.json(schemas.groupSettingValue).optional();
type GroupSettingParam = ReturnType<typeof groupSettingParam>;

const TOPICS_POLICIES = [
  'inherit',
  'allow_empty_topic',
  'disable_empty_topic',
  'empty_topic_only',
] as const;

interface SubscriptionView {
  notificationSettingsNull: boolean;
  includeSubscribers: boolean;
}

/** The user's own part of a subscription object: colour, muting, pinning, notifications. */
function personalFields(
  sub: SubscriptionRow,
  view: SubscriptionView,
  settings: Record<string, unknown>,
): Record<string, unknown> {
  const object: Record<string, unknown> = {
    color: sub.color,
    is_muted: sub.is_muted === 1,
    in_home_view: sub.is_muted !== 1,
    pin_to_top: sub.pin_to_top === 1,
  };
  for (const property of NOTIFICATION_PROPERTIES) {
    const value = sub[property];
    object[property] =
      value === null
        ? view.notificationSettingsNull
          ? null
          : settings[NOTIFICATION_DEFAULTS[property]] === true
        : value === 1;
  }
  return object;
}

/** Subscription object: the channel plus the user's personal settings. */
export function subscriptionObject(
  ctx: RealmContext,
  channel: ChannelRow,
  sub: SubscriptionRow,
  view: SubscriptionView,
  settings: Record<string, unknown>,
): Record<string, unknown> {
  const object: Record<string, unknown> = {
    ...channelObject(ctx, channel),
    ...personalFields(sub, view, settings),
  };
  if (view.includeSubscribers) object.subscribers = subscriberIds(ctx.db, channel.id);
  return object;
}

/**
 * The same object as UTF-8 JSON (with subscribers), from the channel's shared part serialized and
 * encoded once per request. A subscribe for 100 users built and serialized 10,000 objects of 40
 * members, most of them alike; as bytes only the personal members are serialized per user, and the
 * user's list is never a string (the 100 lists of a 100-channel subscribe for 100 users were
 * strings of about 120 KB, made two or three times each, in the young generation) (bench/hostile-load).
 */
function subscriptionPieces(
  sub: SubscriptionRow,
  view: SubscriptionView,
  settings: Record<string, unknown>,
  shared: SharedChannelParts,
  first: boolean,
): Buffer[] {
  const personal = JSON.stringify(personalFields(sub, view, settings)).slice(1);
  return [
    first ? OBJECT_OPEN : NEXT_OBJECT_OPEN,
    shared.membersBytes(),
    Buffer.from(`,${personal}`),
  ];
}

const OBJECT_OPEN = Buffer.from('{');
const NEXT_OBJECT_OPEN = Buffer.from(',{');
const LIST_OPEN = Buffer.from('[');
const LIST_CLOSE = Buffer.from(']');

/** Below this many channels a user's add event reads their subscriptions one by one. */
const FEW_CHANNELS = 16;

/** Subscription rows one transaction of a large subscribe writes before others may run. */
const SUBSCRIPTION_ROWS_PER_TRANSACTION = 500;

/** A channel's object and subscribers, the same for every user told about it in one request. */
interface SharedChannelParts {
  object: Record<string, unknown>;
  subscribers: readonly number[];
  /** The object's members and subscribers as UTF-8 JSON, without braces (built on first use). */
  membersBytes(): Buffer;
}

/**
 * Builds each channel's shared parts once per request: a subscribe of 1,000 channels for 100
 * users otherwise built 100,000 channel objects (several queries each) and held the event loop
 * for tens of seconds (bench/hostile-load).
 */
function sharedChannelParts(ctx: RealmContext) {
  const built = new Map<number, SharedChannelParts>();
  return (channel: ChannelRow): SharedChannelParts => {
    const known = built.get(channel.id);
    if (known) return known;
    let bytes: Buffer | undefined;
    const parts: SharedChannelParts = {
      object: channelObject(ctx, channel),
      subscribers: subscriberIds(ctx.db, channel.id),
      membersBytes: () =>
        (bytes ??= Buffer.from(
          JSON.stringify({ ...parts.object, subscribers: parts.subscribers }).slice(1, -1),
        )),
    };
    built.set(channel.id, parts);
    return parts;
  };
}

/** Everyone who may see the channel's subscriber list, except `exclude`. */
function peerAudience(
  ctx: RealmContext,
  channel: ChannelRow,
  exclude: Iterable<number>,
  users?: readonly UserRow[],
): number[] {
  const skip = new Set(exclude);
  return channelMetadataAudience(ctx, channel, users).filter((id) => !skip.has(id));
}

/**
 * With `slicer`, the channels' shared parts (object, subscribers and their JSON: most of the work,
 * 1,000 channels for one user held the loop 30-50 ms) are built first with other requests running
 * between slices; the rest runs in one turn. Without it, all of it runs before this returns.
 */
async function sendSubscriptionAdd(
  ctx: RealmContext,
  userId: number,
  channels: ChannelRow[],
  partsOf: (channel: ChannelRow) => SharedChannelParts = sharedChannelParts(ctx),
  slicer?: LoopSlicer,
): Promise<void> {
  if (channels.length === 0 || !ctx.events.hasQueues(userId)) return;
  const byVariant = new Map<boolean, JsonBytes>();
  let builtFrom: { rows: AddedSubscription[]; settings: Record<string, unknown> } | null = null;
  if (slicer) {
    for (const channel of channels) {
      await slicer.slice();
      partsOf(channel).membersBytes();
    }
    if (!ctx.events.hasQueues(userId)) return;
    // The objects of a thousand channels took 20-30 ms in one turn (bench/hostile-load): they are
    // built in slices too, from the rows as they were then, and kept only if those rows are still
    // the ones read in the turn that sends them.
    const rows = addedSubscriptions(ctx, userId, channels);
    const settings = userSettings(ctx.db, userId);
    for (const queue of ctx.events.queuesOf(userId)) {
      const variant = queue.hasCapability('notification_settings_null');
      if (!byVariant.has(variant)) {
        byVariant.set(variant, await subscriptionsJson(rows, variant, settings, partsOf, slicer));
      }
    }
    builtFrom = { rows, settings };
  }
  // Still subscribed: the subscribe request may have yielded to one that unsubscribed the user.
  const current = addedSubscriptions(ctx, userId, channels);
  if (current.length === 0) return;
  const settings = userSettings(ctx.db, userId);
  if (builtFrom !== null && !sameSubscriptions(builtFrom, { rows: current, settings })) {
    byVariant.clear();
  }
  // The user's queues differ only in one capability: build each variant once, not per queue.
  ctx.events.send([userId], (queue) => {
    const notificationSettingsNull = queue.hasCapability('notification_settings_null');
    let subscriptions = byVariant.get(notificationSettingsNull);
    if (!subscriptions) {
      subscriptions = subscriptionsJsonNow(current, notificationSettingsNull, settings, partsOf);
      byVariant.set(notificationSettingsNull, subscriptions);
    }
    return { type: 'subscription', op: 'add', subscriptions };
  });
}

interface AddedSubscription {
  channel: ChannelRow;
  sub: SubscriptionRow;
}

/** The user's active subscriptions among `channels`, in their order. */
function addedSubscriptions(
  ctx: RealmContext,
  userId: number,
  channels: ChannelRow[],
): AddedSubscription[] {
  // Many channels: their rows in one query; a few (one channel for many users): a row each.
  const active =
    channels.length > FEW_CHANNELS
      ? activeSubscriptionsAmong(
          ctx.db,
          userId,
          channels.map((channel) => channel.id),
        )
      : null;
  return channels.flatMap((channel) => {
    const sub = active ? active.get(channel.id) : getSubscription(ctx.db, userId, channel.id);
    return sub?.active === 1 ? [{ channel, sub }] : [];
  });
}

/**
 * Whether an add event's objects built from `a` are the ones `b` gives: the same user settings and
 * subscription rows, these compared column by column (two texts of the rows for each of 100 users
 * were a large share of a 100-channel subscribe's garbage).
 */
function sameSubscriptions(
  a: { rows: AddedSubscription[]; settings: Record<string, unknown> },
  b: { rows: AddedSubscription[]; settings: Record<string, unknown> },
): boolean {
  return (
    JSON.stringify(a.settings) === JSON.stringify(b.settings) &&
    a.rows.length === b.rows.length &&
    a.rows.every(({ sub }, i) => sameColumns(sub, b.rows[i].sub))
  );
}

/** Rows of the same query: equal when every column is. */
function sameColumns(a: object, b: object): boolean {
  const left = a as Record<string, unknown>;
  const right = b as Record<string, unknown>;
  const keys = Object.keys(left);
  return (
    keys.length === Object.keys(right).length &&
    keys.every((key) => Object.is(left[key], right[key]))
  );
}

/** Subscription add events always carry subscribers, as the public API does. */
function subscriptionsJsonNow(
  added: AddedSubscription[],
  notificationSettingsNull: boolean,
  settings: Record<string, unknown>,
  partsOf: (channel: ChannelRow) => SharedChannelParts,
): JsonBytes {
  const view = { notificationSettingsNull, includeSubscribers: true };
  const pieces: Buffer[] = [LIST_OPEN];
  added.forEach(({ channel, sub }, i) =>
    pieces.push(...subscriptionPieces(sub, view, settings, partsOf(channel), i === 0)),
  );
  pieces.push(LIST_CLOSE);
  return new JsonBytes(pieces);
}

/** The same, in slices of the loop. */
async function subscriptionsJson(
  added: AddedSubscription[],
  notificationSettingsNull: boolean,
  settings: Record<string, unknown>,
  partsOf: (channel: ChannelRow) => SharedChannelParts,
  slicer: LoopSlicer,
): Promise<JsonBytes> {
  const view = { notificationSettingsNull, includeSubscribers: true };
  const pieces: Buffer[] = [LIST_OPEN];
  for (const [i, { channel, sub }] of added.entries()) {
    await slicer.slice();
    pieces.push(...subscriptionPieces(sub, view, settings, partsOf(channel), i === 0));
  }
  pieces.push(LIST_CLOSE);
  return new JsonBytes(pieces);
}

/**
 * peer_add / peer_remove events grouped as the public server sends them: one event for the channels
 * that share an audience and the users who joined or left (1,000 channels created or left together:
 * one event per peer queue, not 1,000).
 */
class PeerEvents {
  private readonly groups = new Map<
    string,
    { audience: number[]; streamIds: number[]; userIds: number[] }
  >();

  add(audience: number[], channelId: number, userIds: number[]): void {
    const key = `${audience.join(',')}|${userIds.join(',')}`;
    const group = this.groups.get(key);
    if (group) group.streamIds.push(channelId);
    else this.groups.set(key, { audience, streamIds: [channelId], userIds });
  }

  send(ctx: RealmContext, op: 'peer_add' | 'peer_remove'): void {
    for (const { audience, streamIds, userIds } of this.groups.values()) {
      ctx.events.send(audience, {
        type: 'subscription',
        op,
        stream_ids: streamIds,
        user_ids: userIds,
      });
    }
  }
}

function resolvePrincipals(
  ctx: RealmContext,
  user: AuthUser,
  principals: Array<string | number> | undefined,
): UserRow[] {
  if (principals === undefined) return [getUserRow(ctx.db, user.id)!];
  const rows: UserRow[] = [];
  for (const principal of principals) {
    const row =
      typeof principal === 'number'
        ? getUserRow(ctx.db, principal)
        : getUserRowByEmail(ctx.db, principal);
    if (!row || row.is_active !== 1) throw badRequest(`No such user: ${principal}`);
    if (!rows.some((r) => r.id === row.id)) rows.push(row);
  }
  return rows;
}

/** Caps on one subscribe or unsubscribe request, checked before any name or user is looked up. */
function checkSubscriptionCaps(
  channels: readonly unknown[],
  principals: readonly unknown[] | undefined,
) {
  checkListCap(channels, LIMITS.maxChannelsPerSubscriptionRequest, 'channels in one request');
  checkListCap(principals, LIMITS.maxPrincipalsPerRequest, 'users in one request');
  const changes = channels.length * (principals?.length ?? 1);
  if (changes > LIMITS.maxSubscriptionChangesPerRequest) {
    throw badRequest(
      `Too many subscription changes in one request (maximum ${LIMITS.maxSubscriptionChangesPerRequest}).`,
    );
  }
}

export function validateGroupSetting(
  ctx: RealmContext,
  name: string,
  value: GroupSettingValue,
): GroupSettingValue {
  const groupExists = ctx.db.prepare('SELECT 1 FROM user_groups WHERE id = ? AND deactivated = 0');
  const activeUser = ctx.db.prepare('SELECT 1 FROM users WHERE id = ? AND is_active = 1');
  if (typeof value === 'number') {
    if (!groupExists.get(value))
      throw badRequest(`Invalid user group ID: ${value}`, { var_name: name });
    return value;
  }
  for (const id of value.direct_subgroups) {
    if (!groupExists.get(id)) throw badRequest(`Invalid user group ID: ${id}`, { var_name: name });
  }
  for (const id of value.direct_members) {
    if (!activeUser.get(id)) throw badRequest(`Invalid user ID: ${id}`, { var_name: name });
  }
  return {
    direct_members: [...new Set(value.direct_members)],
    direct_subgroups: [...new Set(value.direct_subgroups)],
  };
}

function parseRetention(value: string | number | undefined): number | null | undefined {
  if (value === undefined) return undefined;
  if (value === 'realm_default') return null;
  if (value === 'unlimited') return -1;
  const days = typeof value === 'number' ? value : Number(value);
  if (!Number.isInteger(days) || days < 1) {
    throw new ApiError('REQUEST_VARIABLE_INVALID', "Bad value for 'message_retention_days'", 400, {
      var_name: 'message_retention_days',
    });
  }
  return days;
}

/** May the requester subscribe `target` (themselves or another user) to an existing channel? */
function canSubscribe(
  ctx: RealmContext,
  requester: AuthUser,
  channel: ChannelRow,
  target: UserRow,
): boolean {
  if (channel.is_archived === 1) return false;
  const self = target.id === requester.id;
  if (!self) {
    if (isGuest(requester.role)) return false;
    const mayAdd =
      canAdministerChannel(ctx.db, requester, channel) ||
      channelGroupSettingAllows(ctx.db, requester, channel, 'can_add_subscribers_group') ||
      (realmGroupSettingAllows(ctx.db, requester, 'can_add_subscribers_group') &&
        (channel.invite_only === 0 || isSubscribed(ctx.db, requester.id, channel.id)));
    if (!mayAdd) return false;
    // A guest can only be added to a channel by someone allowed to add subscribers; that is it.
    return true;
  }
  if (channel.invite_only === 0) return !isGuest(requester.role);
  return (
    canAdministerChannel(ctx.db, requester, channel) ||
    channelGroupSettingAllows(ctx.db, requester, channel, 'can_subscribe_group') ||
    channelGroupSettingAllows(ctx.db, requester, channel, 'can_add_subscribers_group')
  );
}

export const subscriptionsResource: ResourceModule = {
  name: 'subscriptions',
  routes(api, ctx) {
    api.get(
      '/users/me/subscriptions',
      { params: { include_subscribers: p.bool().default(false) } },
      ({ user, params }) => {
        const settings = userSettings(ctx.db, user.id);
        const rows = ctx.db
          .prepare<[number], SubscriptionRow>(
            'SELECT * FROM subscriptions WHERE user_id = ? AND active = 1 ORDER BY channel_id',
          )
          .all(user.id);
        return {
          subscriptions: rows.map((sub) =>
            subscriptionObject(
              ctx,
              getChannel(ctx.db, sub.channel_id)!,
              sub,
              {
                notificationSettingsNull: false,
                includeSubscribers: params.include_subscribers,
              },
              settings,
            ),
          ),
        };
      },
    );

    const groupParams = Object.fromEntries(
      GROUP_SETTING_PARAMS.map((name) => [name, groupSettingParam()]),
    ) as Record<(typeof GROUP_SETTING_PARAMS)[number], GroupSettingParam>;

    api.post(
      '/users/me/subscriptions',
      {
        params: {
          subscriptions: p.json(
            z.array(z.object({ name: z.string(), description: z.string().optional() })).min(1),
          ),
          principals: p.json(z.union([z.array(z.number().int()), z.array(z.string())])).optional(),
          authorization_errors_fatal: p.bool().default(true),
          announce: p.bool().default(false),
          invite_only: p.bool().default(false),
          is_web_public: p.bool().default(false),
          is_default_stream: p.bool().default(false),
          history_public_to_subscribers: p.bool().optional(),
          message_retention_days: p.json(z.union([z.string(), z.number().int()])).optional(),
          topics_policy: p.enumOf(TOPICS_POLICIES).optional(),
          folder_id: p.int().optional(),
          send_new_subscription_messages: p.bool().default(true),
          ...groupParams,
        },
      },
      async ({ user, params, meter }) => {
        checkSubscriptionCaps(params.subscriptions, params.principals);
        const principals = resolvePrincipals(
          ctx,
          user,
          params.principals as Array<string | number> | undefined,
        );
        const requested = new Map<string, { name: string; description: string }>();
        for (const item of params.subscriptions) {
          const name = checkChannelName(item.name);
          const description = item.description ?? '';
          if ([...description].length > LIMITS.maxStreamDescriptionLength) {
            throw badRequest(
              `Channel description too long (limit: ${LIMITS.maxStreamDescriptionLength} characters).`,
            );
          }
          if (!requested.has(name.toLowerCase()))
            requested.set(name.toLowerCase(), { name, description });
        }
        const retention = parseRetention(params.message_retention_days);
        if (retention !== undefined && retention !== null && !isOwner(user.role)) {
          throw badRequest('Must be an organization owner');
        }
        if (params.is_default_stream && !isAdmin(user.role)) {
          throw badRequest('Must be an organization administrator');
        }
        if (params.is_web_public) throw badRequest('Web-public channels are not enabled.');
        if (params.is_default_stream && params.invite_only) {
          throw badRequest('A default channel cannot be private.');
        }
        const groupSettings: Record<string, GroupSettingValue> = {};
        for (const name of GROUP_SETTING_PARAMS) {
          const value = params[name] as GroupSettingValue | undefined;
          if (value !== undefined) groupSettings[name] = validateGroupSetting(ctx, name, value);
        }

        // Decide everything before writing, so an authorization error stores nothing. Up to 1,000
        // names, each looked up and checked for every principal: other requests run between
        // slices of it (realm/loop-slices.ts; it held the loop 20-30 ms, bench/hostile-load).
        const slicer = loopSlicer(meter);
        const toCreate: Array<{ name: string; description: string }> = [];
        const existing: ChannelRow[] = [];
        const unauthorized: string[] = [];
        /** Whether the user may subscribe the principals to this existing channel (noted either way). */
        const decideExisting = (channel: ChannelRow, name: string): boolean => {
          const visible = canSeeChannelMetadata(ctx.db, user, channel);
          const allowed =
            visible &&
            principals.every(
              (target) =>
                isSubscribed(ctx.db, target.id, channel.id) ||
                canSubscribe(ctx, user, channel, target),
            );
          if (allowed) existing.push(channel);
          else unauthorized.push(channel.name && visible ? channel.name : name);
          return allowed;
        };
        const refuseUnauthorized = () => {
          if (unauthorized.length > 0 && params.authorization_errors_fatal) {
            throw badRequest(`Unable to access channel (${unauthorized[0]}).`);
          }
        };
        // Asked once, not once per name (up to 1,000).
        let mayCreate: boolean | undefined;
        for (const { name, description } of requested.values()) {
          await slicer.slice();
          const channel = getChannelByName(ctx.db, name);
          if (!channel) {
            const setting = params.invite_only
              ? 'can_create_private_channel_group'
              : 'can_create_public_channel_group';
            mayCreate ??= !isGuest(user.role) && realmGroupSettingAllows(ctx.db, user, setting);
            if (!mayCreate) {
              unauthorized.push(name);
            } else {
              toCreate.push({ name, description });
            }
            continue;
          }
          decideExisting(channel, name);
        }
        refuseUnauthorized();
        // Every new public channel is announced to everyone who can see it: 1,000 at once were
        // 77 MB of events for 100 users (bench/hostile-load).
        if (toCreate.length > LIMITS.maxNewChannelsPerRequest) {
          throw badRequest(
            `Too many new channels in one request (maximum ${LIMITS.maxNewChannelsPerRequest}).`,
          );
        }

        // Who could not see an existing channel before: subscribing them reveals it (a member
        // added to a private channel, a guest to a public one), announced as stream create.
        const hiddenBefore = new Map<number, Set<number>>();
        const noteHidden = (channel: ChannelRow) => {
          const hidden = principals.filter(
            (target) => !canSeeChannelMetadata(ctx.db, toViewer(target), channel),
          );
          hiddenBefore.set(channel.id, new Set(hidden.map((target) => target.id)));
        };
        for (const channel of existing) {
          await slicer.slice();
          noteHidden(channel);
        }

        const now = ctx.nowSeconds();
        const created: ChannelRow[] = [];
        const subscribed: Record<string, string[]> = {};
        const alreadySubscribed: Record<string, string[]> = {};
        const newlySubscribed = new Map<number, ChannelRow[]>();
        const addedByChannel = new Map<number, number[]>();
        ctx.db.transaction(() => {
          for (const { name, description } of toCreate) {
            // Made by a request that ran while this one decided: joined as an existing channel
            // (as the public server's get-or-create does), if this user may.
            const madeMeanwhile = slicer.yielded ? getChannelByName(ctx.db, name) : undefined;
            if (madeMeanwhile) {
              if (decideExisting(madeMeanwhile, name)) noteHidden(madeMeanwhile);
              refuseUnauthorized();
              continue;
            }
            const id = insertChannel(ctx.db, {
              name,
              description,
              creatorId: user.id,
              inviteOnly: params.invite_only,
              historyPublicToSubscribers:
                params.history_public_to_subscribers ?? !params.invite_only,
              messageRetentionDays: retention ?? null,
              topicsPolicy: params.topics_policy ?? 'inherit',
              isDefaultStream: params.is_default_stream,
              groupSettings,
              dateCreated: now,
            });
            created.push(getChannel(ctx.db, id)!);
          }
        })();
        // Up to 100,000 subscription rows, and as many subscription objects for the events:
        // written in transactions of a few thousand rows, other requests running between them
        // once this one has held the loop for a slice (a small request never yields).
        const subscriptionCounts = new Map<number, number>();
        const principalIds = principals.map((u) => u.id);
        const all = [...created, ...existing];
        const perTransaction = Math.max(
          1,
          Math.floor(SUBSCRIPTION_ROWS_PER_TRANSACTION / principals.length),
        );
        for (let first = 0; first < all.length; first += perTransaction) {
          await slicer.slice();
          ctx.db.transaction(() => {
            for (const channel of all.slice(first, first + perTransaction)) {
              const added = new Set(
                insertSubscriptions(ctx.db, channel.id, principalIds, subscriptionCounts),
              );
              addedByChannel.set(
                channel.id,
                principals.filter((u) => added.has(u.id)).map((u) => u.id),
              );
              for (const target of principals) {
                const bucket = added.has(target.id) ? subscribed : alreadySubscribed;
                (bucket[String(target.id)] ??= []).push(channel.name);
                if (added.has(target.id)) {
                  const list = newlySubscribed.get(target.id) ?? [];
                  list.push(channel);
                  newlySubscribed.set(target.id, list);
                }
              }
            }
          })();
        }

        // Events: channel creation first, then the subscribers' own add events, then peers.
        // Channels made by one request share privacy, settings and subscribers, so they share
        // an audience: one create event carries them all (as the public server sends it), and
        // the audience is computed once rather than per channel.
        if (created.length > 0) {
          const fresh = created.map((channel) => getChannel(ctx.db, channel.id)!);
          sendChannelCreate(ctx, fresh, channelMetadataAudience(ctx, fresh[0]!));
        }
        if (created.some((channel) => channel.is_default_stream === 1)) {
          announceDefaultChannels(ctx);
        }
        const current = new Map<number, ChannelRow>();
        const currentRow = (channel: ChannelRow) => {
          let row = current.get(channel.id);
          if (!row) current.set(channel.id, (row = getChannel(ctx.db, channel.id)!));
          return row;
        };
        const partsOf = sharedChannelParts(ctx);
        for (const [userId, channels] of newlySubscribed) {
          await slicer.slice();
          const revealed = channels.filter((c) => hiddenBefore.get(c.id)?.has(userId));
          for (const channel of revealed) {
            sendChannelCreate(ctx, currentRow(channel), [userId]);
          }
          const rows: ChannelRow[] = [];
          for (const channel of channels) {
            await slicer.slice();
            rows.push(currentRow(channel));
          }
          await sendSubscriptionAdd(ctx, userId, rows, partsOf, slicer);
        }
        const peerEvents = new PeerEvents();
        // The realm's users read once, not once per channel.
        const users = allUserRows(ctx.db);
        for (const channel of [...created, ...existing]) {
          // 1,000 channels' audiences take about 100 ms (bench/hostile-load).
          await slicer.slice();
          let addedIds = addedByChannel.get(channel.id) ?? [];
          // A request that ran meanwhile may have unsubscribed some (and told their peers). The
          // channel's subscriber list (cached), not each user's channels: asked of 100 users, the
          // latter read 100 subscription lists in one turn.
          if (slicer.yielded) {
            const still = new Set(subscriberIds(ctx.db, channel.id));
            addedIds = addedIds.filter((id) => still.has(id));
          }
          if (addedIds.length === 0) continue;
          peerEvents.add(
            peerAudience(ctx, currentRow(channel), addedIds, users),
            channel.id,
            addedIds,
          );
        }
        peerEvents.send(ctx, 'peer_add');

        const body: Record<string, unknown> = { subscribed, already_subscribed: alreadySubscribed };
        if (unauthorized.length > 0) body.unauthorized = unauthorized;
        return body;
      },
    );

    api.delete(
      '/users/me/subscriptions',
      {
        params: {
          subscriptions: p.json(z.array(z.string()).min(1)),
          principals: p.json(z.union([z.array(z.number().int()), z.array(z.string())])).optional(),
        },
      },
      async ({ user, params, meter }) => {
        checkSubscriptionCaps(params.subscriptions, params.principals);
        const principals = resolvePrincipals(
          ctx,
          user,
          params.principals as Array<string | number> | undefined,
        );
        // Up to 1,000 names looked up (20-30 ms): other requests run between slices of it; nothing
        // is written before the transaction below.
        const slicer = loopSlicer(meter);
        const channels: ChannelRow[] = [];
        for (const name of params.subscriptions) {
          await slicer.slice();
          const channel = getChannelByName(ctx.db, name.trim());
          if (!channel || !canSeeChannelMetadata(ctx.db, user, channel)) {
            throw new ApiError('STREAM_DOES_NOT_EXIST', `Channel '${name}' does not exist`, 400, {
              stream: name,
            });
          }
          if (!channels.some((c) => c.id === channel.id)) channels.push(channel);
        }
        const others = principals.some((u) => u.id !== user.id);
        if (others) {
          for (const channel of channels) {
            await slicer.slice();
            const allowed =
              !isGuest(user.role) &&
              (canAdministerChannel(ctx.db, user, channel) ||
                channelGroupSettingAllows(ctx.db, user, channel, 'can_remove_subscribers_group'));
            if (!allowed) throw badRequest('Insufficient permission');
          }
        }
        const removed: string[] = [];
        const notRemoved: string[] = [];
        const removedPairs: Array<{ userId: number; channel: ChannelRow }> = [];
        ctx.db.transaction(() => {
          for (const channel of channels) {
            for (const target of principals) {
              if (deactivateSubscription(ctx.db, channel.id, target.id)) {
                removed.push(channel.name);
                removedPairs.push({ userId: target.id, channel });
              } else {
                notRemoved.push(channel.name);
              }
            }
          }
        })();
        // Up to 100,000 pairs' events: other requests run between slices. One that ran meanwhile
        // may have subscribed someone again (and said so): they are no longer told of the removal.
        const stillGone = (userId: number, channelId: number) =>
          !slicer.yielded || !isSubscribed(ctx.db, userId, channelId);
        // One remove event per user, as the public server sends them, with every channel they left.
        const removedByUser = new Map<number, ChannelRow[]>();
        for (const { userId, channel } of removedPairs) {
          const list = removedByUser.get(userId) ?? [];
          list.push(channel);
          removedByUser.set(userId, list);
        }
        for (const [userId, left] of removedByUser) {
          await slicer.slice();
          const gone = left.filter((channel) => stillGone(userId, channel.id));
          if (gone.length === 0) continue;
          ctx.events.send([userId], {
            type: 'subscription',
            op: 'remove',
            subscriptions: gone.map((channel) => ({ stream_id: channel.id, name: channel.name })),
          });
          // A private channel (for a guest, any channel) disappears for whoever may no longer see
          // it; administrators and channel administrators keep seeing private channels.
          const target = toViewer(getUserRow(ctx.db, userId)!);
          const hidden = gone.filter((channel) => !canSeeChannelMetadata(ctx.db, target, channel));
          if (hidden.length > 0) {
            ctx.events.send([userId], {
              type: 'stream',
              op: 'delete',
              stream_ids: hidden.map((channel) => channel.id),
              streams: hidden.map((channel) => ({ stream_id: channel.id })),
            });
          }
        }
        // Grouped once and the realm's users read once: per channel, both were a pass over
        // everything (up to 10,000 pairs times 1,000 channels).
        const goneByChannel = new Map<number, number[]>();
        for (const { userId, channel } of removedPairs) {
          const gone = goneByChannel.get(channel.id) ?? [];
          gone.push(userId);
          goneByChannel.set(channel.id, gone);
        }
        const peerEvents = new PeerEvents();
        const users = allUserRows(ctx.db);
        for (const channel of channels) {
          await slicer.slice();
          const gone = (goneByChannel.get(channel.id) ?? []).filter((id) =>
            stillGone(id, channel.id),
          );
          if (gone.length === 0) continue;
          peerEvents.add(peerAudience(ctx, channel, gone, users), channel.id, gone);
        }
        peerEvents.send(ctx, 'peer_remove');
        return { removed, not_removed: notRemoved };
      },
    );

    api.post(
      '/users/me/subscriptions/properties',
      {
        params: {
          subscription_data: p.json(
            z
              .array(
                z.object({
                  stream_id: z.number().int(),
                  property: z.string(),
                  value: z.union([z.boolean(), z.string(), z.number()]),
                }),
              )
              .min(1),
          ),
        },
      },
      ({ user, params }) => {
        const changes: Array<{
          channelId: number;
          column: string;
          stored: number | string;
          events: Array<[string, unknown]>;
        }> = [];
        for (const { stream_id, property, value } of params.subscription_data) {
          const sub = getSubscription(ctx.db, user.id, stream_id);
          if (!sub || sub.active !== 1)
            throw badRequest(`Not subscribed to channel ID ${stream_id}`);
          const bool = () => {
            if (typeof value !== 'boolean') throw badRequest(`${property} is not a boolean`);
            return value;
          };
          switch (property) {
            case 'color':
              if (typeof value !== 'string' || !/^#[0-9a-fA-F]{6}$/.test(value)) {
                throw badRequest('color is not a valid hex color code');
              }
              changes.push({
                channelId: stream_id,
                column: 'color',
                stored: value.toLowerCase(),
                events: [['color', value.toLowerCase()]],
              });
              break;
            case 'is_muted':
            case 'in_home_view': {
              const muted = property === 'is_muted' ? bool() : !bool();
              changes.push({
                channelId: stream_id,
                column: 'is_muted',
                stored: muted ? 1 : 0,
                events: [
                  ['in_home_view', !muted],
                  ['is_muted', muted],
                ],
              });
              break;
            }
            case 'pin_to_top':
              changes.push({
                channelId: stream_id,
                column: 'pin_to_top',
                stored: bool() ? 1 : 0,
                events: [[property, value]],
              });
              break;
            default:
              if ((NOTIFICATION_PROPERTIES as readonly string[]).includes(property)) {
                changes.push({
                  channelId: stream_id,
                  column: property,
                  stored: bool() ? 1 : 0,
                  events: [[property, value]],
                });
                break;
              }
              throw badRequest(`Unknown subscription property: ${property}`);
          }
        }
        ctx.db.transaction(() => {
          for (const change of changes) {
            ctx.db
              .prepare(
                `UPDATE subscriptions SET ${change.column} = ? WHERE user_id = ? AND channel_id = ?`,
              )
              .run(change.stored, user.id, change.channelId);
          }
        })();
        for (const change of changes) {
          for (const [property, value] of change.events) {
            ctx.events.send([user.id], {
              type: 'subscription',
              op: 'update',
              stream_id: change.channelId,
              property,
              value,
            });
          }
        }
      },
    );
  },

  initialState(ctx, user, request) {
    if (!request.wants('subscription')) return {};
    const settings = userSettings(ctx.db, user.id);
    const view = {
      notificationSettingsNull: request.capabilities.notification_settings_null === true,
      includeSubscribers: request.includeSubscribers,
    };
    const archived = request.capabilities.archived_channels === true;
    const subs = new Map(
      ctx.db
        .prepare<[number], SubscriptionRow>('SELECT * FROM subscriptions WHERE user_id = ?')
        .all(user.id)
        .map((s) => [s.channel_id, s]),
    );
    const subscriptions: unknown[] = [];
    const unsubscribed: unknown[] = [];
    const neverSubscribed: unknown[] = [];
    for (const channel of allChannels(ctx.db)) {
      if (!archived && channel.is_archived === 1) continue;
      const sub = subs.get(channel.id);
      if (sub?.active === 1) {
        subscriptions.push(subscriptionObject(ctx, channel, sub, view, settings));
      } else if (canSeeChannelMetadata(ctx.db, user, channel)) {
        if (sub) unsubscribed.push(subscriptionObject(ctx, channel, sub, view, settings));
        else {
          const object = channelObject(ctx, channel);
          if (request.includeSubscribers) object.subscribers = subscriberIds(ctx.db, channel.id);
          neverSubscribed.push(object);
        }
      }
    }
    return { subscriptions, unsubscribed, never_subscribed: neverSubscribed };
  },
};

/**
 * Subscribes a new user to the realm's default channels (as account creation does), with the
 * subscription add and peer_add events.
 */
export function subscribeToDefaultChannels(ctx: RealmContext, userId: number): void {
  const defaults = allChannels(ctx.db).filter(
    (c) => c.is_default_stream === 1 && c.is_archived === 0,
  );
  const added = ctx.db.transaction(() =>
    defaults.filter((channel) => insertSubscriptions(ctx.db, channel.id, [userId]).length > 0),
  )();
  if (added.length === 0) return;
  // No slicer: sent before this returns.
  void sendSubscriptionAdd(ctx, userId, added);
  for (const channel of added) {
    ctx.events.send(peerAudience(ctx, channel, [userId]), {
      type: 'subscription',
      op: 'peer_add',
      stream_ids: [channel.id],
      user_ids: [userId],
    });
  }
}
