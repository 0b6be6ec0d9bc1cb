// Message rows, who may see them and their API shape (spec 2.2). Every message endpoint and event
// goes through this file for access decisions, so "nobody reads what they may not see" is decided
// in one place:
//   - a user with a user_messages row received the message and may read it;
//   - otherwise a channel message is readable when the user may read the channel's history
//     (public channels for non-guests, private channels with shared history for subscribers).
import type { Db } from '../../db';
import { parseJson } from '../../db';
import { MessageFlag, flagNames } from '../../db/flags';
import type { AuthUser, RealmContext } from '../../realm/context';
import { canReadMessageHistory } from '../../realm/permissions';
import { allChannels, getChannel, type ChannelRow } from '../channels/channels-store';
import { avatarUrl, canSeeDeliveryEmail, type UserRow } from '../users/users-store';
import { realmSetting } from '../realm/realm-settings';
import { realmLinkifiers } from '../../markdown/lookup';
import { linkifierMatches, type Linkifier } from '../../markdown/linkifiers';
import {
  RESOLVED_TOPIC_PREFIX,
  type EditHistoryEntry,
  type Submessage,
} from '../../../shared/api/types';
import { submessagesFor } from './submessages-store';
import { publicName } from '../../../shared/api/public-names';

// The wire types live in shared/api; message code imports them from here with the rows.
export { RESOLVED_TOPIC_PREFIX, type EditHistoryEntry };

export interface MessageRow {
  id: number;
  sender_id: number;
  type: 'stream' | 'private';
  recipient_id: number;
  channel_id: number | null;
  topic: string;
  content: string;
  rendered_content: string;
  client: string;
  timestamp: number;
  edit_history: string | null;
  last_edit_timestamp: number | null;
  last_moved_timestamp: number | null;
  is_me_message: number;
  has_link: number;
  has_image: number;
  has_attachment: number;
}

export const SENDER_REALM_STR = 'local';

export function getMessage(db: Db, id: number): MessageRow | undefined {
  return db.prepare<[number], MessageRow>('SELECT * FROM messages WHERE id = ?').get(id);
}

/** Rows per multi-row INSERT of user_messages (3 parameters each, far below SQLite's limit). */
const USER_MESSAGES_CHUNK = 64;

/**
 * Stores one user_messages row per recipient, several rows per INSERT: one statement per
 * recipient was a large share of a send's cost in channels with many subscribers.
 */
export function insertUserMessages(
  db: Db,
  messageId: number,
  flagsByUser: ReadonlyMap<number, number>,
): void {
  const rows = [...flagsByUser];
  for (let start = 0; start < rows.length; start += USER_MESSAGES_CHUNK) {
    const chunk = rows.slice(start, start + USER_MESSAGES_CHUNK);
    const values: number[] = [];
    for (const [userId, flags] of chunk) values.push(userId, messageId, flags);
    // One SQL text per chunk size; db.prepare caches each.
    db.prepare(
      `INSERT INTO user_messages (user_id, message_id, flags) VALUES ${'(?, ?, ?),'.repeat(chunk.length).slice(0, -1)}`,
    ).run(values);
  }
}

export function userMessageFlags(db: Db, userId: number, messageId: number): number | undefined {
  return db
    .prepare<[number, number], { flags: number }>(
      'SELECT flags FROM user_messages WHERE user_id = ? AND message_id = ?',
    )
    .get(userId, messageId)?.flags;
}

/** Channels whose whole history the user may read (cached per request by the callers). */
export function historyChannelIds(db: Db, user: AuthUser): Set<number> {
  const ids = new Set<number>();
  for (const channel of allChannels(db)) {
    if (canReadMessageHistory(db, user, channel)) ids.add(channel.id);
  }
  return ids;
}

export function canAccessMessage(db: Db, user: AuthUser, message: MessageRow): boolean {
  if (userMessageFlags(db, user.id, message.id) !== undefined) return true;
  if (message.type !== 'stream' || message.channel_id === null) return false;
  const channel = getChannel(db, message.channel_id);
  return channel !== undefined && canReadMessageHistory(db, user, channel);
}

