// Events read from the queue with GET /events (chat-api §6, api-notes §2, §4, §5), as a discriminated
// union on `type` (and `op` where the type has several operations). This is the set the local realm
// server emits and the renderer's store applies. Every event has an increasing (not consecutive) id.
import type { RealmDomain, RealmLinkifier, RealmPlayground } from './realm-config';
import type {
  Attachment,
  Channel,
  CustomProfileField,
  Draft,
  GroupSettingValue,
  Message,
  MessageFlag,
  ProfileDataValue,
  ReactionType,
  ScheduledMessage,
  Reminder,
  SettingValue,
  StoredDraft,
  Subscription,
  SubscriptionProperty,
  TopicLink,
  WireUser,
  UserGroup,
  UserRole,
  VisibilityPolicy,
  ModernPresence,
  MutedUser,
  RealmBot,
} from './types';

interface EventBase {
  id: number;
}

// ---------------------------------------------------------------------------------------------
// Messages

/** A new message. Flags travel beside the message, not inside it: never assume a new message is unread. */
export interface MessageEvent extends EventBase {
  type: 'message';
  message: Message;
  flags: MessageFlag[];
  /** Only in the sender's own queue when POST /messages carried this queue_id and a local_id. */
  local_message_id?: string;
}

export type PropagateMode = 'change_one' | 'change_later' | 'change_all';

/**
 * A content edit, a move (topic and/or channel), or a rendering-only update (e.g. link previews).
 * Subtle points:
 * - The new topic is `subject`, the old one `orig_subject`; there is NO `topic` field.
 * - `stream_id` is the channel BEFORE the edit; `new_stream_id` appears only on channel moves.
 * - Content fields apply to `message_id` only; move fields apply to every id in `message_ids`.
 * - `rendering_only` true means no user edit happened (user_id null, edit history unchanged).
 */
export interface UpdateMessageEvent extends EventBase {
  type: 'update_message';
  /** The editor; null for rendering-only updates. */
  user_id: number | null;
  rendering_only: boolean;
  message_id: number;
  /** Every moved message, always including message_id. Sorted ascending. */
  message_ids: number[];
  /** The user's flags on message_id after the edit. */
  flags: MessageFlag[];
  edit_timestamp: number;
  /** Deprecated name of the channel before the edit (channel messages only). */
  stream_name?: string;
  /** The channel before the edit; present for every channel-message edit. */
  stream_id?: number;
  /** Only when the messages moved to another channel. */
  new_stream_id?: number;
  /** Only on moves. */
  propagate_mode?: PropagateMode;
  /** Topic before the move (only on moves). */
  orig_subject?: string;
  /** Topic after the move; only when the topic changed. */
  subject?: string;
  /** Only when the topic changed. */
  topic_links?: TopicLink[];
  /** Only when content changed. */
  orig_content?: string;
  orig_rendered_content?: string;
  /** When content changed, or on a rendering-only update. */
  content?: string;
  rendered_content?: string;
  is_me_message?: boolean;
}

/** Bulk deletion (the client declares bulk_message_deletion, so message_ids is always set). */
export interface DeleteMessageEvent extends EventBase {
  type: 'delete_message';
  message_ids: number[];
  /** Only for clients without bulk_message_deletion; the local server never sends it. */
  message_id?: number;
  message_type: 'stream' | 'private';
  /** Only when message_type is stream. */
  stream_id?: number;
  topic?: string;
}

/** Per-message details of a `read` flag removal, enough to rebuild unread_msgs. */
export interface UnreadMessageDetail {
  type: 'private' | 'stream';
  mentioned?: boolean;
  /** Direct messages: the other participants (self excluded). */
  user_ids?: number[];
  stream_id?: number;
  topic?: string;
}

export interface UpdateMessageFlagsAddEvent extends EventBase {
  type: 'update_message_flags';
  op: 'add';
  /** Deprecated copy of op. */
  operation?: 'add';
  flag: MessageFlag;
  messages: number[];
  /** Only meaningful for `read`: when true, every message is now read and `messages` is []. */
  all: boolean;
}

