// Message-related events (api-notes §4): the message event with per-recipient flags and per-queue
// rendering, update_message, and delete_message in its bulk and per-id forms.
import { flagNames } from '../../db/flags';
import { Role } from '../../realm/roles';
import type { QueueView } from '../../events/queue';
import type { AuthUser, RealmContext } from '../../realm/context';
import { getChannel } from '../channels/channels-store';
import { sharedTableCache } from '../../db/table-cache';
import { MessageViewBuilder, apiFlags, messageAudience, type MessageRow } from './messages-store';
import { submessagesFor } from './submessages-store';

/**
 * The viewers (id and role: all a message event depends on, for email visibility) of the given
 * users. Roles of every user are cached until the users table changes: this ran once per message
 * sent and showed in profiles under load.
 */
function viewersOf(ctx: RealmContext, userIds: readonly number[]): Map<number, AuthUser> {
  const viewers = new Map<number, AuthUser>();
  const viewerById = sharedTableCache(
    ctx.db,
    'viewer-by-id',
    ['users'],
    (db, _all: 0): ReadonlyMap<number, AuthUser> => {
      const byId = new Map<number, AuthUser>();
      for (const row of db
        .prepare<[], { id: number; role: number }>('SELECT id, role FROM users')
        .all()) {
        byId.set(row.id, Object.freeze({ id: row.id, role: row.role }) as AuthUser);
      }
      return byId;
    },
  ).get(0);
  for (const id of userIds) {
    const viewer = viewerById.get(id);
    if (viewer) viewers.set(id, viewer);
  }
  return viewers;
}

function viewerOf(userId: number, viewers: Map<number, AuthUser>): AuthUser {
  let viewer = viewers.get(userId);
  if (!viewer) {
    // A user without a row (cannot happen for a recipient) sees as a guest would.
    viewer = { id: userId, role: 400 } as AuthUser;
    viewers.set(userId, viewer);
  }
  return viewer;
}

/**
 * Sends a new message to every recipient queue. flagsByUser holds each recipient's flag bits;
 * the queue that sent it with a local_id gets local_message_id.
 *
 * Recipients whose queues would get equal events (same message variant and same flags, the
 * common case) share one event object, which the hub then serializes once for all of them.
 */
export function sendMessageEvent(
  ctx: RealmContext,
  row: MessageRow,
  flagsByUser: ReadonlyMap<number, number>,
  localEcho?: { queueId: string; localId: string },
): void {
  const builder = new MessageViewBuilder(ctx);
  const variants = new Map<string, Record<string, unknown>>();
  const events = new Map<string, Record<string, unknown> & { type: string }>();
  const recipients = [...flagsByUser.keys()].filter((id) => ctx.events.hasQueues(id));
  const publicWatchers = allPublicStreamsWatchers(ctx, row, flagsByUser);
  if (recipients.length === 0 && publicWatchers.length === 0) return;
  const viewers = viewersOf(ctx, [...recipients, ...publicWatchers]);
  const submessages = submessagesFor(ctx.db, [row.id]).get(row.id) ?? [];
  ctx.events.send([...recipients, ...publicWatchers], (queue: QueueView) => {
    const received = flagsByUser.has(queue.userId);
    if (!received && !queue.options.allPublicStreams) return null;
    const viewer = viewerOf(queue.userId, viewers);
    const options = {
      applyMarkdown: queue.options.applyMarkdown,
      clientExtavatar: queue.options.clientExtavatar,
      allowEmptyTopicName: queue.hasCapability('empty_topic_name'),
    };
    // Objects differ only by these options and the viewer's email access; share equal variants.
    const key = `${options.applyMarkdown}|${options.clientExtavatar}|${options.allowEmptyTopicName}|${viewer.id === row.sender_id}|${viewer.role}`;
    let message = variants.get(key);
    if (!message) {
      message = builder.one(viewer, row, options, [], submessages);
      variants.set(key, message);
    }
    // A message seen only through all_public_streams is public history, as in GET /messages.
    const flags = received ? flagsByUser.get(queue.userId)! : -1;
    if (localEcho && queue.id === localEcho.queueId) {
      return {
        type: 'message',
        message,
        flags: flags < 0 ? ['read', 'historical'] : flagNames(flags),
        local_message_id: localEcho.localId,
      };
    }
    const eventKey = `${key}|${flags}`;
    let event = events.get(eventKey);
    if (!event) {
      event = {
        type: 'message',
        message,
        flags: flags < 0 ? ['read', 'historical'] : flagNames(flags),
      };
      events.set(eventKey, event);
    }
    return event;
  });
}

/**
 * Non-recipients whose queue asked for all_public_streams (bots, mostly) also get messages of
 * public channels; guests never, as they cannot read channels they are not in.
 */
