// The realm row and its realm_* settings in POST /register.
import type { Db } from '../../db';
import { parseJson } from '../../db';
import { sharedTableCache } from '../../db/table-cache';
import type { ResourceModule } from '../module';
import { LIMITS, PRESENCE, TYPING } from '../../config';
import { THUMBNAIL_FORMATS } from '../../uploads/thumbnails';
import { DEFAULT_REALM_SETTINGS } from '../../realm/settings-defaults';
import { realmIcon } from './realm-icon';
import { VIDEO_CHAT_PROVIDERS } from '../../../shared/admin/realm-settings';

export interface RealmRow {
  name: string;
  description: string;
  date_created: number;
  settings: Record<string, unknown>;
}

/**
 * The realm row with its settings parsed, cached until the realm table changes (several settings
 * are read on every send). Shared and frozen: copy before changing.
 */
export function realmRow(db: Db): RealmRow {
  return sharedTableCache(db, 'realm-row', ['realm'], readRealmRow).get(1);
}

function readRealmRow(db: Db): RealmRow {
  const row = db
    .prepare<[], { name: string; description: string; date_created: number; settings: string }>(
      'SELECT name, description, date_created, settings FROM realm WHERE id = 1',
    )
    .get();
  if (!row) throw new Error('realm is not seeded');
  return { ...row, settings: Object.freeze(parseJson<Record<string, unknown>>(row.settings, {})) };
}

export function realmSetting<T>(db: Db, name: string, fallback: T): T {
  const value = realmRow(db).settings[name];
  return value === undefined ? fallback : (value as T);
}

export const realmSettingsResource: ResourceModule = {
  name: 'realm-settings',
  routes() {},
  initialState(ctx, _user, request) {
    if (!request.wants('realm')) return {};
    const realm = realmRow(ctx.db);
    const icon = realmIcon(ctx.db);
    const state: Record<string, unknown> = {
      realm_name: realm.name,
      realm_description: realm.description,
      realm_url: ctx.realmUrl,
      realm_uri: ctx.realmUrl,
      realm_date_created: realm.date_created,
      realm_icon_url: icon.url,
      realm_icon_source: icon.source,
      max_message_length: LIMITS.maxMessageLength,
      max_topic_length: LIMITS.maxTopicLength,
      max_stream_name_length: LIMITS.maxStreamNameLength,
      max_stream_description_length: LIMITS.maxStreamDescriptionLength,
      max_file_upload_size_mib: ctx.config.maxFileUploadSizeMib,
      max_avatar_file_size_mib: 5,
      max_icon_file_size_mib: 5,
      max_logo_file_size_mib: 5,
      event_queue_longpoll_timeout_seconds: 90,
      server_presence_ping_interval_seconds: PRESENCE.pingIntervalSeconds,
      server_presence_offline_threshold_seconds: PRESENCE.offlineThresholdSeconds,
      server_typing_started_expiry_period_milliseconds: TYPING.startedExpiryMs,
      server_typing_stopped_wait_period_milliseconds: TYPING.stoppedWaitMs,
      server_typing_started_wait_period_milliseconds: TYPING.startedWaitMs,
      server_generation: 1,
      password_min_length: LIMITS.passwordMinLength,
      password_max_length: LIMITS.passwordMaxLength,
      password_min_guesses: 10000,
      server_thumbnail_formats: THUMBNAIL_FORMATS,
      server_emoji_data_url: '',
      server_jitsi_server_url: null,
      realm_push_notifications_enabled: false,
    };
    // Defaults first: a realm seeded before a setting existed still reports it.
    for (const [key, value] of Object.entries(DEFAULT_REALM_SETTINGS))
      state[`realm_${key}`] = value;
    for (const [key, value] of Object.entries(realm.settings)) state[`realm_${key}`] = value;
    state.realm_available_video_chat_providers = VIDEO_CHAT_PROVIDERS;
    // Deprecated (FL 358) but still sent by the public server, derived from the policy.
    state.realm_allow_edit_history = state.realm_message_edit_history_visibility_policy !== 'none';
    // Presence cannot be turned off for the realm here; clients read this to show the user list.
    state.realm_presence_disabled = false;
    return state;
  },
};
