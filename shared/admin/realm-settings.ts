// Rules for the organization settings PATCH /realm accepts, shared by the local server (which
// enforces them) and the settings screens (which check a change before sending it). Values and
// limits are the public server's.

/** Realm.MAX_REALM_NAME_LENGTH and MAX_REALM_DESCRIPTION_LENGTH on the public server. */
export const REALM_NAME_MAX_LENGTH = 40;
export const REALM_DESCRIPTION_MAX_LENGTH = 1000;
/** The public server caps default_code_block_language at its lexer-name length. */
export const CODE_BLOCK_LANGUAGE_MAX_LENGTH = 40;

/** Languages an organization may choose (a subset of the public server's translations). */
export const REALM_LANGUAGES: ReadonlyArray<{ code: string; name: string }> = [
  { code: 'ar', name: 'العربيّة' },
  { code: 'bg', name: 'Български' },
  { code: 'ca', name: 'Català' },
  { code: 'cs', name: 'Čeština' },
  { code: 'da', name: 'Dansk' },
  { code: 'de', name: 'Deutsch' },
  { code: 'el', name: 'Ελληνικά' },
  { code: 'en', name: 'English' },
  { code: 'en_GB', name: 'British English' },
  { code: 'es', name: 'Español' },
  { code: 'fa', name: 'فارسی' },
  { code: 'fi', name: 'Suomi' },
  { code: 'fr', name: 'Français' },
  { code: 'hi', name: 'हिंदी' },
  { code: 'hu', name: 'Magyar' },
  { code: 'id', name: 'Bahasa Indonesia' },
  { code: 'it', name: 'Italiano' },
  { code: 'ja', name: '日本語' },
  { code: 'ko', name: '한국어' },
  { code: 'nl', name: 'Nederlands' },
  { code: 'no', name: 'Norsk' },
  { code: 'pl', name: 'Polski' },
  { code: 'pt', name: 'Português' },
  { code: 'pt_BR', name: 'Português Brasileiro' },
  { code: 'ro', name: 'Română' },
  { code: 'ru', name: 'Русский' },
  { code: 'sv', name: 'Svenska' },
  { code: 'ta', name: 'தமிழ்' },
  { code: 'tr', name: 'Türkçe' },
  { code: 'uk', name: 'Українська' },
  { code: 'vi', name: 'Tiếng Việt' },
  { code: 'zh_Hans', name: '简体中文' },
  { code: 'zh_Hant', name: '繁體中文' },
];

/**
 * register's realm_available_video_chat_providers. The local server has no Zoom or BigBlueButton
 * integration, so, as a public server without them, it offers none and Jitsi Meet.
 */
export const VIDEO_CHAT_PROVIDERS = {
  disabled: { name: 'None', id: 0 },
  jitsi_meet: { name: 'Jitsi Meet', id: 1 },
} as const;

export const EDIT_HISTORY_POLICIES = ['all', 'moves', 'none'] as const;

/** Time-limit settings: a positive number of seconds, or "unlimited" (stored and sent as null). */
export const TIME_LIMIT_SETTINGS = [
  'message_content_edit_limit_seconds',
  'message_content_delete_limit_seconds',
  'move_messages_within_stream_limit_seconds',
  'move_messages_between_streams_limit_seconds',
] as const;

/** Boolean organization settings PATCH /realm takes (besides the owner-only ones below). */
export const BOOLEAN_REALM_SETTINGS = [
  'allow_message_editing',
  'enable_read_receipts',
  'send_welcome_emails',
  'digest_emails_enabled',
  'inline_image_preview',
  'inline_url_embed_preview',
  'message_content_allowed_in_email_notifications',
  'name_changes_disabled',
  'email_changes_disabled',
  'avatar_changes_disabled',
  'require_unique_names',
  'enable_guest_user_indicator',
  'enable_guest_user_dm_warning',
] as const;

/** Non-group settings only owners may change (the public server's update_realm). */
export const OWNER_ONLY_REALM_SETTINGS = [
  'message_retention_days',
  'invite_required',
  'emails_restricted_to_domains',
  'disallow_disposable_email_addresses',
  'waiting_period_threshold',
] as const;

/** Group settings only owners may change. */
export const OWNER_ONLY_GROUP_SETTINGS = [
  'can_create_web_public_channel_group',
  'can_manage_all_groups',
  'can_manage_billing_group',
  'create_multiuse_invite_group',
  'can_create_groups',
  'can_invite_users_group',
] as const;

export const DIGEST_WEEKDAYS = [0, 1, 2, 3, 4, 5, 6] as const;

/** Why a name is refused, or null. */
export function realmNameProblem(name: string): string | null {
  const trimmed = name.trim();
  if (trimmed === '') return "Organization name can't be empty.";
  if ([...trimmed].length > REALM_NAME_MAX_LENGTH) {
    return `Organization name is too long (at most ${REALM_NAME_MAX_LENGTH} characters).`;
  }
  return null;
}

export function realmDescriptionProblem(description: string): string | null {
  if ([...description].length > REALM_DESCRIPTION_MAX_LENGTH) {
    return `Organization description is too long (at most ${REALM_DESCRIPTION_MAX_LENGTH} characters).`;
  }
  return null;
}
