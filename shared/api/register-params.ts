// The register and the pages of messages main asks of every server (electron/events/event-loop.ts,
// electron/accounts/session.ts): in shared/ because the build asks the same of the demo realm's
// template (server/seed/template.ts), whose answers a first launch's cache starts from
// (docs/first-screen.md); a seed asked otherwise would not be what main would have.
import type { GetMessagesParams, RegisterParams } from './endpoints';
import type { NarrowTerm } from '../narrow';

/** The capabilities Tributary's store handles (see renderer/store). */
export const CLIENT_CAPABILITIES = {
  notification_settings_null: true,
  bulk_message_deletion: true,
  user_avatar_url_field_optional: false,
  stream_typing_notifications: true,
  user_settings_object: true,
  empty_topic_name: true,
  archived_channels: true,
  include_deactivated_groups: true,
  user_list_incomplete: true,
  // Settings > Organization lists and edits linkifiers; without it the server sends none.
  linkifier_url_template: true,
} as const;

/**
 * The state register sends back: every kind the public server (zerver/lib/events.py) and the local
 * realm server know, but `stream`. Its `streams` lists each channel the user can see again, as
 * subscriptions, unsubscribed and never_subscribed already do (renderer/store/slices/channels.ts
 * reads those): 870 KB of a large organization's 7.5 MB, built, sent, parsed and stored for
 * nothing. The events themselves are not filtered (no event_types): channel events still come.
 * A kind a server does not know is ignored by it; one a newer server adds is not fetched, as
 * the store would not read it.
 */
export const FETCHED_STATE_TYPES: readonly string[] = [
  'alert_words',
  'custom_profile_fields',
  'default_stream_groups',
  'default_streams',
  'drafts',
  'giphy',
  'message',
  'muted_topics',
  'muted_users',
  'navigation_views',
  'onboarding_steps',
  'presence',
  'realm',
  'realm_billing',
  'realm_bot',
  'realm_domains',
  'realm_embedded_bots',
  'realm_emoji',
  'realm_filters',
  'realm_incoming_webhook_bots',
  'realm_linkifiers',
  'realm_playgrounds',
  'realm_user',
  'realm_user_groups',
  'realm_user_settings_defaults',
  'recent_private_conversations',
  'reminders',
  'saved_snippets',
  'scheduled_messages',
  'starred_messages',
  'stop_words',
  'subscription',
  'update_display_settings',
  'update_global_notifications',
  'update_message_flags',
  'user_settings',
  'user_status',
  'user_topic',
  'video_calls',
];

export const DEFAULT_REGISTER_PARAMS: RegisterParams = {
  fetch_event_types: [...FETCHED_STATE_TYPES],
  apply_markdown: true,
  // The server leaves out the URL of every avatar hosted by the external avatar service (a
  // "client computes it" null): 0.87 MB of a 10,000-user organization's 6.67 MB register. The
  // page shows only avatars the realm serves (renderer/bridge/media.ts refuses other hosts), so
  // those users showed initials before and still do; uploaded avatars still come as URLs.
  client_gravatar: true,
  include_subscribers: true,
  slim_presence: true,
  client_capabilities: CLIENT_CAPABILITIES,
};

/**
 * The state kind that carries the people (`realm_users`, `realm_non_active_users`,
 * `cross_realm_bots` and the user's own fields): 4.2 MB of a 10,000-user organization's 5.8 MB
 * register. A session with nothing to show yet (a first sign-in) registers without it and asks for
 * it right after (electron/accounts/session.ts), so the first screen does not wait for the people.
 */
export const PEOPLE_STATE_TYPE = 'realm_user';

/** The register of a first sign-in: everything but the people. */
export const REGISTER_WITHOUT_PEOPLE_PARAMS: RegisterParams = {
  ...DEFAULT_REGISTER_PARAMS,
  fetch_event_types: FETCHED_STATE_TYPES.filter((type) => type !== PEOPLE_STATE_TYPE),
};

/**
 * The people, asked after that register: a register of `realm_user` alone (its queue deleted at
 * once), so the lists come in the register's own shape on every server, with the cross-realm bots
 * and the user's own fields that `GET /users` lacks.
 */
export const PEOPLE_REGISTER_PARAMS: RegisterParams = {
  ...DEFAULT_REGISTER_PARAMS,
  fetch_event_types: [PEOPLE_STATE_TYPE],
  event_types: [PEOPLE_STATE_TYPE],
};

/** A page of messages as main's session asks it: rendered, with the server's own avatar URLs. */
export function messagesParams(
  narrow: NarrowTerm[],
  request: {
    anchor: GetMessagesParams['anchor'];
    numBefore: number;
    numAfter: number;
    includeAnchor?: boolean;
  },
): GetMessagesParams {
  return {
    anchor: request.anchor,
    num_before: request.numBefore,
    num_after: request.numAfter,
    narrow,
    include_anchor: request.includeAnchor,
    apply_markdown: true,
    client_gravatar: false,
    allow_empty_topic_name: true,
  };
}
