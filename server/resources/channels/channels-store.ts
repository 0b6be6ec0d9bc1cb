// Channel and subscription rows: the SQL the channel endpoints, the seeds and other resources share.
// Event emission stays in resources/channels/subscriptions.ts and resources/channels/channels.ts.
import type { Db } from '../../db';
import { sharedTableCache } from '../../db/table-cache';
import { parseJson } from '../../db';
import type { GroupSettingValue } from '../../realm/permissions';
import { systemGroupId } from '../../realm/permissions';
import { renderShortMarkdown } from '../../realm/render-text';
import { DEFAULT_CHANNEL_GROUP_SETTINGS } from '../../realm/settings-defaults';
import type { SystemGroupName } from '../../realm/roles';
import { activeUserIdsFrom } from '../users/users-store';

export interface ChannelRow {
  id: number;
  name: string;
  description: string;
  rendered_description: string;
  date_created: number;
  creator_id: number | null;
  invite_only: number;
  is_web_public: number;
  history_public_to_subscribers: number;
  message_retention_days: number | null;
  topics_policy: string;
  folder_id: number | null;
  is_archived: number;
  is_default_stream: number;
  group_settings: string;
}

export interface SubscriptionRow {
  user_id: number;
  channel_id: number;
  active: number;
  color: string;
  is_muted: number;
  pin_to_top: number;
  desktop_notifications: number | null;
  audible_notifications: number | null;
  push_notifications: number | null;
  email_notifications: number | null;
  wildcard_mentions_notify: number | null;
}

export interface NewChannel {
  name: string;
  description?: string;
  creatorId: number | null;
  inviteOnly?: boolean;
  isWebPublic?: boolean;
  historyPublicToSubscribers?: boolean;
  messageRetentionDays?: number | null;
  topicsPolicy?: string;
  isDefaultStream?: boolean;
  groupSettings?: Record<string, GroupSettingValue>;
  dateCreated: number;
}

const PALETTE = [
  '#76ce90',
  '#fae589',
  '#a6c7e5',
  '#e79ab5',
  '#bfd56f',
  '#f4ae55',
  '#b0a5fd',
  '#addfe5',
  '#f5ce6e',
  '#c2726a',
  '#94c849',
  '#bd86e5',
  '#ee7e4a',
  '#a6dcbf',
  '#95a5fd',
  '#53a063',
];

export function defaultChannelGroupSettings(db: Db): Record<string, GroupSettingValue> {
  const settings: Record<string, GroupSettingValue> = {};
  for (const [name, group] of Object.entries(DEFAULT_CHANNEL_GROUP_SETTINGS)) {
    settings[name] = systemGroupId(db, group as SystemGroupName);
  }
  return settings;
}