export interface UpdateMessageFlagsRemoveEvent extends EventBase {
  type: 'update_message_flags';
  op: 'remove';
  operation?: 'remove';
  flag: MessageFlag;
  messages: number[];
  /** Deprecated, always false. */
  all: boolean;
  /** Only when flag is `read`: keyed by message id as a string. */
  message_details?: Record<string, UnreadMessageDetail>;
}

export type UpdateMessageFlagsEvent = UpdateMessageFlagsAddEvent | UpdateMessageFlagsRemoveEvent;

export interface ReactionEvent extends EventBase {
  type: 'reaction';
  op: 'add' | 'remove';
  message_id: number;
  emoji_name: string;
  emoji_code: string;
  reaction_type: ReactionType;
  user_id: number;
  /** Deprecated. */
  user?: { user_id: number; email: string; full_name: string };
}

/** A submessage (a widget's vote, option, task...) added to a message (POST /submessage). */
export interface SubmessageEvent extends EventBase {
  type: 'submessage';
  msg_type: string;
  message_id: number;
  submessage_id: number;
  sender_id: number;
  content: string;
}

export interface TypingUser {
  user_id: number;
  email: string;
}

/** "private" was renamed "direct" (FL 215). */
export interface TypingEvent extends EventBase {
  type: 'typing';
  op: 'start' | 'stop';
  message_type: 'direct' | 'stream';
  sender: TypingUser;
  /** Direct only; includes the sender. */
  recipients?: TypingUser[];
  /** Stream only. */
  stream_id?: number;
  topic?: string;
}

// ---------------------------------------------------------------------------------------------
// Subscriptions and channels

export interface SubscriptionAddEvent extends EventBase {
  type: 'subscription';
  op: 'add';
  subscriptions: Subscription[];
}

export interface SubscriptionRemoveEvent extends EventBase {
  type: 'subscription';
  op: 'remove';
  subscriptions: { stream_id: number; name: string }[];
}

/**
 * A personal setting changed. is_muted and in_home_view arrive as two events (one per property).
 * Clients must tolerate unknown properties.
 */
export interface SubscriptionUpdateEvent extends EventBase {
  type: 'subscription';
  op: 'update';
  stream_id: number;
  property: SubscriptionProperty | (string & {});
  value: boolean | number | string | null;
}

export interface SubscriptionPeerAddEvent extends EventBase {
  type: 'subscription';
  op: 'peer_add';
  stream_ids: number[];
  user_ids: number[];
}

/** Also sent before the realm_user deactivation event (FL 377). */
export interface SubscriptionPeerRemoveEvent extends EventBase {
  type: 'subscription';
  op: 'peer_remove';
  stream_ids: number[];
  user_ids: number[];
}

export type SubscriptionEvent =
  | SubscriptionAddEvent
  | SubscriptionRemoveEvent
  | SubscriptionUpdateEvent
  | SubscriptionPeerAddEvent
  | SubscriptionPeerRemoveEvent;

export interface StreamCreateEvent extends EventBase {
  type: 'stream';
  op: 'create';
  streams: Channel[];
}

export interface StreamDeleteEvent extends EventBase {
  type: 'stream';
  op: 'delete';
  stream_ids: number[];
  /** Deprecated. */
  streams?: { stream_id: number }[];
}

/**
 * One channel property changed. Extras: rendered_description when property is description;
 * history_public_to_subscribers and is_web_public when property is invite_only.
 */
export interface StreamUpdateEvent extends EventBase {
  type: 'stream';
  op: 'update';
  stream_id: number;
  name: string;
  property: keyof Channel | (string & {});
  value: boolean | number | string | null | GroupSettingValue;
  rendered_description?: string;
  history_public_to_subscribers?: boolean;
  is_web_public?: boolean;
}

export type StreamEvent = StreamCreateEvent | StreamDeleteEvent | StreamUpdateEvent;

