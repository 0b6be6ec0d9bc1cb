// POST /messages (spec 4.1): recipient resolution, permissions, rendering, storage with per-user
// flags, automatic topic visibility and the message event. createMessage is also what the demo
// seed and the notification-bot messages of moves use, so every message is stored the same way.
import { storeWidgetSubmessage } from './submessages-store';
import * as z from 'zod';
import { MessageFlag } from '../../db/flags';
import { realmAlertWordMatcher, usersAlertedBy } from '../../realm/alert-word-matcher';
import type { Db } from '../../db';
import { ApiError, badRequest, missingParam } from '../../http/errors';
import { Param, p } from '../../http/params';
import type { AuthUser, RealmContext } from '../../realm/context';
import { isGuest } from '../../realm/roles';
import {
  canReadChannelContent,
  canSeeChannelMetadata,
  channelGroupSetting,
  groupMemberIds,
  isSubscribed,
  userHasGroupSetting,
} from '../../realm/permissions';
import { databaseLookup } from '../../markdown/lookup';
import { renderMessage, type RenderedMessage } from '../../markdown/render';
import {
  getChannel,
  getChannelByName,
  subscriberIds,
  type ChannelRow,
} from '../channels/channels-store';
import { getUserRow, getUserRowByEmail } from '../users/users-store';
import {
  channelRecipientId,
  directRecipientId,
  getMessage,
  insertUserMessages,
  type MessageRow,
} from './messages-store';
import {
  checkTopicAllowed,
  checkWildcardMentions,
  normalizeTopic,
  topicParticipantIds,
  validateContent,
} from './messages-rules';
import { sendMessageEvent } from './messages-events';
import {
  announceTopicPolicyChanges,
  applyAutomaticVisibility,
  followTopicWhereMentioned,
  type TopicPolicyChange,
} from './messages-visibility';
import { announceAttachmentUpdates, linkAttachmentsToMessage } from '../../uploads/attachments';
import { writeBatcher } from './messages-write-batch';
import { clientNameFrom, defaultReadBySender } from './client-name';
import type { ApiRouter } from '../../http/router';
import { queueWebhookTriggers, wakeWebhookDelivery } from '../webhooks/outgoing-queue';

export type MessageTarget =
  { kind: 'channel'; channel: ChannelRow; topic: string } | { kind: 'direct'; userIds: number[] };

function parseTo(raw: unknown): unknown {
  if (typeof raw !== 'string') return raw;
  const text = raw.trim();
  if (text.startsWith('[') || /^-?\d+$/.test(text) || text.startsWith('"')) {
    try {
      return JSON.parse(text);
    } catch {
      return raw;
    }
  }
  return raw;
}

function channelDoesNotExist(nameOrId: string | number): ApiError {
  return typeof nameOrId === 'number'
    ? new ApiError('STREAM_DOES_NOT_EXIST', `Channel with ID '${nameOrId}' does not exist`, 400, {
        stream_id: nameOrId,
      })
    : new ApiError('STREAM_DOES_NOT_EXIST', `Channel '${nameOrId}' does not exist`, 400, {
        stream: nameOrId,
      });
}

/** The channel addressed by `to`, visible to the sender, or STREAM_DOES_NOT_EXIST. */
export function resolveChannelTarget(ctx: RealmContext, sender: AuthUser, to: unknown): ChannelRow {
  let value = to;
  if (Array.isArray(value) && value.length === 1) value = value[0];
  if (typeof value === 'number') {
    const channel = getChannel(ctx.db, value);
    // A private channel the sender cannot see does not exist for them.
    if (!channel || !canSeeChannelMetadata(ctx.db, sender, channel))
      throw channelDoesNotExist(value);
    return channel;
  }
  if (typeof value !== 'string' || value.trim() === '') {
    throw badRequest('Invalid channel name or ID');
  }
  const name = value.trim();
  const channel = getChannelByName(ctx.db, name);
  if (!channel || !canSeeChannelMetadata(ctx.db, sender, channel)) throw channelDoesNotExist(name);
  return channel;
}

