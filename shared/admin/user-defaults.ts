// Default settings for new users (PATCH /realm/user_settings_defaults, spec 4.8, api-notes §10):
// every setting with its allowed values, grouped as the public web app's organization panel
// groups them. The IPC schema and the screen are both built from this table, so a value outside
// it is refused before it is sent; the server checks the same ranges.
import * as z from 'zod';

export type DefaultsGroup = 'display' | 'notifications' | 'behaviour';

interface Base {
  name: string;
  label: string;
  group: DefaultsGroup;
}
export type DefaultSetting =
  | (Base & { kind: 'bool' })
  | (Base & { kind: 'int-choice'; options: ReadonlyArray<[number, string]> })
  | (Base & { kind: 'string-choice'; options: ReadonlyArray<[string, string]> })
  | (Base & { kind: 'range'; min: number; max: number; unit: string });

const bool = (name: string, label: string, group: DefaultsGroup): DefaultSetting => ({
  name,
  label,
  group,
  kind: 'bool',
});

/** The public server's notification sounds (register available_notification_sounds) and none. */
export const NOTIFICATION_SOUNDS = [
  'none',
  'ascend',
  'beep_boop',
  'bink',
  'bright',
  'chime',
  'ding',
  'down',
  'dutdut',
  'flute',
  'friendly',
  'pan',
  'simple',
  'subtle',
  'swish',
  'up',
  'wood block',
  'zing',
  'zulip',
] as const;

/** automatically_follow_topics_policy and automatically_unmute_topics_in_muted_streams_policy. */
const TOPIC_POLICY_OPTIONS: ReadonlyArray<[number, string]> = [
  [1, 'Topics the user participates in'],
  [2, 'Topics the user sends a message to'],
  [3, 'Topics the user starts'],
  [4, 'Never'],
];