// ---------------------------------------------------------------------------------------------
// Users

export interface RealmUserAddEvent extends EventBase {
  type: 'realm_user';
  op: 'add';
  /** May lack is_active (then active) and the other implicit fields (WireUser). */
  person: WireUser;
}

/** Only sent to guests who lose access to a user; deactivation is an update with is_active. */
export interface RealmUserRemoveEvent extends EventBase {
  type: 'realm_user';
  op: 'remove';
  person: { user_id: number; full_name?: string };
}

/** The forms of `person` in a realm_user update; exactly one change per event. */
export type RealmUserUpdatePerson =
  | { user_id: number; full_name: string }
  | {
      user_id: number;
      avatar_url: string | null;
      avatar_source: 'G' | 'J' | 'U';
      avatar_url_medium: string | null;
      avatar_version: number;
    }
  | { user_id: number; timezone: string; email?: string }
  | { user_id: number; bot_owner_id: number | null }
  | { user_id: number; role: UserRole }
  | { user_id: number; delivery_email: string | null }
  | {
      user_id: number;
      custom_profile_field: {
        id: number;
        value: string | null;
        rendered_value?: ProfileDataValue['rendered_value'];
      };
    }
  | { user_id: number; new_email: string }
  /** Deactivation (false) or reactivation (true). */
  | { user_id: number; is_active: boolean }
  /** An imported stub's first login. */
  | { user_id: number; is_imported_stub: false; date_joined: string };

export interface RealmUserUpdateEvent extends EventBase {
  type: 'realm_user';
  op: 'update';
  person: RealmUserUpdatePerson;
}

export type RealmUserEvent = RealmUserAddEvent | RealmUserRemoveEvent | RealmUserUpdateEvent;

/** The realm's custom profile fields changed: the full new list (documented; the local server
 * seeds its fields and does not send it). */
export interface CustomProfileFieldsEvent extends EventBase {
  type: 'custom_profile_fields';
  fields: CustomProfileField[];
}

/** The realm's custom emoji changed: the whole set again, by id (as register's `realm_emoji`). */
export interface RealmEmojiEvent extends EventBase {
  type: 'realm_emoji';
  op: 'update';
  realm_emoji: Record<
    string,
    {
      id: string;
      name: string;
      source_url: string;
      deactivated: boolean;
      author_id?: number | null;
    }
  >;
}

/** The realm's linkifiers changed: the full list in order (only with linkifier_url_template). */
export interface RealmLinkifiersEvent extends EventBase {
  type: 'realm_linkifiers';
  realm_linkifiers: RealmLinkifier[];
}

export interface RealmPlaygroundsEvent extends EventBase {
  type: 'realm_playgrounds';
  realm_playgrounds: RealmPlayground[];
}

/** Allowed e-mail domains: one added, changed (allow_subdomains) or removed. */
export type RealmDomainsEvent = EventBase & { type: 'realm_domains' } & (
    { op: 'add' | 'change'; realm_domain: RealmDomain } | { op: 'remove'; domain: string }
  );

/** Empty strings clear a field. */
export interface UserStatusEvent extends EventBase {
  type: 'user_status';
  user_id: number;
  status_text?: string;
  emoji_name?: string;
  emoji_code?: string;
  reaction_type?: ReactionType | '';
  /** Deprecated: !presence_enabled. */
  away?: boolean;
  /** The owner's clear-after time; a change without it drops it. */
  scheduled_end_time?: number;
}

/** A legacy per-client presence record, as presence events carry it. */
export interface LegacyClientPresence {
  client: string;
  status: 'active' | 'idle';
  timestamp: number;
  pushable?: boolean;
}

/**
 * A user came back online. The legacy shape (`presence` by client name, only "website" since FL178)
 * is what servers send by default; with the `simplified_presence_events` capability (FL419) the
 * event carries `presences` in the modern shape instead.
 */