/** Direct recipients as user ids (the sender is dropped unless alone). */
export function resolveDirectTarget(ctx: RealmContext, sender: AuthUser, to: unknown): number[] {
  let items: unknown[];
  if (Array.isArray(to)) items = to;
  else if (typeof to === 'number') items = [to];
  else if (typeof to === 'string')
    items = to
      .split(',')
      .map((s) => s.trim())
      .filter(Boolean);
  else throw badRequest('Invalid recipients');
  if (items.length === 0) throw badRequest('Message must have recipients');
  const ids = new Set<number>();
  for (const item of items) {
    const row =
      typeof item === 'number'
        ? getUserRow(ctx.db, item)
        : typeof item === 'string'
          ? getUserRowByEmail(ctx.db, item)
          : undefined;
    if (!row) {
      throw badRequest(
        typeof item === 'number' ? `Invalid user ID ${item}` : `Invalid email '${String(item)}'`,
      );
    }
    if (row.is_active !== 1) throw badRequest(`'${row.email}' is no longer using Tributary.`);
    ids.add(row.id);
  }
  if (ids.size > 1) ids.delete(sender.id);
  return [...ids].sort((a, b) => a - b);
}

/** Whether the sender may post to the channel (subscription, guests, can_send_message_group). */
export function checkCanPostToChannel(
  ctx: RealmContext,
  sender: AuthUser,
  channel: ChannelRow,
): void {
  if (channel.is_archived === 1) {
    throw badRequest(`Not authorized to send to channel '${channel.name}'`);
  }
  if (!canReadChannelContent(ctx.db, sender, channel)) {
    throw badRequest(`Not authorized to send to channel '${channel.name}'`);
  }
  if (isGuest(sender.role) && !isSubscribed(ctx.db, sender.id, channel.id)) {
    throw badRequest(`Not authorized to send to channel '${channel.name}'`);
  }
  const canSend = channelGroupSetting(channel, 'can_send_message_group');
  if (canSend !== undefined && !userHasGroupSetting(ctx.db, sender.id, canSend)) {
    throw badRequest('You do not have permission to post in this channel.');
  }
}

export interface CreateMessageOptions {
  client: string;
  readBySender: boolean;
  timestamp?: number;
  localEcho?: { queueId: string; localId: string };
  /** Pre-rendered content (the caller already rendered it to check wildcards). */
  rendered?: RenderedMessage;
}

export interface CreatedMessage {
  row: MessageRow;
  flagsByUser: Map<number, number>;
  automaticNewVisibilityPolicy?: number;
  /** Stored with the message, announced by announceCreatedMessage after the commit. */
  topicPolicyChanges: TopicPolicyChange[];
  linkedAttachmentIds: number[];
  /** Outgoing webhook calls the message queued (resources/webhooks/outgoing-queue.ts). */
  webhookCalls: number;
}

/** As the public server: a message from someone a recipient muted arrives read for them. */
function markReadForMuters(db: Db, senderId: number, flagsByUser: Map<number, number>): void {
  const muters = db
    .prepare<[number], { user_id: number }>(
      'SELECT user_id FROM muted_users WHERE muted_user_id = ?',
    )
    .all(senderId);
  for (const { user_id } of muters) {
    const flags = flagsByUser.get(user_id);
    if (flags !== undefined) flagsByUser.set(user_id, flags | MessageFlag.read);
  }
}

/**
 * Sets has_alert_word for each recipient whose alert words occur: the sender too, as on the public
 * server (its flag loop over the new user messages has no exception for the sender).
 */
function addAlertWordFlags(db: Db, alertText: string, flagsByUser: Map<number, number>): void {
  const isRecipient = (id: number) => flagsByUser.has(id);
  for (const id of usersAlertedBy(realmAlertWordMatcher(db), alertText, isRecipient)) {
    flagsByUser.set(id, flagsByUser.get(id)! | MessageFlag.has_alert_word);
  }
}

/** Users a rendering mentions by name or through a group (not silently, not by a wildcard). */
function mentionedUsers(ctx: RealmContext, rendered: RenderedMessage): Set<number> {
  const mentioned = new Set(rendered.mentionedUserIds);
  for (const groupId of rendered.mentionedGroupIds) {
    for (const id of groupMemberIds(ctx.db, groupId)) mentioned.add(id);
  }
  return mentioned;
}

/** Per-recipient flags from the mentions a rendering found. */
export function mentionFlags(
  ctx: RealmContext,
  rendered: RenderedMessage,
  recipients: readonly number[],
  topicParticipants: ReadonlySet<number>,
  mentioned: ReadonlySet<number> = mentionedUsers(ctx, rendered),
): Map<number, number> {
  const flags = new Map<number, number>();
  for (const id of recipients) {
    let bits = 0;
    if (mentioned.has(id)) bits |= MessageFlag.mentioned;
    if (rendered.streamWildcard) bits |= MessageFlag.stream_wildcard_mentioned;
    else if (rendered.topicWildcard && topicParticipants.has(id)) {
      bits |= MessageFlag.topic_wildcard_mentioned;
    }
    flags.set(id, bits);
  }
  return flags;
}

