// Wire types of the chat API as Tributary uses it: the records of /work/shared/spec/chat-api.md §2
// and the POST /register response (api-notes §1.3). These describe JSON exactly as it travels, so
// field names keep the API's historical spelling (`subject` is the topic, `stream` is a channel).
// Optional (`?`) means the server may leave the field out; `| null` means it may send null.

/** Envelope of every response (chat-api §2.1). */
export interface ApiSuccess {
  result: 'success';
  msg: string;
  /** Parameters the endpoint ignored (FL 167+). */
  ignored_parameters_unsupported?: string[];
}

export interface ApiErrorBody {
  result: 'error';
  msg: string;
  code: ApiErrorCode | (string & {});
  /** Extra fields some codes carry (queue_id, stream, var_name, retry-after, desc, ...). */
  [extra: string]: unknown;
}

/** Error codes a client branches on (chat-api §7, api-notes §6). */
export type ApiErrorCode =
  | 'BAD_REQUEST'
  | 'UNAUTHORIZED'
  | 'UNAUTHENTICATED_USER'
  | 'INVALID_API_KEY'
  | 'AUTHENTICATION_FAILED'
  | 'USER_DEACTIVATED'
  | 'REALM_DEACTIVATED'
  | 'RATE_LIMIT_HIT'
  | 'STREAM_DOES_NOT_EXIST'
  | 'STREAM_WILDCARD_MENTION_NOT_ALLOWED'
  | 'TOPIC_WILDCARD_MENTION_NOT_ALLOWED'
  | 'BAD_EVENT_QUEUE_ID'
  | 'MOVE_MESSAGES_TIME_LIMIT_EXCEEDED'
  | 'PERMISSION_DENIED'
  | 'UNAUTHORIZED_PRINCIPAL'
  | 'REQUEST_VARIABLE_MISSING'
  | 'REQUEST_VARIABLE_INVALID'
  | 'REQUEST_CONFUSING_VAR'
  | 'INVALID_JSON'
  | 'BAD_NARROW'
  | 'CANNOT_DEACTIVATE_LAST_USER'
  | 'REACTION_ALREADY_EXISTS'
  | 'REACTION_DOES_NOT_EXIST'
  | 'CANNOT_DEACTIVATE_GROUP_IN_USE'
  | 'SERVER_NOT_READY';

// ---------------------------------------------------------------------------------------------
// Messages (chat-api §2.2, api-notes §3.3, §4.1)

/** Personal message flags. Users may change only read, starred and collapsed. */
export type MessageFlag =
  | 'read'
  | 'starred'
  | 'collapsed'
  | 'mentioned'
  | 'stream_wildcard_mentioned'
  | 'topic_wildcard_mentioned'
  | 'wildcard_mentioned'
  | 'has_alert_word'
  | 'historical';

/** Each reaction type has its own emoji_code namespace (chat-api §2.5). */
export type ReactionType = 'unicode_emoji' | 'realm_emoji' | 'zulip_extra_emoji';

export interface Reaction {
  emoji_name: string;
  emoji_code: string;
  reaction_type: ReactionType;
  user_id: number;
}

export interface Submessage {
  msg_type: string;
  content: string;
  message_id: number;
  sender_id: number;
  id: number;
}

export interface TopicLink {
  text: string;
  url: string;
}

/** One recipient of a direct message, as in display_recipient. */
export interface DisplayRecipientUser {
  id: number;
  email: string;
  full_name: string;
  is_mirror_dummy: boolean;
}

/** Most recent first; optional members depend on what the edit changed. */
export interface EditHistoryEntry {
  /** Null only for edits before March 2017. */
  user_id: number | null;
  timestamp: number;
  prev_content?: string;
  prev_rendered_content?: string;
  prev_stream?: number;
  stream?: number;
  prev_topic?: string;
  topic?: string;
}

