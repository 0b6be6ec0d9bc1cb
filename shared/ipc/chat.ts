// Chat API calls the renderer may make. Each is a named, validated method; main attaches the
// credentials and calls the endpoint of the same meaning (shared/api/endpoints.ts).
import * as z from 'zod';
import type {
  Endpoints,
  GetMessagesResponse,
  JsonObject,
  ResponseOf,
  SuccessEnvelope,
} from '../api/endpoints';
import type { Channel, User } from '../api/types';
import { forAccount, messageId, streamId, userId } from './common';
import { method, push } from './define';

export const narrowTerm = z.strictObject({
  operator: z.string().min(1).max(64),
  operand: z.union([z.string().max(1024), z.number().int(), z.array(z.number().int())]),
  negated: z.boolean().optional(),
});
const anchor = z.union([
  z.number().int().nonnegative(),
  z.enum(['newest', 'oldest', 'first_unread']),
]);
const flag = z.string().min(1).max(64);
const reactionType = z.enum(['unicode_emoji', 'realm_emoji', 'zulip_extra_emoji']);
const topic = z.string().max(1024);

/**
 * How much of a conversation the cache could answer for: `synced` its recent history is complete
 * here; `partial` some of it is here (what was opened, or a sync still running); `never` nothing
 * about it was ever kept, so an empty page means "not on this computer", not "no messages".
 */
export type OfflineCoverage = 'synced' | 'partial' | 'never';

/**
 * A page of messages; `from_cache` when main answered from the local cache (server not reachable),
 * then with `offline_coverage` for what the answer may lack.
 */
export type MessagesPage = GetMessagesResponse & {
  from_cache?: boolean;
  offline_coverage?: OfflineCoverage;
};

export const outgoingMessage = z.discriminatedUnion('type', [
  z.strictObject({
    type: z.literal('channel'),
    to: z.union([streamId, z.string().min(1).max(256)]),
    topic,
    content: z.string().min(1).max(1_000_000),
  }),
  z.strictObject({
    type: z.literal('direct'),
    to: z.array(userId).min(1).max(1000),
    content: z.string().min(1).max(1_000_000),
  }),
]);
export type OutgoingMessage = z.infer<typeof outgoingMessage>;

export type OutboxState = 'pending' | 'sending' | 'failed';
export interface OutboxEntry {
  localId: string;
  accountId: string;
  message: OutgoingMessage;
  state: OutboxState;
  attempts: number;
  createdAt: number;
  lastError: string | null;
}

/**
 * An action done offline that the server refused once it was back (undone on screen), or an edit
 * whose message had changed meanwhile (kept as a draft): what the person is told.
 */
export interface ActionNotice {
  id: string;
  accountId: string;
  kind: 'refused' | 'conflict';
  text: string;
  createdAt: number;
}

export interface SendResult {
  localId: string;
  /** Set when the server accepted the message during this call. */
  messageId: number | null;
  state: 'sent' | 'queued';
}

const reaction = {
  messageId,
  emojiName: z.string().min(1).max(128),
  emojiCode: z.string().max(128).optional(),
  reactionType: reactionType.optional(),
};