/** The message, or the API's "Invalid message(s)" error when missing or not visible to the user. */
export function accessibleMessage(db: Db, user: AuthUser, id: number): MessageRow | null {
  const message = getMessage(db, id);
  if (!message || !canAccessMessage(db, user, message)) return null;
  return message;
}

/**
 * Who is told about changes to a message (reactions, edits, deletions): everyone who received it,
 * plus subscribers who can read the channel's history without having received it.
 */
export function messageAudience(db: Db, message: MessageRow): number[] {
  const ids = new Set(
    db
      .prepare<[number], { user_id: number }>(
        'SELECT user_id FROM user_messages WHERE message_id = ?',
      )
      .all(message.id)
      .map((r) => r.user_id),
  );
  if (message.type === 'stream' && message.channel_id !== null) {
    const channel = getChannel(db, message.channel_id);
    if (channel) for (const id of historyReaders(db, channel)) ids.add(id);
  }
  return [...ids];
}

/** Active subscribers who read the channel's whole history (none when it is protected). */
export function historyReaders(
  db: Db,
  channel: Pick<ChannelRow, 'id' | 'invite_only' | 'history_public_to_subscribers'>,
): number[] {
  if (channel.invite_only !== 0 && channel.history_public_to_subscribers !== 1) return [];
  return db
    .prepare<[number], { user_id: number }>(
      `SELECT s.user_id FROM subscriptions s JOIN users u ON u.id = s.user_id
        WHERE s.channel_id = ? AND s.active = 1 AND u.is_active = 1`,
    )
    .all(channel.id)
    .map((row) => row.user_id);
}

/** Sorted participant ids of a direct conversation. */
export function directRecipientUserIds(db: Db, recipientId: number): number[] {
  return db
    .prepare<[number], { user_id: number }>(
      'SELECT user_id FROM recipient_members WHERE recipient_id = ? ORDER BY user_id',
    )
    .all(recipientId)
    .map((r) => r.user_id);
}

/** The recipient row of a direct conversation, created on first use. */
export function directRecipientId(db: Db, userIds: number[]): number {
  const sorted = [...new Set(userIds)].sort((a, b) => a - b);
  const key = sorted.join(',');
  const existing = db
    .prepare<[string], { id: number }>('SELECT id FROM recipients WHERE user_ids = ?')
    .get(key);
  if (existing) return existing.id;
  const id = Number(
    db.prepare('INSERT INTO recipients (user_ids) VALUES (?)').run(key).lastInsertRowid,
  );
  const member = db.prepare('INSERT INTO recipient_members (recipient_id, user_id) VALUES (?, ?)');
  for (const userId of sorted) member.run(id, userId);
  return id;
}

export function findDirectRecipientId(db: Db, userIds: number[]): number | undefined {
  const key = [...new Set(userIds)].sort((a, b) => a - b).join(',');
  return db
    .prepare<[string], { id: number }>('SELECT id FROM recipients WHERE user_ids = ?')
    .get(key)?.id;
}

export function channelRecipientId(db: Db, channelId: number): number {
  const row = db
    .prepare<[number], { id: number }>('SELECT id FROM recipients WHERE channel_id = ?')
    .get(channelId);
  if (row) return row.id;
  return Number(
    db.prepare('INSERT INTO recipients (channel_id) VALUES (?)').run(channelId).lastInsertRowid,
  );
}

export interface MessageViewOptions {
  applyMarkdown: boolean;
  clientExtavatar: boolean;
  /** False replaces the empty topic with realm_empty_topic_display_name (api-notes §1.2). */
  allowEmptyTopicName: boolean;
}

/**
 * Builds API message objects for one viewer. Loads senders, reactions, channels and DM members for
 * the whole batch at once.
 */