export const USER_DEFAULT_SETTINGS: readonly DefaultSetting[] = [
  // Display
  {
    name: 'color_scheme',
    label: 'Theme',
    group: 'display',
    kind: 'int-choice',
    options: [
      [1, 'Automatic (follows system settings)'],
      [3, 'Light'],
      [2, 'Dark'],
    ],
  },
  {
    name: 'web_font_size_px',
    label: 'Message-area font size (px)',
    group: 'display',
    kind: 'range',
    min: 12,
    max: 24,
    unit: 'px',
  },
  {
    name: 'web_line_height_percent',
    label: 'Message-area line height (%)',
    group: 'display',
    kind: 'range',
    min: 122,
    max: 158,
    unit: '%',
  },
  {
    name: 'emojiset',
    label: 'Emoji theme',
    group: 'display',
    kind: 'string-choice',
    options: [
      ['google', 'Google'],
      ['twitter', 'Twitter'],
      ['text', 'Plain text'],
    ],
  },
  {
    name: 'user_list_style',
    label: 'User list style',
    group: 'display',
    kind: 'int-choice',
    options: [
      [1, 'Compact'],
      [2, 'Show status text'],
      [3, 'Show avatar'],
    ],
  },
  {
    name: 'demote_inactive_streams',
    label: 'Demote inactive channels',
    group: 'display',
    kind: 'int-choice',
    options: [
      [1, 'Automatic'],
      [2, 'Always'],
      [3, 'Never'],
    ],
  },
  {
    name: 'web_stream_unreads_count_display_policy',
    label: 'Show unread counts for',
    group: 'display',
    kind: 'int-choice',
    options: [
      [1, 'All channels'],
      [2, 'Unmuted channels and topics'],
      [3, 'No channels'],
    ],
  },
  {
    name: 'web_animate_image_previews',
    label: 'Play animated images',
    group: 'display',
    kind: 'string-choice',
    options: [
      ['always', 'Always'],
      ['on_hover', 'On hover'],
      ['never', 'Only in the image viewer'],
    ],
  },
  bool('starred_message_counts', 'Show counts for starred messages', 'display'),
  bool('fluid_layout_width', 'Use full width on wide screens', 'display'),
  bool('high_contrast_mode', 'High contrast mode', 'display'),
  bool(
    'display_emoji_reaction_users',
    'Display names of reacting users when few users have reacted',
    'display',
  ),
  bool('translate_emoticons', 'Convert emoticons before sending (:) becomes :smile:)', 'display'),
  bool('left_side_userlist', 'Show user list on left sidebar in narrow windows', 'display'),
  bool('twenty_four_hour_time', 'Use 24-hour time', 'display'),
  bool('hide_ai_features', 'Hide AI features', 'display'),
  bool('web_inbox_show_channel_folders', 'Show channel folders in the inbox', 'display'),
  bool(
    'web_left_sidebar_show_channel_folders',
    'Show channel folders in the left sidebar',
    'display',
  ),
  bool(
    'web_left_sidebar_unreads_count_summary',
    'Show unread count summary in the left sidebar',
    'display',
  ),

  // Notifications
  bool(
    'enable_stream_desktop_notifications',
    'Channel messages: desktop notifications',
    'notifications',
  ),
  bool(
    'enable_stream_audible_notifications',
    'Channel messages: audible desktop notifications',
    'notifications',
  ),
  bool(
    'enable_stream_push_notifications',
    'Channel messages: mobile notifications',
    'notifications',
  ),
  bool(
    'enable_stream_email_notifications',
    'Channel messages: email notifications',
    'notifications',
  ),
  bool(
    'enable_followed_topic_desktop_notifications',
    'Followed topics: desktop notifications',
    'notifications',
  ),
  bool(
    'enable_followed_topic_audible_notifications',
    'Followed topics: audible desktop notifications',
    'notifications',
  ),
  bool(
    'enable_followed_topic_push_notifications',
    'Followed topics: mobile notifications',
    'notifications',
  ),
  bool(
    'enable_followed_topic_email_notifications',
    'Followed topics: email notifications',
    'notifications',
  ),
  bool(
    'enable_followed_topic_wildcard_mentions_notify',
    'Followed topics: notify for @all mentions',
    'notifications',
  ),
  bool(
    'enable_desktop_notifications',
    'DMs, mentions and alerts: desktop notifications',
    'notifications',
  ),
  bool('enable_sounds', 'DMs, mentions and alerts: audible desktop notifications', 'notifications'),
  bool(
    'enable_offline_push_notifications',
    'DMs, mentions and alerts: mobile notifications',
    'notifications',
  ),
  bool(
    'enable_offline_email_notifications',
    'DMs, mentions and alerts: email notifications',
    'notifications',
  ),
  bool(
    'wildcard_mentions_notify',
    'Notify for @all, @everyone and @channel mentions',
    'notifications',
  ),
  bool(
    'enable_online_push_notifications',
    'Send mobile notifications even when active on desktop',
    'notifications',
  ),
  bool(
    'pm_content_in_desktop_notifications',
    'Include content of direct messages in desktop notifications',
    'notifications',
  ),
  bool(
    'message_content_in_email_notifications',
    'Include message content in message notification emails',
    'notifications',
  ),
  bool('enable_digest_emails', 'Send digest emails when the user is away', 'notifications'),
  {
    name: 'notification_sound',
    label: 'Notification sound',
    group: 'notifications',
    kind: 'string-choice',
    options: NOTIFICATION_SOUNDS.map((s) => [s, s === 'none' ? 'None' : s]),
  },
  {
    name: 'email_notifications_batching_period_seconds',
    label: 'Delay before sending message notification emails (seconds)',
    group: 'notifications',
    kind: 'range',
    min: 120,
    max: 7 * 86400,
    unit: 's',
  },
  {
    name: 'desktop_icon_count_display',
    label: 'Unread count badge',
    group: 'notifications',
    kind: 'int-choice',
    options: [
      [1, 'All unread messages'],
      [2, 'DMs, mentions, and followed topics'],
      [3, 'None'],
    ],
  },
  {
    name: 'realm_name_in_email_notifications_policy',
    label: 'Include organization name in subject of message notification emails',
    group: 'notifications',
    kind: 'int-choice',
    options: [
      [1, 'Automatic'],
      [2, 'Always'],
      [3, 'Never'],
    ],
  },

  // Behaviour: navigation, topics, compose and privacy
  {
    name: 'web_home_view',
    label: 'Home view',
    group: 'behaviour',
    kind: 'string-choice',
    options: [
      ['inbox', 'Inbox'],
      ['recent_topics', 'Recent conversations'],
      ['all_messages', 'Combined feed'],
    ],
  },
  {
    name: 'web_channel_default_view',
    label: 'Channel links in the left sidebar go to',
    group: 'behaviour',
    kind: 'int-choice',
    options: [
      [1, 'Top topic in the channel'],
      [4, 'Top unread topic in the channel'],
      [2, 'Channel feed'],
      [3, 'List of topics'],
    ],
  },
  {
    name: 'web_mark_read_on_scroll_policy',
    label: 'Automatically mark messages as read',
    group: 'behaviour',
    kind: 'int-choice',
    options: [
      [1, 'Always'],
      [2, 'Only in conversation views'],
      [3, 'Never'],
    ],
  },
  {
    name: 'automatically_follow_topics_policy',
    label: 'Automatically follow topics',
    group: 'behaviour',
    kind: 'int-choice',
    options: TOPIC_POLICY_OPTIONS,
  },
  {
    name: 'automatically_unmute_topics_in_muted_streams_policy',
    label: 'Automatically unmute topics in muted channels',
    group: 'behaviour',
    kind: 'int-choice',
    options: TOPIC_POLICY_OPTIONS,
  },
  {
    name: 'email_address_visibility',
    label: 'Who can see the email address',
    group: 'behaviour',
    kind: 'int-choice',
    options: [
      [1, 'Admins, moderators, members and guests'],
      [2, 'Admins, moderators and members'],
      [5, 'Admins and moderators'],
      [3, 'Admins only'],
      [4, 'Nobody'],
    ],
  },
  bool(
    'automatically_follow_topics_where_mentioned',
    'Automatically follow topics where the user is mentioned',
    'behaviour',
  ),
  bool('web_escape_navigates_to_home_view', 'Escape key navigates to home view', 'behaviour'),
  bool(
    'web_navigate_to_sent_message',
    'Go to the conversation after sending a message',
    'behaviour',
  ),
  bool('web_suggest_update_timezone', "Offer to update to the computer's time zone", 'behaviour'),
  bool('enter_sends', 'Enter sends the message', 'behaviour'),
  bool('enable_drafts_synchronization', 'Synchronize drafts', 'behaviour'),
  bool('receives_typing_notifications', 'Show when other users are typing', 'behaviour'),
  bool(
    'send_stream_typing_notifications',
    'Let recipients see when the user is typing channel messages',
    'behaviour',
  ),
  bool(
    'send_private_typing_notifications',
    'Let recipients see when the user is typing direct messages',
    'behaviour',
  ),
  bool('send_read_receipts', 'Let others see when the user has read messages', 'behaviour'),
  bool('presence_enabled', 'Display availability to other users', 'behaviour'),
];