export function insertChannel(db: Db, channel: NewChannel): number {
  const inviteOnly = channel.inviteOnly ?? false;
  const groupSettings = { ...defaultChannelGroupSettings(db), ...(channel.groupSettings ?? {}) };
  const description = channel.description ?? '';
  const id = Number(
    db
      .prepare(
        `INSERT INTO channels (name, description, rendered_description, date_created, creator_id,
           invite_only, is_web_public, history_public_to_subscribers, message_retention_days,
           topics_policy, is_default_stream, group_settings)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      )
      .run(
        channel.name,
        description,
        renderShortMarkdown(description),
        channel.dateCreated,
        channel.creatorId,
        inviteOnly ? 1 : 0,
        channel.isWebPublic ? 1 : 0,
        // Public channels always have public history.
        !inviteOnly || (channel.historyPublicToSubscribers ?? false) ? 1 : 0,
        channel.messageRetentionDays ?? null,
        channel.topicsPolicy ?? 'inherit',
        channel.isDefaultStream ? 1 : 0,
        JSON.stringify(groupSettings),
      ).lastInsertRowid,
  );
  db.prepare('INSERT INTO recipients (channel_id) VALUES (?)').run(id);
  return id;
}

// Channel rows and subscriber lists are read by every send and most requests; the caches are
// emptied by any write to their tables (server/db/table-cache.ts). The rows they return are frozen.
export function getChannel(db: Db, id: number): ChannelRow | undefined {
  return sharedTableCache(db, 'channel-by-id', ['channels'], (db, channelId: number) =>
    db.prepare<[number], ChannelRow>('SELECT * FROM channels WHERE id = ?').get(channelId),
  ).get(id);
}

export function getChannelByName(db: Db, name: string): ChannelRow | undefined {
  // The column compares with COLLATE NOCASE, which folds ASCII letters only: the key is folded
  // the same way, so names that differ in any other character stay distinct.
  return sharedTableCache(db, 'channel-by-name', ['channels'], (db, folded: string) =>
    db.prepare<[string], ChannelRow>('SELECT * FROM channels WHERE name = ?').get(folded),
  ).get(name.replace(/[A-Z]/g, (letter) => letter.toLowerCase()));
}

/**
 * Every channel row, in id order (a shared, frozen array of frozen rows). Every GET /messages and
 * flag change asks for it (the channels whose history the viewer may read): read once per change
 * of the table, not per request (thousands of rows, bench/hostile-load).
 */
export function allChannels(db: Db): readonly ChannelRow[] {
  return sharedTableCache(db, 'all-channels', ['channels'], (db, _all: true) =>
    db
      .prepare<[], ChannelRow>('SELECT * FROM channels ORDER BY id')
      .all()
      .map((row) => Object.freeze(row)),
  ).get(true);
}

/** Subscribes users (re-activating old rows). Returns the users that were newly subscribed. */
/**
 * Subscribes `userIds` to the channel; returns those newly (re)subscribed. A new subscription's
 * colour follows the user's subscription count: pass one `counts` map to every call of a request,
 * so each user's count is read once rather than counted again for every row (which made a
 * 1,000-channel subscribe quadratic in the channels).
 */
export function insertSubscriptions(
  db: Db,
  channelId: number,
  userIds: number[],
  counts: Map<number, number> = new Map(),
): number[] {
  const existing = db.prepare<[number, number], { active: number }>(
    'SELECT active FROM subscriptions WHERE user_id = ? AND channel_id = ?',
  );
  const reactivate = db.prepare(
    'UPDATE subscriptions SET active = 1 WHERE user_id = ? AND channel_id = ?',
  );
  const insert = db.prepare(
    'INSERT INTO subscriptions (user_id, channel_id, color) VALUES (?, ?, ?)',
  );
  const colorCount = db.prepare<[number], { n: number }>(
    'SELECT COUNT(*) AS n FROM subscriptions WHERE user_id = ?',
  );
  const added: number[] = [];
  for (const userId of userIds) {
    const row = existing.get(userId, channelId);
    if (row?.active === 1) continue;
    if (row) reactivate.run(userId, channelId);
    else {
      const count = counts.get(userId) ?? colorCount.get(userId)!.n;
      insert.run(userId, channelId, PALETTE[count % PALETTE.length]);
      counts.set(userId, count + 1);
    }
    added.push(userId);
  }
  return added;
}

export function deactivateSubscription(db: Db, channelId: number, userId: number): boolean {
  return (
    db
      .prepare(
        'UPDATE subscriptions SET active = 0 WHERE user_id = ? AND channel_id = ? AND active = 1',
      )
      .run(userId, channelId).changes > 0
  );
}

/**
 * Active subscribers who are active users, in id order (a shared, frozen array). Read from the
 * covering index alone and the deactivated users left out here: joining each subscription to its
 * user row cost a 10,000-user organization's first register about 100 ms of CPU over its 1,000
 * channels (docs/benchmarks.md, eleventh pass).
 */
export function subscriberIds(db: Db, channelId: number): readonly number[] {
  return sharedTableCache(db, 'subscriber-ids', ['subscriptions', 'users'], (db, id: number) =>
    activeUserIdsFrom(
      db,
      'SELECT user_id FROM subscriptions WHERE channel_id = ? AND active = 1 ORDER BY user_id',
      id,
    ),
  ).get(channelId);
}

/**
 * The user's active subscriptions among `channelIds`, by channel id: one query instead of one per
 * channel, reading only those rows. Reading the user's whole list instead (a member of 2,000
 * channels: 2,000 rows) for each of the 100 users of a 100-channel subscribe, twice, was the
 * largest allocation of the hostile member's requests (bench/hostile-load).
 */
export function activeSubscriptionsAmong(
  db: Db,
  userId: number,
  channelIds: readonly number[],
): Map<number, SubscriptionRow> {
  const rows = db
    .prepare<[number, string], SubscriptionRow>(
      `SELECT * FROM subscriptions
        WHERE user_id = ? AND active = 1 AND channel_id IN (SELECT value FROM json_each(?))`,
    )
    .all(userId, JSON.stringify(channelIds));
  return new Map(rows.map((row) => [row.channel_id, row]));
}

export function getSubscription(
  db: Db,
  userId: number,
  channelId: number,
): SubscriptionRow | undefined {
  return db
    .prepare<[number, number], SubscriptionRow>(
      'SELECT * FROM subscriptions WHERE user_id = ? AND channel_id = ?',
    )
    .get(userId, channelId);
}

export function channelGroupSettings(row: ChannelRow): Record<string, GroupSettingValue> {
  return parseJson<Record<string, GroupSettingValue>>(row.group_settings, {});
}
