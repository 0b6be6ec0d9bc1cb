// PATCH /settings (the caller's own settings, plus full_name, timezone and password) and
// PATCH /realm/user_settings_defaults (spec 4.8, administrators; new users only). Emits
// user_settings / realm_user_settings_defaults update events, and realm_user update events for
// full_name and timezone.
import * as z from 'zod';
import type { ResourceModule } from '../module';
import type { RealmContext } from '../../realm/context';
import { p, type Param } from '../../http/params';
import { badRequest, missingParam } from '../../http/errors';
import { hashPasswordAsync, verifyPassword } from '../../http/auth';
import { LIMITS } from '../../config';
import { isAdmin } from '../../realm/roles';
import { requireAdmin } from '../../realm/permissions';
import { userSettings } from '../../realm/accounts';
import { presenceEnabledChanged } from './presence';
import { checkFullName } from '../../realm/text-rules';
import { parseJson } from '../../db';
import { deleteAllDrafts } from '../unsent/drafts';
import { activeUserIds } from './users-store';
import { realmSetting } from '../realm/realm-settings';

const BOOLEAN_SETTINGS = [
  'starred_message_counts',
  'receives_typing_notifications',
  'web_suggest_update_timezone',
  'fluid_layout_width',
  'high_contrast_mode',
  'enable_drafts_synchronization',
  'translate_emoticons',
  'display_emoji_reaction_users',
  'web_escape_navigates_to_home_view',
  'left_side_userlist',
  'hide_ai_features',
  'web_inbox_show_channel_folders',
  'web_left_sidebar_show_channel_folders',
  'web_left_sidebar_unreads_count_summary',
  'enable_stream_desktop_notifications',
  'enable_stream_email_notifications',
  'enable_stream_push_notifications',
  'enable_stream_audible_notifications',
  'enable_desktop_notifications',
  'enable_sounds',
  'enable_followed_topic_desktop_notifications',
  'enable_followed_topic_email_notifications',
  'enable_followed_topic_push_notifications',
  'enable_followed_topic_audible_notifications',
  'enable_followed_topic_wildcard_mentions_notify',
  'enable_offline_email_notifications',
  'enable_offline_push_notifications',
  'enable_online_push_notifications',
  'enable_digest_emails',
  'enable_login_emails',
  'enable_marketing_emails',
  'message_content_in_email_notifications',
  'pm_content_in_desktop_notifications',
  'wildcard_mentions_notify',
  'enter_sends',
  'twenty_four_hour_time',
  'web_navigate_to_sent_message',
  'presence_enabled',
  'send_private_typing_notifications',
  'send_stream_typing_notifications',
  'send_read_receipts',
  'allow_private_data_export',
  'automatically_follow_topics_where_mentioned',
] as const;

const intIn = (...values: number[]) =>
  p.json(
    z
      .number()
      .int()
      .refine((v) => values.includes(v), `must be one of ${values.join(', ')}`),
  );
const intRange = (min: number, max: number) => p.json(z.number().int().min(min).max(max));