export interface PresenceEvent extends EventBase {
  type: 'presence';
  user_id?: number;
  /** Deprecated; left out for slim_presence queues. */
  email?: string;
  server_timestamp: number;
  presence?: Record<string, LegacyClientPresence>;
  presences?: Record<string, ModernPresence>;
}

/** The whole list of users the current user has muted, after any change. */
export interface MutedUsersEvent extends EventBase {
  type: 'muted_users';
  muted_users: MutedUser[];
}

/** visibility_policy 0 means the setting was cleared. */
export interface UserTopicEvent extends EventBase {
  type: 'user_topic';
  stream_id: number;
  topic_name: string;
  last_updated: number;
  visibility_policy: VisibilityPolicy;
}

// ---------------------------------------------------------------------------------------------
// Drafts

export interface DraftsAddEvent extends EventBase {
  type: 'drafts';
  op: 'add';
  drafts: StoredDraft[];
}

export interface DraftsUpdateEvent extends EventBase {
  type: 'drafts';
  op: 'update';
  /** Replaces the draft with the same id. */
  draft: Draft & { id: number };
}

export interface DraftsRemoveEvent extends EventBase {
  type: 'drafts';
  op: 'remove';
  draft_id: number;
}

export type DraftsEvent = DraftsAddEvent | DraftsUpdateEvent | DraftsRemoveEvent;

export type ScheduledMessagesEvent = EventBase & { type: 'scheduled_messages' } & (
    | { op: 'add'; scheduled_messages: ScheduledMessage[] }
    | { op: 'update'; scheduled_message: ScheduledMessage }
    | { op: 'remove'; scheduled_message_id: number }
  );

/** Message reminders (FL399): one added when set, removed when deleted or delivered. */
export type RemindersEvent = EventBase & { type: 'reminders' } & (
    { op: 'add'; reminders: Reminder[] } | { op: 'remove'; reminder_id: number }
  );

// ---------------------------------------------------------------------------------------------
// Realm and settings

/** Clients should treat it as an update_dict with one key. */
export interface RealmUpdateEvent extends EventBase {
  type: 'realm';
  op: 'update';
  property: string;
  value: SettingValue | GroupSettingValue;
}

export interface RealmUpdateDictEvent extends EventBase {
  type: 'realm';
  op: 'update_dict';
  /** Deprecated, always "default". */
  property: string;
  /** Setting names WITHOUT the realm_ prefix of the register response (e.g. `name` for realm_name). */
  data: Record<string, unknown>;
}

export interface RealmDeactivatedEvent extends EventBase {
  type: 'realm';
  op: 'deactivated';
  realm_id: number;
}

export type RealmEvent = RealmUpdateEvent | RealmUpdateDictEvent | RealmDeactivatedEvent;

export interface RealmUserSettingsDefaultsEvent extends EventBase {
  type: 'realm_user_settings_defaults';
  op: 'update';
  property: string;
  value: SettingValue;
}

export interface UserSettingsUpdateEvent extends EventBase {
  type: 'user_settings';
  op: 'update';
  property: string;
  value: SettingValue;
  /** Only when property is default_language. */
  language_name?: string;
}

// ---------------------------------------------------------------------------------------------
// User groups

export interface UserGroupAddEvent extends EventBase {
  type: 'user_group';
  op: 'add';
  group: UserGroup;
}

export interface UserGroupUpdateEvent extends EventBase {
  type: 'user_group';
  op: 'update';
  group_id: number;
  data: Partial<
    Pick<
      UserGroup,
      | 'name'
      | 'description'
      | 'deactivated'
      | 'can_add_members_group'
      | 'can_join_group'
      | 'can_leave_group'
      | 'can_manage_group'
      | 'can_mention_group'
      | 'can_remove_members_group'
    >
  >;
}

export interface UserGroupMembersEvent extends EventBase {
  type: 'user_group';
  op: 'add_members' | 'remove_members';
  group_id: number;
  user_ids: number[];
}

export interface UserGroupSubgroupsEvent extends EventBase {
  type: 'user_group';
  op: 'add_subgroups' | 'remove_subgroups';
  group_id: number;
  direct_subgroup_ids: number[];
}