export class MessageViewBuilder {
  private readonly users = new Map<number, UserRow>();
  private readonly channels = new Map<number, ChannelRow | undefined>();
  private readonly recipients = new Map<number, Array<Record<string, unknown>>>();
  private readonly visibility = new Map<number, number>();
  private emptyTopicDisplay: string | null = null;
  private historyPolicy: string | null = null;
  private linkifiers: readonly Linkifier[] | null = null;

  constructor(private readonly ctx: RealmContext) {}

  build(
    viewer: AuthUser,
    rows: readonly MessageRow[],
    options: MessageViewOptions,
  ): Array<Record<string, unknown>> {
    if (rows.length === 0) return [];
    const ids = rows.map((r) => r.id);
    const reactions = this.reactionsFor(ids);
    const submessages = submessagesFor(this.ctx.db, ids);
    return rows.map((row) =>
      this.one(viewer, row, options, reactions.get(row.id) ?? [], submessages.get(row.id) ?? []),
    );
  }

  one(
    viewer: AuthUser,
    row: MessageRow,
    options: MessageViewOptions,
    reactions?: Array<Record<string, unknown>>,
    submessages?: Submessage[],
  ): Record<string, unknown> {
    const sender = this.user(row.sender_id);
    const visibility = this.visibilityOf(row.sender_id);
    const seesEmail = sender ? canSeeDeliveryEmail(viewer, sender, visibility) : false;
    const message: Record<string, unknown> = {
      id: row.id,
      type: row.type,
      sender_id: row.sender_id,
      sender_email: sender?.email ?? '',
      sender_full_name: sender?.full_name ?? '',
      sender_realm_str: SENDER_REALM_STR,
      avatar_url:
        !sender || (options.clientExtavatar && seesEmail && sender.avatar_source === 'G')
          ? null
          : avatarUrl(sender),
      client: row.client,
      content: options.applyMarkdown ? row.rendered_content : row.content,
      rendered_content: row.rendered_content,
      content_type: options.applyMarkdown ? 'text/html' : 'text/x-markdown',
      display_recipient: this.displayRecipient(row),
      recipient_id: row.recipient_id,
      subject: this.topicFor(row, options.allowEmptyTopicName),
      topic_links: this.topicLinks(row.topic),
      timestamp: row.timestamp,
      is_me_message: row.is_me_message === 1,
      reactions: reactions ?? this.reactionsFor([row.id]).get(row.id) ?? [],
      submessages: submessages ?? submessagesFor(this.ctx.db, [row.id]).get(row.id) ?? [],
    };
    if (row.type === 'stream') message.stream_id = row.channel_id;
    const history = this.visibleEditHistory(row);
    if (history) message.edit_history = history;
    if (row.last_edit_timestamp !== null) message.last_edit_timestamp = row.last_edit_timestamp;
    if (row.last_moved_timestamp !== null) message.last_moved_timestamp = row.last_moved_timestamp;
    return message;
  }

  topicFor(row: Pick<MessageRow, 'type' | 'topic'>, allowEmptyTopicName: boolean): string {
    if (row.type !== 'stream' || row.topic !== '' || allowEmptyTopicName) return row.topic;
    return this.emptyTopicDisplayName();
  }

  /** Linkifier matches in a topic, as {text, url} (spec 2.2 topic_links). */
  topicLinks(topic: string): Array<{ text: string; url: string }> {
    if (topic === '') return [];
    this.linkifiers ??= realmLinkifiers(this.ctx.db);
    if (this.linkifiers.length === 0) return [];
    return linkifierMatches(topic, this.linkifiers).map(({ text, url }) => ({ text, url }));
  }

  emptyTopicDisplayName(): string {
    this.emptyTopicDisplay ??= realmSetting(
      this.ctx.db,
      'empty_topic_display_name',
      'general chat',
    );
    return this.emptyTopicDisplay;
  }