function allPublicStreamsWatchers(
  ctx: RealmContext,
  row: MessageRow,
  flagsByUser: ReadonlyMap<number, number>,
): number[] {
  if (row.type !== 'stream' || row.channel_id === null) return [];
  if (!ctx.events.hasAllPublicStreamsQueues) return [];
  const channel = ctx.db
    .prepare<[number], { invite_only: number }>('SELECT invite_only FROM channels WHERE id = ?')
    .get(row.channel_id);
  if (!channel || channel.invite_only === 1) return [];
  return ctx.db
    .prepare<[], { id: number }>(
      `SELECT id FROM users WHERE is_active = 1 AND role <> ${Role.guest}`,
    )
    .all()
    .map((r) => r.id)
    .filter(
      (id) =>
        !flagsByUser.has(id) &&
        ctx.events.queuesOf(id).some((queue) => queue.options.allPublicStreams),
    );
}

export interface DeletedMessage {
  id: number;
  type: 'stream' | 'private';
  channel_id: number | null;
  topic: string;
}

/**
 * delete_message events: clients with bulk_message_deletion get message_ids per conversation,
 * others one event per message (api-notes §4.3).
 */
export function sendDeleteEvents(
  ctx: RealmContext,
  userIds: Iterable<number>,
  messages: readonly DeletedMessage[],
): void {
  if (messages.length === 0) return;
  const groups = new Map<string, DeletedMessage[]>();
  for (const message of messages) {
    const key =
      message.type === 'stream' ? `s${message.channel_id}\u0000${message.topic}` : 'private';
    let list = groups.get(key);
    if (!list) groups.set(key, (list = []));
    list.push(message);
  }
  const builder = new MessageViewBuilder(ctx);
  for (const list of groups.values()) {
    const first = list[0];
    // The empty topic is shown by name to clients without the empty_topic_name capability.
    const base = (queue: QueueView): Record<string, unknown> =>
      first.type === 'stream'
        ? {
            message_type: 'stream',
            stream_id: first.channel_id,
            topic: builder.topicFor(first, queue.hasCapability('empty_topic_name')),
          }
        : { message_type: 'private' };
    const ids = list.map((m) => m.id).sort((a, b) => a - b);
    ctx.events.send(userIds, (queue) =>
      queue.hasCapability('bulk_message_deletion')
        ? { type: 'delete_message', ...base(queue), message_ids: ids }
        : null,
    );
    for (const id of ids) {
      ctx.events.send(userIds, (queue) =>
        queue.hasCapability('bulk_message_deletion')
          ? null
          : { type: 'delete_message', ...base(queue), message_id: id },
      );
    }
  }
}

export interface MessageUpdate {
  editor: AuthUser;
  before: MessageRow;
  after: MessageRow;
  /** Every moved message (or just the edited one), ascending. */
  movedIds: number[];
  /** Who could see the message before the edit. */
  oldAudience: readonly number[];
  /** Users who lost the message in a move; they get delete_message instead. */
  losingAccess: ReadonlySet<number>;
  contentChanged: boolean;
  topicChanged: boolean;
  newChannelId?: number;
  propagateMode: string;
  now: number;
}

/**
 * update_message (api-notes §4.2): to everyone who sees the message before or after, with their
 * own flags. Topic fields are subject / orig_subject (there is no `topic` field); move fields only
 * on moves; content fields only on content edits.
 */
export function sendUpdateMessageEvent(ctx: RealmContext, update: MessageUpdate): void {
  const { db } = ctx;
  const { before, after } = update;
  const audience = new Set([...messageAudience(db, after), ...update.oldAudience]);
  for (const id of update.losingAccess) audience.delete(id);
  const moved = update.topicChanged || update.newChannelId !== undefined;
  const builder = new MessageViewBuilder(ctx);
  const channelName =
    before.channel_id !== null ? (getChannel(db, before.channel_id)?.name ?? '') : '';
  const flagsOf = db.prepare<[number, number], { flags: number }>(
    'SELECT flags FROM user_messages WHERE user_id = ? AND message_id = ?',
  );
  ctx.events.send(audience, (queue) => {
    const allowEmpty = queue.hasCapability('empty_topic_name');
    const event: Record<string, unknown> & { type: string } = {
      type: 'update_message',
      user_id: update.editor.id,
      edit_timestamp: update.now,
      message_id: before.id,
      message_ids: update.movedIds,
      flags: apiFlags(flagsOf.get(queue.userId, before.id)?.flags),
      rendering_only: false,
    };
    if (before.type === 'stream') {
      event.stream_id = before.channel_id;
      event.stream_name = channelName;
    }
    if (moved) {
      event.propagate_mode = update.propagateMode;
      event.orig_subject = builder.topicFor(before, allowEmpty);
      if (update.newChannelId !== undefined) event.new_stream_id = update.newChannelId;
      if (update.topicChanged) {
        event.subject = builder.topicFor(after, allowEmpty);
        event.topic_links = builder.topicLinks(after.topic);
      }
    }
    if (update.contentChanged) {
      event.orig_content = before.content;
      event.orig_rendered_content = before.rendered_content;
      event.content = after.content;
      event.rendered_content = after.rendered_content;
      event.is_me_message = after.is_me_message === 1;
    }
    return event;
  });
}