/** Every settable user setting with its validation (spec 4.8 and api-notes §10). */
const SETTING_PARAMS: Record<string, Param<unknown, false>> = {
  ...Object.fromEntries(BOOLEAN_SETTINGS.map((name) => [name, p.bool().optional()])),
  web_mark_read_on_scroll_policy: intIn(1, 2, 3).optional(),
  web_channel_default_view: intIn(1, 2, 3, 4).optional(),
  color_scheme: intIn(1, 2, 3).optional(),
  demote_inactive_streams: intIn(1, 2, 3).optional(),
  user_list_style: intIn(1, 2, 3).optional(),
  web_stream_unreads_count_display_policy: intIn(1, 2, 3).optional(),
  // Four values since FL 227: all unread, DMs + mentions + followed topics, DMs + mentions, none.
  desktop_icon_count_display: intIn(1, 2, 3, 4).optional(),
  realm_name_in_email_notifications_policy: intIn(1, 2, 3).optional(),
  automatically_follow_topics_policy: intIn(1, 2, 3, 4).optional(),
  automatically_unmute_topics_in_muted_streams_policy: intIn(1, 2, 3, 4).optional(),
  email_address_visibility: intIn(1, 2, 3, 4, 5).optional(),
  web_font_size_px: intRange(12, 24).optional(),
  web_line_height_percent: intRange(122, 158).optional(),
  email_notifications_batching_period_seconds: intRange(120, 7 * 86400).optional(),
  // `recent` is the spec's spelling, `recent_topics` the public server's; kept as sent.
  web_home_view: p.enumOf(['recent', 'recent_topics', 'inbox', 'all_messages']).optional(),
  emojiset: p.enumOf(['google', 'twitter', 'text']).optional(),
  web_animate_image_previews: p.enumOf(['always', 'on_hover', 'never']).optional(),
  // Plain strings on the wire; checked in changedSettings.
  notification_sound: p.string().optional(),
  default_language: p.string().optional(),
} as Record<string, Param<unknown, false>>;

/**
 * What PATCH /realm/user_settings_defaults takes: the public server leaves out the security and
 * marketing emails, data export and language (new users pick or inherit those); they come back in
 * ignored_parameters_unsupported.
 */
const NOT_REALM_DEFAULTS = new Set([
  'enable_login_emails',
  'enable_marketing_emails',
  'allow_private_data_export',
  'default_language',
]);
const DEFAULTS_PARAMS = Object.fromEntries(
  Object.entries(SETTING_PARAMS).filter(([name]) => !NOT_REALM_DEFAULTS.has(name)),
);

function changedSettings(
  params: Record<string, unknown>,
  current: Record<string, unknown>,
): Array<[string, unknown]> {
  const changes: Array<[string, unknown]> = [];
  for (const name of Object.keys(SETTING_PARAMS)) {
    const value = params[name];
    if (value === undefined) continue;
    if (
      name === 'notification_sound' &&
      (typeof value !== 'string' || value.length > 80 || value === '')
    ) {
      throw badRequest('Invalid notification sound');
    }
    if (
      name === 'default_language' &&
      (typeof value !== 'string' || !/^[a-zA-Z_-]{2,10}$/.test(value))
    ) {
      throw badRequest('Invalid default_language');
    }
    if (current[name] !== value) changes.push([name, value]);
  }
  return changes;
}

function saveUserSettings(
  ctx: RealmContext,
  userId: number,
  settings: Record<string, unknown>,
): void {
  ctx.db
    .prepare('UPDATE user_settings SET settings = ? WHERE user_id = ?')
    .run(JSON.stringify(settings), userId);
}