interface MessageBase {
  id: number;
  sender_id: number;
  sender_email: string;
  sender_full_name: string;
  sender_realm_str: string;
  /** Null when the client computes external avatars itself (client_gravatar). */
  avatar_url: string | null;
  client: string;
  /** HTML when apply_markdown was set, otherwise raw markup. */
  content: string;
  rendered_content?: string;
  content_type: 'text/html' | 'text/x-markdown';
  recipient_id: number;
  /** The topic. Always "" for direct messages. The field is still named subject on the wire. */
  subject: string;
  topic_links: TopicLink[];
  /** UNIX seconds. */
  timestamp: number;
  is_me_message: boolean;
  reactions: Reaction[];
  submessages: Submessage[];
  edit_history?: EditHistoryEntry[];
  /** Content edits only (FL 365). */
  last_edit_timestamp?: number;
  /** FL 365; resolving or unresolving a topic does not count as a move. */
  last_moved_timestamp?: number;
  /** Present on GET /messages results (and kept by the client); events carry flags beside the message. */
  flags?: MessageFlag[];
  /** Present only when the fetch narrow had a `search` term. */
  match_content?: string;
  match_subject?: string;
}

export interface ChannelMessage extends MessageBase {
  type: 'stream';
  stream_id: number;
  /** Channel name. */
  display_recipient: string;
}

export interface DirectMessage extends MessageBase {
  /** The wire still says "private" for direct messages. */
  type: 'private';
  /** Every participant, including the sender (and self). */
  display_recipient: DisplayRecipientUser[];
}

export type Message = ChannelMessage | DirectMessage;

/** A message as the client stores it: flags always present. */
export type MessageWithFlags = Message & { flags: MessageFlag[] };

/** Resolved topics start with this prefix (a check mark and a space). */
export const RESOLVED_TOPIC_PREFIX = '✔ ';

// ---------------------------------------------------------------------------------------------
// Users (chat-api §2.3, api-notes §5.3)

/** 100 owner, 200 administrator, 300 moderator, 400 member, 600 guest. */
export type UserRole = 100 | 200 | 300 | 400 | 600;
/** 1 generic, 2 incoming webhook, 3 outgoing webhook, 4 embedded. */
export type BotType = 1 | 2 | 3 | 4;

export interface ProfileDataValue {
  value: string;
  rendered_value?: string;
}

export interface User {
  user_id: number;
  /** Null when the requester cannot access the real email. */
  delivery_email: string | null;
  email: string;
  full_name: string;
  date_joined: string;
  is_active: boolean;
  is_owner: boolean;
  is_admin: boolean;
  is_guest: boolean;
  is_bot: boolean;
  bot_type: BotType | null;
  bot_owner_id: number | null;
  role: UserRole;
  timezone: string;
  avatar_url: string | null;
  avatar_version: number;
  is_imported_stub?: boolean;
  /** Only present when true; such users are also is_active false. */
  is_deleted?: boolean;
  /** Only for non-bots. Keys are custom profile field ids as strings. */
  profile_data?: Record<string, ProfileDataValue>;
}

/**
 * A user as servers send one. The public server leaves some fields implicit: `is_active` is absent
 * from register's `realm_users` (active) and `realm_non_active_users` (not), humans carry no
 * `bot_type`/`bot_owner_id`, and older feature levels lack `role` (FL59), `delivery_email`,
 * `timezone` or `avatar_version`. The renderer's store fills them in one place (normalizeUser).
 */
export type WireUser = Pick<User, 'user_id' | 'email' | 'full_name'> & Partial<User>;

/** A realm's custom profile field (register `custom_profile_fields`, api-notes §1). */
export interface CustomProfileField {
  id: number;
  name: string;
  hint: string;
  /** 1 short text, 2 long text, 3 select, 4 date, 5 link, 6 users, 7 external account, 8 pronouns. */
  type: number;
  /** JSON text: the options of a select field, the subtype of an external account. */
  field_data: string;
  order: number;
  display_in_profile_summary?: boolean;
  required?: boolean;
  editable_by_user?: boolean;
}

// ---------------------------------------------------------------------------------------------
// Group-setting values and user groups (chat-api §2.6, api-notes §5.7)

/** Either a user group id or an anonymous group of direct members and subgroups. */
export type GroupSettingValue = number | { direct_members: number[]; direct_subgroups: number[] };

export interface UserGroup {
  id: number;
  name: string;
  description: string;
  members: number[];
  direct_subgroup_ids: number[];
  creator_id: number | null;
  date_created: number | null;
  is_system_group: boolean;
  deactivated: boolean;
  can_add_members_group: GroupSettingValue;
  can_join_group: GroupSettingValue;
  can_leave_group: GroupSettingValue;
  can_manage_group: GroupSettingValue;
  can_mention_group: GroupSettingValue;
  can_remove_members_group: GroupSettingValue;
}