export const DEFAULTS_GROUP_TITLES: Record<DefaultsGroup, string> = {
  display: 'Display settings',
  notifications: 'Notifications',
  behaviour: 'Navigation, topics and privacy',
};

function schemaOf(setting: DefaultSetting): z.ZodType {
  switch (setting.kind) {
    case 'bool':
      return z.boolean();
    case 'range':
      return z.number().int().min(setting.min).max(setting.max);
    case 'int-choice':
      return z.union(
        setting.options.map(([v]) => z.literal(v)) as unknown as [
          z.ZodLiteral<number>,
          z.ZodLiteral<number>,
        ],
      );
    case 'string-choice':
      return z.enum(setting.options.map(([v]) => v) as [string, ...string[]]);
  }
}

/** Changes to the defaults: only settings of the table, each within its allowed values. */
export const userDefaultsChanges = z
  .strictObject(
    Object.fromEntries(USER_DEFAULT_SETTINGS.map((s) => [s.name, schemaOf(s).optional()])),
  )
  .refine((changes) => Object.keys(changes).length > 0, 'no setting to change');

/** Why a value is refused for a setting, or null. */
export function defaultValueProblem(setting: DefaultSetting, value: unknown): string | null {
  if (schemaOf(setting).safeParse(value).success) return null;
  if (setting.kind === 'range') {
    return `${setting.label}: between ${setting.min} and ${setting.max}`;
  }
  return `${setting.label}: not an allowed value`;
}

/**
 * The public app's notification table: for each kind of message (rows), whether it notifies on
 * the desktop, with a sound, on mobile and by email (columns). Cells are settings of the table.
 */
export const NOTIFICATION_MATRIX: {
  columns: readonly string[];
  rows: ReadonlyArray<[string, readonly string[]]>;
} = {
  columns: ['Desktop', 'Audible', 'Mobile', 'Email'],
  rows: [
    [
      'Channels',
      [
        'enable_stream_desktop_notifications',
        'enable_stream_audible_notifications',
        'enable_stream_push_notifications',
        'enable_stream_email_notifications',
      ],
    ],
    [
      'DMs, mentions, and alerts',
      [
        'enable_desktop_notifications',
        'enable_sounds',
        'enable_offline_push_notifications',
        'enable_offline_email_notifications',
      ],
    ],
    [
      'Followed topics',
      [
        'enable_followed_topic_desktop_notifications',
        'enable_followed_topic_audible_notifications',
        'enable_followed_topic_push_notifications',
        'enable_followed_topic_email_notifications',
      ],
    ],
  ],
};