export const chatMethods = {
  sendMessage: method<SendResult>()(
    forAccount({ message: outgoingMessage, localId: z.string().min(1).max(64).optional() }),
  ),
  getMessages: method<MessagesPage>()(
    forAccount({
      anchor,
      numBefore: z.number().int().min(0).max(5000),
      numAfter: z.number().int().min(0).max(5000),
      narrow: z.array(narrowTerm).max(20).default([]),
      includeAnchor: z.boolean().optional(),
    }),
  ),
  /** One message with its Markdown source (raw_content): what an edit starts from. */
  getMessage: method<ResponseOf<Endpoints['getMessage']>>()(forAccount({ messageId })),
  /** A message's versions, oldest first: who edited or moved it, when, and what it was before. */
  getMessageHistory: method<ResponseOf<Endpoints['getMessageHistory']>>()(
    forAccount({ messageId }),
  ),
  /** Every topic of a channel (not only those with loaded messages), newest first. */
  getStreamTopics: method<ResponseOf<Endpoints['getStreamTopics']>>()(forAccount({ streamId })),
  /** Compose's preview: the HTML the server would make of `content`, sanitized by the renderer. */
  renderMessage: method<ResponseOf<Endpoints['renderMessage']>>()(
    forAccount({ content: z.string().min(1).max(1_000_000) }),
  ),
  editMessage: method<SuccessEnvelope>()(
    forAccount({
      messageId,
      content: z.string().max(1_000_000).optional(),
      topic: topic.optional(),
      streamId: streamId.optional(),
      propagateMode: z.enum(['change_one', 'change_later', 'change_all']).optional(),
      sendNotificationToOldThread: z.boolean().optional(),
      sendNotificationToNewThread: z.boolean().optional(),
      prevContentSha256: z
        .string()
        .regex(/^[0-9a-f]{64}$/)
        .optional(),
    }),
  ),
  deleteMessage: method<SuccessEnvelope>()(forAccount({ messageId })),
  /** Deletes every message of a topic, repeating the request until the server says complete. */
  deleteTopic: method<null>()(forAccount({ streamId, topic })),
  updateFlags: method<SuccessEnvelope & { messages: number[] }>()(
    forAccount({
      messages: z.array(messageId).min(1).max(5000),
      op: z.enum(['add', 'remove']),
      flag,
    }),
  ),
  updateFlagsForNarrow: method<ResponseOf<Endpoints['updateFlagsForNarrow']>>()(
    forAccount({
      anchor,
      numBefore: z.number().int().min(0).max(5000),
      numAfter: z.number().int().min(0).max(5000),
      narrow: z.array(narrowTerm).max(20),
      op: z.enum(['add', 'remove']),
      flag,
      includeAnchor: z.boolean().optional(),
    }),
  ),
  addReaction: method<SuccessEnvelope>()(forAccount(reaction)),
  removeReaction: method<SuccessEnvelope>()(forAccount(reaction)),
  /** A widget's action (a vote, an option, a task...): `content` is the JSON the widget sends. */
  sendSubmessage: method<SuccessEnvelope>()(
    forAccount({
      messageId,
      msgType: z.string().min(1).max(64),
      content: z.string().min(1).max(100_000),
    }),
  ),
  sendTyping: method<SuccessEnvelope>()(
    forAccount({
      op: z.enum(['start', 'stop']),
      to: z.discriminatedUnion('type', [
        z.strictObject({ type: z.literal('direct'), userIds: z.array(userId).min(1).max(1000) }),
        z.strictObject({ type: z.literal('channel'), streamId, topic }),
      ]),
    }),
  ),
  getStreams: method<SuccessEnvelope & { streams: Channel[] }>()(
    forAccount({ includeAll: z.boolean().optional(), excludeArchived: z.boolean().optional() }),
  ),
  subscribe: method<SuccessEnvelope & JsonObject>()(
    forAccount({
      subscriptions: z
        .array(
          z.strictObject({
            name: z.string().min(1).max(256),
            description: z.string().max(4096).optional(),
          }),
        )
        .min(1)
        .max(100),
      principals: z.array(userId).max(1000).optional(),
      inviteOnly: z.boolean().optional(),
      announce: z.boolean().optional(),
    }),
  ),
  /**
   * Creates a channel with the caller and `principals` subscribed (POST /users/me/subscriptions
   * with a new name). Fails with the server's reason when the name is taken by a channel the caller
   * cannot join, invalid, or the realm does not let the caller create channels of that privacy.
   */
  createChannel: method<SuccessEnvelope & JsonObject>()(
    forAccount({
      name: z.string().min(1).max(256),
      description: z.string().max(4096).optional(),
      privacy: z.enum(['public', 'private', 'web-public']),
      /** Besides the creator, who is always subscribed. */
      principals: z.array(userId).max(1000).optional(),
      announce: z.boolean().optional(),
    }),
  ),
  /** Subscribes other people to an existing channel (POST /users/me/subscriptions, principals). */
  addSubscribers: method<SuccessEnvelope & JsonObject>()(
    forAccount({
      channelName: z.string().min(1).max(256),
      principals: z.array(userId).min(1).max(1000),
    }),
  ),
  unsubscribe: method<SuccessEnvelope & JsonObject>()(
    forAccount({
      subscriptions: z.array(z.string().min(1).max(256)).min(1).max(100),
      principals: z.array(userId).max(1000).optional(),
    }),
  ),
  updateSubscriptionProperties: method<SuccessEnvelope>()(
    forAccount({
      changes: z
        .array(
          z.strictObject({
            streamId,
            property: z.enum([
              'color',
              'is_muted',
              'in_home_view',
              'pin_to_top',
              'desktop_notifications',
              'audible_notifications',
              'push_notifications',
              'email_notifications',
              'wildcard_mentions_notify',
            ]),
            value: z.union([z.boolean(), z.string().max(32)]),
          }),
        )
        .min(1)
        .max(100),
    }),
  ),
  setUserTopic: method<SuccessEnvelope>()(
    forAccount({ streamId, topic, visibilityPolicy: z.number().int().min(0).max(3) }),
  ),
  setStatus: method<SuccessEnvelope>()(
    forAccount({
      statusText: z.string().max(240).optional(),
      emojiName: z.string().max(128).optional(),
      emojiCode: z.string().max(128).optional(),
      reactionType: reactionType.optional(),
      scheduledEndTime: z.number().int().positive().optional(),
    }),
  ),
  getUser: method<SuccessEnvelope & { user: User }>()(
    forAccount({ userId, includeCustomProfileFields: z.boolean().optional() }),
  ),
  updateSettings: method<SuccessEnvelope>()(
    forAccount({
      settings: z.record(
        z.string().regex(/^[a-z_]{1,64}$/),
        z.union([z.boolean(), z.number(), z.string().max(1024)]),
      ),
    }),
  ),
  markAllAsRead: method<SuccessEnvelope & { complete?: boolean }>()(forAccount({})),

  getOutbox: method<OutboxEntry[]>()(forAccount({})),
  /** Sends failed entries again now instead of waiting for the next reconnect. */
  retryOutbox: method<null>()(forAccount({})),
  discardOutboxEntry: method<null>()(forAccount({ localId: z.string().min(1).max(64) })),
  /** Notices of offline actions settled since the app started (also pushed as `actionNotice`). */
  getActionNotices: method<ActionNotice[]>()(forAccount({})),
} as const;

export const chatPushes = {
  outbox: push<{ accountId: string; entries: OutboxEntry[] }>(),
  actionNotice: push<ActionNotice>(),
} as const;