// ---------------------------------------------------------------------------------------------
// Channels and subscriptions (chat-api §2.4, api-notes §5.2)

export type TopicsPolicy =
  'inherit' | 'allow_empty_topic' | 'disable_empty_topic' | 'empty_topic_only';

export interface Channel {
  stream_id: number;
  name: string;
  is_archived: boolean;
  description: string;
  rendered_description: string;
  date_created: number;
  creator_id: number | null;
  invite_only: boolean;
  is_web_public: boolean;
  /** Deprecated; inaccurate since FL 333 (use can_send_message_group). */
  stream_post_policy?: 1 | 2 | 3 | 4;
  is_announcement_only?: boolean;
  /** Null inherits the realm setting; -1 means forever. */
  message_retention_days: number | null;
  history_public_to_subscribers: boolean;
  topics_policy: TopicsPolicy;
  first_message_id: number | null;
  folder_id?: number | null;
  is_recently_active?: boolean;
  stream_weekly_traffic?: number | null;
  can_add_subscribers_group: GroupSettingValue;
  can_remove_subscribers_group: GroupSettingValue;
  can_administer_channel_group: GroupSettingValue;
  can_send_message_group?: GroupSettingValue;
  can_subscribe_group?: GroupSettingValue;
  can_delete_any_message_group?: GroupSettingValue;
  can_delete_own_message_group?: GroupSettingValue;
  can_move_messages_out_of_channel_group?: GroupSettingValue;
  can_move_messages_within_channel_group?: GroupSettingValue;
  can_resolve_topics_group?: GroupSettingValue;
  /** Number of subscribers (newer servers; the local server sends it). */
  subscriber_count?: number;
  /** Only when include_subscribers was set. */
  subscribers?: number[];
}

/** A channel plus the user's personal settings for it. */
export interface Subscription extends Channel {
  /** Hex colour; the server default is #c2c2c2. */
  color: string;
  is_muted: boolean;
  /** Deprecated inverse of is_muted. */
  in_home_view?: boolean;
  pin_to_top: boolean;
  /** Null means inherit the user's default. */
  desktop_notifications: boolean | null;
  audible_notifications: boolean | null;
  push_notifications: boolean | null;
  email_notifications: boolean | null;
  wildcard_mentions_notify: boolean | null;
}

/** Properties a subscription update event (and POST /users/me/subscriptions/properties) can change. */
export type SubscriptionProperty =
  | 'color'
  | 'is_muted'
  | 'in_home_view'
  | 'pin_to_top'
  | 'desktop_notifications'
  | 'audible_notifications'
  | 'push_notifications'
  | 'email_notifications'
  | 'wildcard_mentions_notify';

/** Channel the user never subscribed to, as listed in register's never_subscribed. */
export type NeverSubscribedChannel = Channel & { subscribers?: number[] };

// ---------------------------------------------------------------------------------------------
// Drafts, statuses, user topics (chat-api §2.5, api-notes §5.4–5.6, §9)

export interface Draft {
  /** Only in responses and events; never sent on create or edit. */
  id?: number;
  /** "" unaddressed, "stream" or "private". */
  type: '' | 'stream' | 'private';
  /** Exactly one channel id for stream drafts, user ids for private drafts, [] for unaddressed. */
  to: number[];
  topic: string;
  content: string;
  /** UNIX seconds; the server fills it on creation. */
  timestamp?: number;
}

/** A draft that came from the server (it has an id). */
export type StoredDraft = Draft & { id: number };

/** A message the server sends for the user at scheduled_delivery_timestamp (FL179). */
export interface ScheduledMessage {
  scheduled_message_id: number;
  type: 'stream' | 'private';
  /** The channel id, or the direct message's recipients. */
  to: number | number[];
  /** Channel messages only. */
  topic?: string;
  content: string;
  rendered_content: string;
  /** UNIX seconds. */
  scheduled_delivery_timestamp: number;
  /** The server tried to send it and could not (the Notification Bot said why). */
  failed: boolean;
}

/** A pending reminder about a message (GET /reminders, FL399): the DM the Notification Bot sends. */
export interface Reminder {
  reminder_id: number;
  /** The quoting DM's Markdown and HTML, written when the reminder was set. */
  content: string;
  rendered_content: string;
  /** UNIX seconds. */
  scheduled_delivery_timestamp: number;
  failed: boolean;
  reminder_target_message_id: number;
}