/** Stores a message and emits the message event. No permission checks. */
export function createMessage(
  ctx: RealmContext,
  sender: AuthUser,
  target: MessageTarget,
  content: string,
  options: CreateMessageOptions,
): CreatedMessage {
  const created = storeMessage(ctx, sender, target, content, options);
  announceCreatedMessage(ctx, created, options.localEcho);
  return created;
}

/**
 * The events of a committed message: user_topic changes it caused (so clients know the topic is
 * followed when the message arrives), the message itself, then the owners' attachment updates.
 */
export function announceCreatedMessage(
  ctx: RealmContext,
  created: CreatedMessage,
  localEcho?: { queueId: string; localId: string },
): void {
  announceTopicPolicyChanges(ctx, created.topicPolicyChanges);
  sendMessageEvent(ctx, created.row, created.flagsByUser, localEcho);
  announceAttachmentUpdates(ctx, created.linkedAttachmentIds);
  if (created.webhookCalls > 0) wakeWebhookDelivery(ctx);
}

/**
 * Stores a message with its user_messages rows (in its own transaction, or a savepoint of the
 * caller's). The caller announces it with announceCreatedMessage once the data is committed.
 */
export function storeMessage(
  ctx: RealmContext,
  sender: AuthUser,
  target: MessageTarget,
  content: string,
  options: CreateMessageOptions,
): CreatedMessage {
  const { db } = ctx;
  const rendered = options.rendered ?? renderMessage(content, databaseLookup(db, sender));
  const timestamp = options.timestamp ?? ctx.nowSeconds();
  return db.transaction((): CreatedMessage => {
    let recipientId: number;
    let recipients: readonly number[];
    let channelId: number | null = null;
    let topic = '';
    let participants = new Set<number>();
    let startedTopic = false;
    if (target.kind === 'channel') {
      channelId = target.channel.id;
      topic = target.topic;
      recipientId = channelRecipientId(db, channelId);
      recipients = subscriberIds(db, channelId);
      if (rendered.topicWildcard) participants = new Set(topicParticipantIds(db, channelId, topic));
      startedTopic =
        db
          .prepare(
            'SELECT 1 FROM messages WHERE channel_id = ? AND topic = ? COLLATE NOCASE LIMIT 1',
          )
          .get(channelId, topic) === undefined;
    } else {
      const members = [...new Set([...target.userIds, sender.id])];
      recipientId = directRecipientId(db, members);
      recipients = members;
    }
    const id = Number(
      db
        .prepare(
          `INSERT INTO messages (sender_id, type, recipient_id, channel_id, topic, content,
             rendered_content, client, timestamp, is_me_message, has_link, has_image, has_attachment)
           VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
        )
        .run(
          sender.id,
          target.kind === 'channel' ? 'stream' : 'private',
          recipientId,
          channelId,
          topic,
          content,
          rendered.html,
          options.client,
          timestamp,
          rendered.isMeMessage ? 1 : 0,
          rendered.hasLink ? 1 : 0,
          rendered.hasImage ? 1 : 0,
          rendered.hasAttachment ? 1 : 0,
        ).lastInsertRowid,
    );
    const mentioned = mentionedUsers(ctx, rendered);
    const flagsByUser = mentionFlags(ctx, rendered, recipients, participants, mentioned);
    // A sender who is not subscribed (posting to a public channel) still gets a row.
    if (!flagsByUser.has(sender.id)) flagsByUser.set(sender.id, 0);
    if (options.readBySender) {
      flagsByUser.set(sender.id, (flagsByUser.get(sender.id) ?? 0) | MessageFlag.read);
    }
    markReadForMuters(db, sender.id, flagsByUser);
    addAlertWordFlags(db, rendered.alertText, flagsByUser);
    insertUserMessages(db, id, flagsByUser);
    storeWidgetSubmessage(db, id, sender.id, content);
    const linkedAttachmentIds =
      rendered.uploadPathIds.length > 0
        ? linkAttachmentsToMessage(db, sender.id, id, rendered.uploadPathIds)
        : [];
    const webhookCalls = queueWebhookTriggers(
      db,
      sender,
      id,
      { kind: target.kind, mentionedUserIds: mentioned, recipientIds: recipients },
      Date.now(),
    );
    const row = getMessage(db, id)!;
    const topicPolicyChanges: TopicPolicyChange[] = [];
    if (target.kind === 'channel') {
      const own = applyAutomaticVisibility(ctx, sender, target.channel.id, topic, startedTopic);
      if (own) topicPolicyChanges.push(own);
      topicPolicyChanges.push(
        ...followTopicWhereMentioned(ctx, sender.id, flagsByUser, target.channel.id, topic),
      );
    }
    return {
      row,
      flagsByUser,
      automaticNewVisibilityPolicy: topicPolicyChanges.find((c) => c.userId === sender.id)?.policy,
      topicPolicyChanges,
      linkedAttachmentIds,
      webhookCalls,
    };
  })();
}

export interface SendRequest {
  type: 'direct' | 'channel' | 'stream' | 'private';
  to: unknown;
  topic: string | undefined;
  /** Already validated with validateContent. */
  content: string;
}

/**
 * The checks POST /messages makes before storing: the destination, posting rights, topic rules and
 * wildcard mentions. Scheduled messages run them when scheduled and again when delivered.
 */
export function resolveSendTarget(
  ctx: RealmContext,
  user: AuthUser,
  request: SendRequest,
): { target: MessageTarget; rendered: RenderedMessage } {
  const to = parseTo(request.to);
  const lookup = databaseLookup(ctx.db, user);
  if (request.type === 'channel' || request.type === 'stream') {
    const channel = resolveChannelTarget(ctx, user, to);
    const topic = normalizeTopic(ctx.db, request.topic);
    checkCanPostToChannel(ctx, user, channel);
    checkTopicAllowed(ctx.db, channel, topic);
    const rendered = renderMessage(request.content, lookup);
    checkWildcardMentions(ctx.db, user, channel, topic, {
      stream: rendered.streamWildcard,
      topic: rendered.topicWildcard,
    });
    return { target: { kind: 'channel', channel, topic }, rendered };
  }
  const target: MessageTarget = { kind: 'direct', userIds: resolveDirectTarget(ctx, user, to) };
  return { target, rendered: renderMessage(request.content, lookup) };
}

/** `to` of a send: a channel id or name, or a list of user ids or emails (JSON or comma-separated). */
export const toParam = new Param<unknown, true>(z.unknown(), false, true);

export function registerSendRoute(api: ApiRouter, ctx: RealmContext): void {
  // Compose preview: the HTML a message would get, without sending it.
  api.post('/messages/render', { params: { content: p.string() } }, ({ user, params }) => {
    const content = validateContent(params.content);
    return { rendered: renderMessage(content, databaseLookup(ctx.db, user)).html };
  });

  api.post(
    '/messages',
    {
      params: {
        type: p.enumOf(['direct', 'channel', 'stream', 'private']),
        to: toParam,
        content: p.string(),
        topic: p.string().optional().alias('subject'),
        queue_id: p.string().optional(),
        local_id: p.string().optional(),
        read_by_sender: p.bool().optional(),
        client: p.string().optional(),
      },
    },
    async ({ user, params, request, meter }) => {
      if ((params.queue_id === undefined) !== (params.local_id === undefined)) {
        throw missingParam(params.queue_id === undefined ? 'queue_id' : 'local_id');
      }
      const content = validateContent(params.content);
      const { target, rendered } = resolveSendTarget(ctx, user, {
        type: params.type,
        to: params.to,
        topic: params.topic,
        content,
      });
      const clientName = clientNameFrom(params.client, request.headers['user-agent']);
      const ownQueue =
        params.queue_id !== undefined &&
        ctx.events.queuesOf(user.id).some((q) => q.id === params.queue_id);
      const localEcho = ownQueue
        ? { queueId: params.queue_id!, localId: params.local_id! }
        : undefined;
      // Concurrent sends share one commit (group commit); the event goes out once it is durable.
      // The wait for the commit's timer is not this request's work (request-meter.ts).
      const created = await meter.offLoop(
        writeBatcher(ctx).run(() =>
          storeMessage(ctx, user, target, content, {
            client: clientName,
            readBySender: params.read_by_sender ?? defaultReadBySender(clientName),
            rendered,
          }),
        ),
      );
      announceCreatedMessage(ctx, created, localEcho);
      const body: Record<string, unknown> = { id: created.row.id };
      if (created.automaticNewVisibilityPolicy !== undefined) {
        body.automatic_new_visibility_policy = created.automaticNewVisibilityPolicy;
      }
      return body;
    },
  );
}