/** Sent on deactivation only to clients without include_deactivated_groups. */
export interface UserGroupRemoveEvent extends EventBase {
  type: 'user_group';
  op: 'remove';
  group_id: number;
}

export type UserGroupEvent =
  | UserGroupAddEvent
  | UserGroupUpdateEvent
  | UserGroupMembersEvent
  | UserGroupSubgroupsEvent
  | UserGroupRemoveEvent;

// ---------------------------------------------------------------------------------------------
// Bots and default channels (administration)

export interface RealmBotAddEvent extends EventBase {
  type: 'realm_bot';
  op: 'add';
  bot: RealmBot;
}

/** One or more fields of one bot changed (is_active on deactivation and reactivation). */
export interface RealmBotUpdateEvent extends EventBase {
  type: 'realm_bot';
  op: 'update';
  bot: Partial<RealmBot> & { user_id: number };
}

/** The bot left the recipient's list (`remove` is the deprecated form). */
export interface RealmBotDeleteEvent extends EventBase {
  type: 'realm_bot';
  op: 'delete' | 'remove';
  bot: { user_id: number };
}

export type RealmBotEvent = RealmBotAddEvent | RealmBotUpdateEvent | RealmBotDeleteEvent;

/** The realm's default channels, as ids (FL 330). */
export interface DefaultStreamsEvent extends EventBase {
  type: 'default_streams';
  default_streams: number[];
}

// ---------------------------------------------------------------------------------------------
// Uploads and other personal state

/** The user's uploads changed; remove carries only the id. */
export interface AttachmentEvent extends EventBase {
  type: 'attachment';
  op: 'add' | 'update' | 'remove';
  attachment: Attachment | { id: number };
  /** Bytes used by the realm's uploads after the change. */
  upload_space_used: number;
}

/** The user's alert words changed (the full new list). */
export interface AlertWordsEvent extends EventBase {
  type: 'alert_words';
  alert_words: string[];
}

/** Whether the user has completed the video provider's OAuth (chat-api §4.27's has_videoprovider_token). */
export interface HasZoomTokenEvent extends EventBase {
  type: 'has_zoom_token';
  value: boolean;
}

// ---------------------------------------------------------------------------------------------
// Queue control

/** Sent after a blocking wait with no events; only advances last_event_id. */
export interface HeartbeatEvent extends EventBase {
  type: 'heartbeat';
}

/** The event server restarted; clients that re-register because of it spread it over >= 5 minutes. */
export interface RestartEvent extends EventBase {
  type: 'restart';
  zulip_version: string;
  zulip_merge_base?: string;
  zulip_feature_level: number;
  server_generation: number;
}

/** Every event the local realm server emits. */
export type ServerEvent =
  | MessageEvent
  | UpdateMessageEvent
  | DeleteMessageEvent
  | UpdateMessageFlagsEvent
  | ReactionEvent
  | SubmessageEvent
  | SubscriptionEvent
  | StreamEvent
  | RealmUserEvent
  | CustomProfileFieldsEvent
  | RealmEmojiEvent
  | RealmLinkifiersEvent
  | RealmPlaygroundsEvent
  | RealmDomainsEvent
  | UserStatusEvent
  | PresenceEvent
  | MutedUsersEvent
  | UserTopicEvent
  | DraftsEvent
  | ScheduledMessagesEvent
  | RemindersEvent
  | TypingEvent
  | RealmEvent
  | RealmUserSettingsDefaultsEvent
  | UserSettingsUpdateEvent
  | UserGroupEvent
  | RealmBotEvent
  | DefaultStreamsEvent
  | AttachmentEvent
  | AlertWordsEvent
  | HasZoomTokenEvent
  | HeartbeatEvent
  | RestartEvent;

export type ServerEventType = ServerEvent['type'];

/** GET /events success body. */
export interface GetEventsResponse {
  result: 'success';
  msg: string;
  events: ServerEvent[];
  queue_id: string;
}