export interface UserStatus {
  /** At most 60 code points; "" or absent means no status text. */
  status_text?: string;
  emoji_name?: string;
  emoji_code?: string;
  reaction_type?: ReactionType;
  /** Deprecated: !presence_enabled. */
  away?: boolean;
  /** When the server clears this status (seconds); sent only to its owner, by newer servers. */
  scheduled_end_time?: number;
}

/** 0 none (cleared), 1 muted, 2 unmuted (FL 170), 3 followed (FL 219). */
export type VisibilityPolicy = 0 | 1 | 2 | 3;
export const VisibilityPolicy = { NONE: 0, MUTED: 1, UNMUTED: 2, FOLLOWED: 3 } as const;

export interface UserTopic {
  stream_id: number;
  topic_name: string;
  last_updated: number;
  visibility_policy: VisibilityPolicy;
}

/** An uploaded file as GET /attachments and attachment events describe it (api-notes §8). */
export interface Attachment {
  id: number;
  name: string;
  path_id: string;
  /** Bytes. */
  size: number;
  /** Milliseconds (UNIX seconds before FL 443 in some places; this client uses the ms form). */
  create_time: number;
  /** Messages that link the file; date_sent in milliseconds. */
  messages: { id: number; date_sent: number }[];
}

// ---------------------------------------------------------------------------------------------
// Settings (chat-api §4.8, api-notes §10)

/** The user's settings (and realm_user_settings_defaults, which has the same keys). Unknown keys are kept. */
export interface UserSettings {
  default_language?: string;
  twenty_four_hour_time?: boolean;
  enter_sends?: boolean;
  starred_message_counts?: boolean;
  receives_typing_notifications?: boolean;
  enable_drafts_synchronization?: boolean;
  web_mark_read_on_scroll_policy?: 1 | 2 | 3;
  web_channel_default_view?: 1 | 2 | 3 | 4;
  color_scheme?: 1 | 2 | 3;
  demote_inactive_streams?: 1 | 2 | 3;
  user_list_style?: 1 | 2 | 3;
  web_stream_unreads_count_display_policy?: 1 | 2 | 3;
  web_font_size_px?: number;
  web_line_height_percent?: number;
  email_notifications_batching_period_seconds?: number;
  /** Public servers spell Recent conversations `recent_topics`; the spec (and so older local servers) `recent`. */
  web_home_view?: HomeView | 'recent';
  emojiset?: 'google' | 'twitter' | 'text';
  web_animate_image_previews?: 'always' | 'on_hover' | 'never';
  notification_sound?: string;
  [setting: string]: boolean | number | string | null | undefined;
}

export type SettingValue = boolean | number | string | null;

/** web_home_view's values as the public server spells them (zerver/views/user_settings.py). */
export type HomeView = 'recent_topics' | 'inbox' | 'all_messages';

// ---------------------------------------------------------------------------------------------
// POST /register response (api-notes §1.3)

export interface UnreadDmEntry {
  /** FL 119; the other participant of a 1:1 conversation (self for the self-conversation). */
  other_user_id: number;
  /** Deprecated alias of other_user_id. */
  sender_id?: number;
  unread_message_ids: number[];
}

export interface UnreadChannelEntry {
  stream_id: number;
  topic: string;
  unread_message_ids: number[];
}

export interface UnreadHuddleEntry {
  /** Comma-separated user ids including self, in numeric order: "1,2,3". */
  user_ids_string: string;
  unread_message_ids: number[];
}

/** Every id list is sorted ascending. */
export interface UnreadMessages {
  /** Total unread, excluding muted channels and topics. */
  count: number;
  pms: UnreadDmEntry[];
  /** Includes muted channels and topics. */
  streams: UnreadChannelEntry[];
  huddles: UnreadHuddleEntry[];
  mentions: number[];
  /** True when the server truncated the data at 50,000 unreads. */
  old_unreads_missing: boolean;
}

export interface RecentPrivateConversation {
  max_message_id: number;
  user_ids: number[];
}

export interface RegisterResponse extends ApiSuccess {
  /** Null only for unauthenticated (web-public) access. */
  queue_id: string | null;
  /** Opaque: send back as given with the first GET /events. */
  last_event_id: number;
  zulip_feature_level: number;
  zulip_version: string;
  zulip_merge_base?: string;

