// The endpoint table: every chat-API call Tributary makes, with its HTTP method, path, parameter and
// response types. The main process's API client (electron/api/) is driven by this table, so a call
// site can only pass the parameters an endpoint declares and gets its response typed.
//
// Paths are relative to {site}/api/v1. `{name}` segments are filled from the parameter of that name
// (and removed from the body). Parameters that are not strings are JSON-encoded by the client, as
// the API requires for form bodies and query strings.

import type {
  ApiErrorBody,
  ApiSuccess,
  Attachment,
  Channel,
  Draft,
  MessageWithFlags,
  ModernPresence,
  RegisterResponse,
  Reminder,
  User,
} from './types';
import type { GetEventsResponse } from './events';

export type SuccessEnvelope = ApiSuccess;
export type ErrorEnvelope = ApiErrorBody;

export type HttpMethod = 'GET' | 'POST' | 'PATCH' | 'PUT' | 'DELETE';

export interface Endpoint<Params, Response> {
  readonly method: HttpMethod;
  readonly path: string;
  /** false for the few unauthenticated endpoints (server settings, fetching an API key). */
  readonly auth: boolean;
  /** Safe to retry after an ambiguous failure (the request may or may not have reached the server). */
  readonly idempotent: boolean;
  /** Phantom members: never set at run time, they only carry the types. */
  readonly __params?: Params;
  readonly __response?: Response;
}

export type ResponseOf<E> = E extends Endpoint<unknown, infer R> ? R : never;

export function endpoint<Params, Response>(
  method: HttpMethod,
  path: string,
  options: { auth?: boolean; idempotent?: boolean } = {},
): Endpoint<Params, Response> {
  return {
    method,
    path,
    auth: options.auth ?? true,
    // GET, PUT and DELETE are idempotent by HTTP semantics; POST and PATCH only when declared so.
    idempotent: options.idempotent ?? (method === 'GET' || method === 'PUT' || method === 'DELETE'),
  };
}

export type JsonObject = { [key: string]: unknown };

export type ScheduledMessageParams =
  | { type: 'stream'; to: number | string; topic: string; content: string }
  | { type: 'direct'; to: number[]; content: string };

export type Anchor = number | 'newest' | 'oldest' | 'first_unread';
export interface NarrowTerm {
  operator: string;
  operand: string | number | number[];
  negated?: boolean;
}

export interface ServerSettings extends SuccessEnvelope {
  zulip_feature_level?: number;
  zulip_version?: string;
  realm_name?: string;
  realm_url?: string;
  realm_uri?: string;
  realm_icon?: string;
  realm_description?: string;
  email_auth_enabled?: boolean;
  require_email_format_usernames?: boolean;
  push_notifications_enabled?: boolean;
  is_incompatible?: boolean;
  authentication_methods?: Record<string, boolean>;
  external_authentication_methods?: Array<{
    name: string;
    display_name: string;
    display_icon: string | null;
    login_url: string;
    signup_url: string;
  }>;
}

export interface ClientCapabilities {
  notification_settings_null?: boolean;
  bulk_message_deletion?: boolean;
  user_avatar_url_field_optional?: boolean;
  stream_typing_notifications?: boolean;
  user_settings_object?: boolean;
  linkifier_url_template?: boolean;
  user_list_incomplete?: boolean;
  include_deactivated_groups?: boolean;
  archived_channels?: boolean;
  empty_topic_name?: boolean;
}

export interface RegisterParams {
  event_types?: string[];
  fetch_event_types?: string[];
  narrow?: Array<[string, string]>;
  apply_markdown?: boolean;
  client_gravatar?: boolean;
  include_subscribers?: boolean;
  slim_presence?: boolean;
  all_public_streams?: boolean;
  client_capabilities?: ClientCapabilities;
}

export interface SendMessageParams {
  type: 'channel' | 'stream' | 'direct' | 'private';
  to: string | number | string[] | number[];
  content: string;
  topic?: string;
  queue_id?: string;
  local_id?: string;
  read_by_sender?: boolean;
}

export interface GetMessagesParams {
  anchor?: Anchor;
  include_anchor?: boolean;
  num_before?: number;
  num_after?: number;
  narrow?: NarrowTerm[];
  client_gravatar?: boolean;
  apply_markdown?: boolean;
  message_ids?: number[];
  allow_empty_topic_name?: boolean;
}