  private visibleEditHistory(row: MessageRow): EditHistoryEntry[] | undefined {
    if (!row.edit_history) return undefined;
    this.historyPolicy ??= realmSetting(
      this.ctx.db,
      'message_edit_history_visibility_policy',
      'all',
    );
    if (this.historyPolicy === 'none') return undefined;
    const entries = parseJson<EditHistoryEntry[]>(row.edit_history, []);
    if (this.historyPolicy === 'all') return entries;
    // 'moves': only channel and topic changes are shown.
    const moves = entries
      .filter((e) => e.prev_stream !== undefined || e.prev_topic !== undefined)
      .map(({ prev_content: _c, prev_rendered_content: _r, ...rest }) => rest);
    return moves.length > 0 ? moves : undefined;
  }

  private user(id: number): UserRow | undefined {
    if (!this.users.has(id)) {
      const row = this.ctx.db
        .prepare<[number], UserRow>(
          `SELECT id, email, delivery_email, full_name, role, is_active, is_bot, bot_type,
                  bot_owner_id, timezone, avatar_source, avatar_version, date_joined, is_imported_stub
             FROM users WHERE id = ?`,
        )
        .get(id);
      if (row) this.users.set(id, row);
    }
    return this.users.get(id);
  }

  /** The sender's email_address_visibility (only senders are needed, so one row at a time). */
  private visibilityOf(userId: number): number {
    let value = this.visibility.get(userId);
    if (value === undefined) {
      const row = this.ctx.db
        .prepare<[number], { settings: string }>(
          'SELECT settings FROM user_settings WHERE user_id = ?',
        )
        .get(userId);
      const setting = parseJson<Record<string, unknown>>(
        row?.settings,
        {},
      ).email_address_visibility;
      value = typeof setting === 'number' ? setting : 1;
      this.visibility.set(userId, value);
    }
    return value;
  }

  private displayRecipient(row: MessageRow): unknown {
    if (row.type === 'stream' && row.channel_id !== null) {
      if (!this.channels.has(row.channel_id)) {
        this.channels.set(row.channel_id, getChannel(this.ctx.db, row.channel_id));
      }
      return this.channels.get(row.channel_id)?.name ?? '';
    }
    let list = this.recipients.get(row.recipient_id);
    if (!list) {
      list = directRecipientUserIds(this.ctx.db, row.recipient_id).map((id) => {
        const user = this.user(id);
        return {
          id,
          email: user?.email ?? '',
          full_name: user?.full_name ?? '',
          is_mirror_dummy: false,
        };
      });
      this.recipients.set(row.recipient_id, list);
    }
    return list;
  }

  private reactionsFor(ids: number[]): Map<number, Array<Record<string, unknown>>> {
    const map = new Map<number, Array<Record<string, unknown>>>();
    // Chunked to stay under SQLite's bound-parameter limit for 5000-message fetches.
    for (let i = 0; i < ids.length; i += 500) {
      const chunk = ids.slice(i, i + 500);
      const rows = this.ctx.db
        .prepare<
          number[],
          {
            message_id: number;
            user_id: number;
            emoji_name: string;
            emoji_code: string;
            reaction_type: string;
          }
        >(
          `SELECT message_id, user_id, emoji_name, emoji_code, reaction_type FROM reactions
            WHERE message_id IN (${chunk.map(() => '?').join(',')})
            ORDER BY created_at, user_id`,
        )
        .all(...chunk);
      for (const r of rows) {
        let list = map.get(r.message_id);
        if (!list) map.set(r.message_id, (list = []));
        list.push({
          emoji_name: r.emoji_name,
          emoji_code: r.emoji_code,
          reaction_type: publicName(r.reaction_type),
          user_id: r.user_id,
        });
      }
    }
    return map;
  }
}

/** Flags as the API lists them; messages without a user_messages row are read and historical. */
export function apiFlags(flags: number | null | undefined): string[] {
  if (flags === null || flags === undefined) return ['read', 'historical'];
  return flagNames(flags);
}

export const MENTION_FLAG_BITS =
  MessageFlag.mentioned |
  MessageFlag.stream_wildcard_mentioned |
  MessageFlag.topic_wildcard_mentioned;