  // Limits (chat-api §8).
  max_message_length: number;
  max_topic_length: number;
  max_stream_name_length: number;
  max_stream_description_length: number;
  max_file_upload_size_mib: number;
  max_avatar_file_size_mib?: number;
  max_icon_file_size_mib?: number;
  max_logo_file_size_mib?: number;
  event_queue_longpoll_timeout_seconds: number;
  server_presence_ping_interval_seconds?: number;
  server_presence_offline_threshold_seconds?: number;
  /** How long a typing "start" stays valid without a repeat (default 45000). */
  server_typing_started_expiry_period_milliseconds: number;
  server_typing_stopped_wait_period_milliseconds: number;
  server_typing_started_wait_period_milliseconds: number;

  // The current user.
  user_id: number;
  email: string;
  delivery_email: string | null;
  full_name: string;
  is_admin: boolean;
  is_owner: boolean;
  is_moderator?: boolean;
  is_guest: boolean;
  avatar_url?: string | null;
  avatar_url_medium?: string | null;
  avatar_source?: 'G' | 'J' | 'U';

  realm_users: WireUser[];
  realm_non_active_users: WireUser[];
  cross_realm_bots?: WireUser[];

  subscriptions: Subscription[];
  unsubscribed: Subscription[];
  never_subscribed: NeverSubscribedChannel[];
  streams?: Channel[];

  unread_msgs: UnreadMessages;
  drafts: StoredDraft[];
  scheduled_messages?: ScheduledMessage[];
  /** Pending message reminders (FL399). */
  reminders?: Reminder[];
  user_settings: UserSettings;
  realm_user_settings_defaults?: UserSettings;
  realm_user_groups: UserGroup[];
  user_topics: UserTopic[];
  /** Keyed by user id (as a string). */
  user_status: Record<string, UserStatus>;
  recent_private_conversations: RecentPrivateConversation[];
  starred_messages: number[];
  muted_users?: MutedUser[];
  /** With slim_presence: keyed by user id (as a string), modern shape. */
  presences?: Record<string, ModernPresence>;
  presence_last_update_id?: number;
  /** When the presence data was read (seconds, a float). */
  server_timestamp?: number;
  alert_words?: string[];
  max_message_id?: number;
  custom_profile_fields?: CustomProfileField[];

  // Realm settings the client reads directly.
  realm_name?: string;
  realm_url?: string;
  realm_icon_url?: string;
  /** Shown for the empty topic "" (FL 334). */
  realm_empty_topic_display_name?: string;
  realm_allow_message_editing?: boolean;
  /** Null = no limit. */
  realm_message_content_edit_limit_seconds?: number | null;
  realm_message_content_delete_limit_seconds?: number | null;
  realm_move_messages_within_stream_limit_seconds?: number | null;
  realm_move_messages_between_streams_limit_seconds?: number | null;
  realm_message_edit_history_visibility_policy?: 'all' | 'moves' | 'none';
  realm_plan_type?: 1 | 2 | 3 | 4;
  realm_upload_quota_mib?: number | null;
  /** -1 = disabled. */
  realm_new_stream_announcements_stream_id?: number;
  realm_signup_announcements_stream_id?: number;
  realm_default_streams?: number[];
  /** The user's own bots (all of the realm's for administrators). */
  realm_bots?: RealmBot[];
  /** Every other realm_* org setting (many realm_can_*_group group-setting values). */
  [realmSetting: `realm_${string}`]: unknown;
}

/** A user's presence in the modern (slim) shape: when they were last active and last connected. */
export interface ModernPresence {
  active_timestamp: number;
  idle_timestamp: number;
}

export interface MutedUser {
  id: number;
  timestamp: number;
}

/** A bot as realm_bots and realm_bot events carry it (api-notes §5.8). */
export interface RealmBot {
  user_id: number;
  full_name: string;
  email: string;
  /** 1 generic, 2 incoming webhook, 3 outgoing webhook, 4 embedded. */
  bot_type: 1 | 2 | 3 | 4;
  is_active: boolean;
  owner_id: number | null;
  avatar_url: string | null;
  /** The public server sends it; Tributary's main process removes it before the renderer. */
  api_key?: string;
  default_sending_stream: string | null;
  default_events_register_stream: string | null;
  default_all_public_streams: boolean;
  /** Outgoing webhooks: where messages are posted, in which payload format (1 own, 2 Slack). */
  services: Array<{ base_url?: string; interface?: number; token?: string }>;
}