export interface GetMessagesResponse extends SuccessEnvelope {
  messages: MessageWithFlags[];
  anchor?: number;
  found_anchor?: boolean;
  found_oldest?: boolean;
  found_newest?: boolean;
  history_limited?: boolean;
}

export interface EditMessageParams {
  message_id: number;
  topic?: string;
  propagate_mode?: 'change_one' | 'change_later' | 'change_all';
  send_notification_to_old_thread?: boolean;
  send_notification_to_new_thread?: boolean;
  content?: string;
  prev_content_sha256?: string;
  stream_id?: number;
}

export interface ReactionParams {
  message_id: number;
  emoji_name: string;
  emoji_code?: string;
  reaction_type?: 'unicode_emoji' | 'realm_emoji' | 'zulip_extra_emoji';
}

export interface StatusParams {
  status_text?: string;
  emoji_name?: string;
  emoji_code?: string;
  reaction_type?: string;
  away?: boolean;
  /** When the server clears the status (seconds); servers that lack it list it as ignored. */
  scheduled_end_time?: number;
}

/**
 * One version of a message in GET /messages/{id}/history: its state right after the edit or move
 * that made it (the first: as sent, by the sender). prev_* members say what that edit changed;
 * stream is set only on channel moves. Under the realm's "moves" policy, content edits are left out
 * and every version carries the current content.
 */
export interface MessageHistorySnapshot {
  topic: string;
  content: string;
  rendered_content: string;
  timestamp: number;
  /** Who made this version; null only for edits before March 2017. */
  user_id: number | null;
  prev_topic?: string;
  prev_content?: string;
  prev_rendered_content?: string;
  prev_stream?: number;
  stream?: number;
  content_html_diff?: string;
}

export interface UploadResponse extends SuccessEnvelope {
  url: string;
  uri?: string;
  filename?: string;
}