export const settingsResource: ResourceModule = {
  name: 'settings',
  routes(api, ctx) {
    api.patch(
      '/settings',
      {
        params: {
          ...SETTING_PARAMS,
          full_name: p.string().optional(),
          timezone: p.string().optional(),
          email: p.string().optional(),
          old_password: p.string().optional(),
          new_password: p.string().optional(),
        },
      },
      async ({ user, params, meter }) => {
        const all = params as Record<string, unknown>;
        if (params.email !== undefined)
          throw badRequest('Email address changes are not supported by this server');
        let fullName: string | undefined;
        // As on the public server, a member's name change in a realm that disables them is ignored
        // without an error (its web app offers no way to make one).
        const nameLocked =
          realmSetting<boolean>(ctx.db, 'name_changes_disabled', false) && !isAdmin(user.role);
        if (params.full_name !== undefined && !nameLocked) {
          fullName = checkFullName(params.full_name);
        }
        if (
          params.timezone !== undefined &&
          params.timezone !== '' &&
          !isTimeZone(params.timezone)
        ) {
          throw badRequest(`'${params.timezone}' is not a valid time zone`);
        }
        let passwordHash: string | undefined;
        if (params.new_password !== undefined) {
          if (params.old_password === undefined) throw missingParam('old_password');
          const row = ctx.db
            .prepare<[number], { password_hash: string | null }>(
              'SELECT password_hash FROM users WHERE id = ?',
            )
            .get(user.id);
          const stored = row?.password_hash ?? null;
          if (!(await meter.offLoop(verifyPassword(params.old_password, stored)))) {
            throw badRequest('Wrong password!');
          }
          const length = [...params.new_password].length;
          if (length < LIMITS.passwordMinLength || length > LIMITS.passwordMaxLength) {
            throw badRequest('The password is too weak.');
          }
          passwordHash = await meter.offLoop(hashPasswordAsync(params.new_password));
        }
        const current = userSettings(ctx.db, user.id);
        const changes = changedSettings(all, current);
        const next = { ...current, ...Object.fromEntries(changes) };
        ctx.db.transaction(() => {
          if (changes.length > 0) saveUserSettings(ctx, user.id, next);
          if (fullName !== undefined)
            ctx.db.prepare('UPDATE users SET full_name = ? WHERE id = ?').run(fullName, user.id);
          if (params.timezone !== undefined) {
            ctx.db
              .prepare('UPDATE users SET timezone = ? WHERE id = ?')
              .run(params.timezone, user.id);
          }
          if (passwordHash)
            ctx.db
              .prepare('UPDATE users SET password_hash = ? WHERE id = ?')
              .run(passwordHash, user.id);
        })();

        for (const [property, value] of changes) {
          const event: Record<string, unknown> & { type: string } = {
            type: 'user_settings',
            op: 'update',
            property,
            value,
          };
          if (property === 'default_language') event.language_name = String(value);
          ctx.events.send([user.id], event);
        }
        const presenceEnabled = changes.find(([name]) => name === 'presence_enabled');
        if (presenceEnabled) presenceEnabledChanged(ctx, user.id, presenceEnabled[1] === true);
        // Turning synchronization off deletes the server's copies (spec 4.8).
        if (
          changes.some(
            ([name, value]) => name === 'enable_drafts_synchronization' && value === false,
          )
        ) {
          deleteAllDrafts(ctx, user.id);
        }
        if (fullName !== undefined) {
          ctx.events.send(activeUserIds(ctx.db), {
            type: 'realm_user',
            op: 'update',
            person: { user_id: user.id, full_name: fullName },
          });
        }
        if (params.timezone !== undefined) {
          ctx.events.send(activeUserIds(ctx.db), {
            type: 'realm_user',
            op: 'update',
            person: { user_id: user.id, timezone: params.timezone, email: user.email },
          });
        }
        return fullName !== undefined ? { full_name: fullName } : {};
      },
    );

    api.patch('/realm/user_settings_defaults', { params: DEFAULTS_PARAMS }, ({ user, params }) => {
      requireAdmin(user);
      const row = ctx.db
        .prepare<[], { settings: string }>(
          'SELECT settings FROM realm_user_settings_defaults WHERE id = 1',
        )
        .get();
      const current = parseJson<Record<string, unknown>>(row?.settings, {});
      const changes = changedSettings(params as Record<string, unknown>, current);
      if (changes.length === 0) return;
      ctx.db
        .prepare('UPDATE realm_user_settings_defaults SET settings = ? WHERE id = 1')
        .run(JSON.stringify({ ...current, ...Object.fromEntries(changes) }));
      const everyone = activeUserIds(ctx.db);
      for (const [property, value] of changes) {
        ctx.events.send(everyone, {
          type: 'realm_user_settings_defaults',
          op: 'update',
          property,
          value,
        });
      }
    });
  },
};

function isTimeZone(name: string): boolean {
  try {
    new Intl.DateTimeFormat('en', { timeZone: name });
    return true;
  } catch {
    return false;
  }
}