export const endpoints = {
  serverSettings: endpoint<Record<string, never>, ServerSettings>('GET', '/server_settings', {
    auth: false,
  }),
  fetchApiKey: endpoint<
    { username: string; password: string },
    SuccessEnvelope & { api_key: string; email: string; user_id?: number }
  >('POST', '/fetch_api_key', { auth: false }),
  register: endpoint<RegisterParams, RegisterResponse>('POST', '/register'),
  getEvents: endpoint<
    { queue_id: string; last_event_id: number; dont_block?: boolean },
    GetEventsResponse
  >('GET', '/events'),
  deleteQueue: endpoint<{ queue_id: string }, SuccessEnvelope>('DELETE', '/events'),

  sendMessage: endpoint<
    SendMessageParams,
    SuccessEnvelope & { id: number; automatic_new_visibility_policy?: number }
  >('POST', '/messages'),
  getMessages: endpoint<GetMessagesParams, GetMessagesResponse>('GET', '/messages'),
  getMessage: endpoint<
    { message_id: number; apply_markdown?: boolean },
    SuccessEnvelope & { message: MessageWithFlags; raw_content?: string }
  >('GET', '/messages/{message_id}'),
  /** The message's versions, oldest first (the first is the message as sent). */
  getMessageHistory: endpoint<
    { message_id: number; allow_empty_topic_name?: boolean },
    SuccessEnvelope & { message_history: MessageHistorySnapshot[] }
  >('GET', '/messages/{message_id}/history'),
  editMessage: endpoint<
    EditMessageParams,
    SuccessEnvelope & { detached_uploads?: Array<{ id: number; name: string; path_id: string }> }
  >('PATCH', '/messages/{message_id}'),
  deleteMessage: endpoint<{ message_id: number }, SuccessEnvelope>(
    'DELETE',
    '/messages/{message_id}',
  ),
  /**
   * One round of deleting a topic (administrators): the server deletes in batches and answers
   * complete: false when it stopped early, to be asked again. Repeating is harmless.
   */
  deleteTopic: endpoint<
    { stream_id: number; topic_name: string },
    SuccessEnvelope & { complete: boolean }
  >('POST', '/streams/{stream_id}/delete_topic', { idempotent: true }),
  updateFlags: endpoint<
    { messages: number[]; op: 'add' | 'remove'; flag: string },
    SuccessEnvelope & { messages: number[]; ignored_because_not_subscribed_channels?: number[] }
  >('POST', '/messages/flags', { idempotent: true }),
  updateFlagsForNarrow: endpoint<
    {
      anchor: Anchor;
      include_anchor?: boolean;
      num_before: number;
      num_after: number;
      narrow: NarrowTerm[];
      op: 'add' | 'remove';
      flag: string;
    },
    SuccessEnvelope & {
      processed_count: number;
      updated_count: number;
      first_processed_id: number | null;
      last_processed_id: number | null;
      found_oldest: boolean;
      found_newest: boolean;
    }
  >('POST', '/messages/flags/narrow', { idempotent: true }),
  addReaction: endpoint<ReactionParams, SuccessEnvelope>(
    'POST',
    '/messages/{message_id}/reactions',
  ),
  removeReaction: endpoint<ReactionParams, SuccessEnvelope>(
    'DELETE',
    '/messages/{message_id}/reactions',
  ),
  sendSubmessage: endpoint<
    { message_id: number; msg_type: string; content: string },
    SuccessEnvelope
  >('POST', '/submessage'),
  sendTyping: endpoint<
    {
      type: 'direct' | 'stream' | 'channel';
      op: 'start' | 'stop';
      to?: number[];
      stream_id?: number;
      topic?: string;
    },
    SuccessEnvelope
  >('POST', '/typing', { idempotent: true }),

  getStreams: endpoint<Record<string, boolean>, SuccessEnvelope & { streams: Channel[] }>(
    'GET',
    '/streams',
  ),
  subscribe: endpoint<
    {
      subscriptions: Array<{ name: string; description?: string }>;
      principals?: number[] | string[];
      authorization_errors_fatal?: boolean;
      announce?: boolean;
      invite_only?: boolean;
      [more: string]: unknown;
    },
    SuccessEnvelope & JsonObject
  >('POST', '/users/me/subscriptions', { idempotent: true }),
  unsubscribe: endpoint<
    { subscriptions: string[]; principals?: number[] | string[] },
    SuccessEnvelope & JsonObject
  >('DELETE', '/users/me/subscriptions'),
  updateSubscriptionProperties: endpoint<
    {
      subscription_data: Array<{ stream_id: number; property: string; value: boolean | string }>;
    },
    SuccessEnvelope
  >('POST', '/users/me/subscriptions/properties', { idempotent: true }),
  setUserTopic: endpoint<
    { stream_id: number; topic: string; visibility_policy: number },
    SuccessEnvelope
  >('POST', '/user_topics', { idempotent: true }),

  getDrafts: endpoint<Record<string, never>, SuccessEnvelope & { count: number; drafts: Draft[] }>(
    'GET',
    '/drafts',
  ),
  createDrafts: endpoint<{ drafts: Draft[] }, SuccessEnvelope & { ids: number[] }>(
    'POST',
    '/drafts',
  ),
  editDraft: endpoint<{ draft_id: number; draft: Draft }, SuccessEnvelope>(
    'PATCH',
    '/drafts/{draft_id}',
    { idempotent: true },
  ),
  deleteDraft: endpoint<{ draft_id: number }, SuccessEnvelope>('DELETE', '/drafts/{draft_id}'),

  createScheduledMessage: endpoint<
    ScheduledMessageParams & { scheduled_delivery_timestamp: number },
    SuccessEnvelope & { scheduled_message_id: number }
  >('POST', '/scheduled_messages'),
  editScheduledMessage: endpoint<
    Partial<ScheduledMessageParams> & {
      scheduled_message_id: number;
      scheduled_delivery_timestamp?: number;
    },
    SuccessEnvelope
  >('PATCH', '/scheduled_messages/{scheduled_message_id}', { idempotent: true }),
  deleteScheduledMessage: endpoint<{ scheduled_message_id: number }, SuccessEnvelope>(
    'DELETE',
    '/scheduled_messages/{scheduled_message_id}',
  ),
  /** A reminder about a message: the Notification Bot sends you a DM quoting it at that time (FL381). */
  createReminder: endpoint<
    { message_id: number; scheduled_delivery_timestamp: number },
    SuccessEnvelope & { reminder_id: number }
  >('POST', '/reminders'),
  /** Your pending reminders, soonest first (FL399). There is no edit: a new time is a new one. */
  getReminders: endpoint<Record<string, never>, SuccessEnvelope & { reminders: Reminder[] }>(
    'GET',
    '/reminders',
  ),
  deleteReminder: endpoint<{ reminder_id: number }, SuccessEnvelope>(
    'DELETE',
    '/reminders/{reminder_id}',
  ),
  /** Who has read a message (never its sender; only users sharing read receipts). */
  getReadReceipts: endpoint<{ message_id: number }, SuccessEnvelope & { user_ids: number[] }>(
    'GET',
    '/messages/{message_id}/read_receipts',
  ),

  /** The user's uploaded files; finds a tus upload whose final answer was lost (electron/uploads). */
  getAttachments: endpoint<
    Record<string, never>,
    SuccessEnvelope & { attachments: Attachment[]; upload_space_used?: number }
  >('GET', '/attachments'),

  setStatus: endpoint<StatusParams, SuccessEnvelope>('POST', '/users/me/status', {
    idempotent: true,
  }),
  /**
   * Reports this client's activity (about once a minute) and answers with everyone's presence:
   * with last_update_id, only what changed since.
   */
  updatePresence: endpoint<
    {
      status: 'active' | 'idle';
      slim_presence?: boolean;
      last_update_id?: number;
      new_user_input?: boolean;
      ping_only?: boolean;
      history_limit_days?: number;
    },
    SuccessEnvelope & {
      presences?: Record<string, ModernPresence>;
      server_timestamp?: number;
      presence_last_update_id?: number;
    }
  >('POST', '/users/me/presence', { idempotent: true }),
  muteUser: endpoint<{ muted_user_id: number }, SuccessEnvelope>(
    'POST',
    '/users/me/muted_users/{muted_user_id}',
  ),
  unmuteUser: endpoint<{ muted_user_id: number }, SuccessEnvelope>(
    'DELETE',
    '/users/me/muted_users/{muted_user_id}',
  ),
  /** A channel's topics with their newest message id, newest first. */
  getStreamTopics: endpoint<
    { stream_id: number; allow_empty_topic_name?: boolean },
    SuccessEnvelope & { topics: Array<{ name: string; max_id: number }> }
  >('GET', '/users/me/{stream_id}/topics'),
  /** Message Markdown rendered as the server would render it when sent (compose's preview). */
  renderMessage: endpoint<{ content: string }, SuccessEnvelope & { rendered: string }>(
    'POST',
    '/messages/render',
    { idempotent: true },
  ),
  getUser: endpoint<
    { user_id: number; client_gravatar?: boolean; include_custom_profile_fields?: boolean },
    SuccessEnvelope & { user: User }
  >('GET', '/users/{user_id}'),
  getOwnUser: endpoint<Record<string, never>, SuccessEnvelope & JsonObject>('GET', '/users/me'),
  updateSettings: endpoint<Record<string, unknown>, SuccessEnvelope>('PATCH', '/settings', {
    idempotent: true,
  }),
  markAllAsRead: endpoint<Record<string, never>, SuccessEnvelope & { complete?: boolean }>(
    'POST',
    '/mark_all_as_read',
    { idempotent: true },
  ),
  /** Multipart: the client sends the file body itself (see electron/uploads). */
  uploadFile: endpoint<Record<string, never>, UploadResponse>('POST', '/user_uploads'),
  /**
   * A short-lived, credential-free URL of one upload (`/user_uploads/temporary/…`). `path_id` is the
   * upload's path after `/user_uploads/` (`<realm id>/…`), sent as is: the caller checks it.
   */
  getUploadUrl: endpoint<{ path_id: string }, SuccessEnvelope & { url: string }>(
    'GET',
    '/user_uploads/{+path_id}',
  ),
  addAlertWords: endpoint<{ alert_words: string[] }, SuccessEnvelope & { alert_words: string[] }>(
    'POST',
    '/users/me/alert_words',
    { idempotent: true },
  ),
  removeAlertWords: endpoint<
    { alert_words: string[] },
    SuccessEnvelope & { alert_words: string[] }
  >('DELETE', '/users/me/alert_words'),
  updateProfileData: endpoint<
    { data: Array<{ id: number; value: string | number[] | null }> },
    SuccessEnvelope
  >('PATCH', '/users/me/profile_data', { idempotent: true }),
  /** Multipart: main sends the image itself (electron/settings/avatar-upload.ts). */
  uploadAvatar: endpoint<Record<string, never>, SuccessEnvelope & { avatar_url: string }>(
    'POST',
    '/users/me/avatar',
  ),
  deleteAvatar: endpoint<Record<string, never>, SuccessEnvelope & { avatar_url: string }>(
    'DELETE',
    '/users/me/avatar',
  ),
} as const;

export type Endpoints = typeof endpoints;
