// Realm settings (the realm_* keys of the register response), the realm's custom profile fields,
// the user's settings, the realm's defaults for new users, and the server limits. Small plain
// objects, replaced on change.
import type {
  CustomProfileField,
  RealmBot,
  RegisterResponse,
  UserSettings,
} from '../../../shared/api/types';
import type { RealmDomainsEvent, ServerEvent, ServerEventType } from '../../../shared/api/events';
import type { RealmDomain } from '../../../shared/api/realm-config';
import { publicHomeView } from '../../../shared/api/public-names';
import { applyRealmBotEvent } from './realmBots';
import type { EventContext } from '../context';
import type { SliceDraft } from '../sliceDraft';

/** Limits and timings from register (chat-api §8, api-notes §1.3). */
export interface ServerLimits {
  maxMessageLength: number;
  maxTopicLength: number;
  maxStreamNameLength: number;
  maxStreamDescriptionLength: number;
  maxFileUploadSizeMib: number;
  eventQueueLongpollTimeoutSeconds: number;
  typingStartedExpiryMs: number;
  typingStoppedWaitMs: number;
  typingStartedWaitMs: number;
}

export interface SettingsState {
  readonly version: number;
  /** realm_* settings keyed exactly as in the register response (realm_name, realm_can_..._group). */
  readonly realm: Readonly<Record<string, unknown>>;
  /** The realm's custom profile fields in their display order (register `custom_profile_fields`). */
  readonly customProfileFields: readonly CustomProfileField[];
  readonly user: Readonly<UserSettings>;
  readonly realmUserDefaults: Readonly<UserSettings>;
  readonly limits: Readonly<ServerLimits>;
  readonly featureLevel: number;
  readonly serverVersion: string;
  /** The user's alert words (register `alert_words`; every alert_words event carries them all). */
  readonly alertWords: readonly string[];
}

/** Register keys that start with realm_ but are collections owned by other slices. */
const NOT_REALM_SETTINGS = new Set([
  'realm_users',
  'realm_non_active_users',
  'realm_user_groups',
  'realm_user_settings_defaults',
]);

/** Settings with web_home_view in the public server's spelling, whichever the server sent. */
function withPublicHomeView<T extends { web_home_view?: unknown }>(settings: T): T {
  if (settings.web_home_view === 'recent') settings.web_home_view = publicHomeView('recent');
  return settings;
}

export function settingsFromRegister(reg: RegisterResponse): SettingsState {
  const realm: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(reg)) {
    if (k.startsWith('realm_') && !NOT_REALM_SETTINGS.has(k)) realm[k] = v;
  }
  return {
    version: 0,
    realm,
    customProfileFields: sortedFields(reg.custom_profile_fields),
    user: withPublicHomeView({ ...(reg.user_settings ?? {}) }),
    realmUserDefaults: withPublicHomeView({ ...(reg.realm_user_settings_defaults ?? {}) }),
    // Fallbacks are the server defaults (api-notes §1.3) for fields an older server leaves out.
    limits: {
      maxMessageLength: reg.max_message_length ?? 10000,
      maxTopicLength: reg.max_topic_length ?? 60,
      maxStreamNameLength: reg.max_stream_name_length ?? 60,
      maxStreamDescriptionLength: reg.max_stream_description_length ?? 1024,
      maxFileUploadSizeMib: reg.max_file_upload_size_mib ?? 100,
      eventQueueLongpollTimeoutSeconds: reg.event_queue_longpoll_timeout_seconds ?? 90,
      typingStartedExpiryMs: reg.server_typing_started_expiry_period_milliseconds ?? 45000,
      typingStoppedWaitMs: reg.server_typing_stopped_wait_period_milliseconds ?? 12000,
      typingStartedWaitMs: reg.server_typing_started_wait_period_milliseconds ?? 30000,
    },
    featureLevel: reg.zulip_feature_level ?? 0,
    serverVersion: reg.zulip_version ?? '',
    alertWords: reg.alert_words ?? [],
  };
}

/** One shared empty list, so selectors reading a realm without fields return a stable value. */
const NO_FIELDS: readonly CustomProfileField[] = [];

function sortedFields(
  fields: readonly CustomProfileField[] | undefined,
): readonly CustomProfileField[] {
  return fields?.length ? [...fields].sort((a, b) => a.order - b.order) : NO_FIELDS;
}

function nextDomains(realm: SettingsState['realm'], ev: RealmDomainsEvent): RealmDomain[] {
  const domains = (realm.realm_domains as RealmDomain[] | undefined) ?? [];
  if (ev.op === 'remove') return domains.filter((d) => d.domain !== ev.domain);
  const rest = domains.filter((d) => d.domain !== ev.realm_domain.domain);
  return [...rest, ev.realm_domain].sort((a, b) => a.domain.localeCompare(b.domain));
}

/** The event types handleSettingsEvent reacts to (the dispatcher calls it for these only). */
export const settingsEventTypes: readonly ServerEventType[] = [
  'realm',
  'user_settings',
  'realm_user_settings_defaults',
  'custom_profile_fields',
  'realm_emoji',
  'realm_linkifiers',
  'realm_playgrounds',
  'realm_domains',
  'restart',
  'realm_bot',
  'default_streams',
  'alert_words',
];

export function handleSettingsEvent(
  d: SliceDraft<SettingsState>,
  ev: ServerEvent,
  _ctx: EventContext,
): void {
  switch (ev.type) {
    case 'realm':
      // Event data names settings without the realm_ prefix of the register response.
      if (ev.op === 'update') {
        d.write.realm = { ...d.read.realm, [`realm_${ev.property}`]: ev.value };
      } else if (ev.op === 'update_dict') {
        const realm: Record<string, unknown> = { ...d.read.realm };
        for (const [k, v] of Object.entries(ev.data)) realm[`realm_${k}`] = v;
        d.write.realm = realm;
      }
      return;
    case 'user_settings':
      d.write.user = withPublicHomeView({ ...d.read.user, [ev.property]: ev.value });
      return;
    case 'realm_user_settings_defaults':
      d.write.realmUserDefaults = withPublicHomeView({
        ...d.read.realmUserDefaults,
        [ev.property]: ev.value,
      });
      return;
    case 'custom_profile_fields':
      d.write.customProfileFields = sortedFields(ev.fields);
      return;
    case 'realm_emoji':
      // Kept under register's own key, where the emoji picker and reactions read it.
      d.write.realm = { ...d.read.realm, realm_emoji: ev.realm_emoji };
      return;
    case 'realm_linkifiers':
      d.write.realm = { ...d.read.realm, realm_linkifiers: ev.realm_linkifiers };
      return;
    case 'realm_playgrounds':
      d.write.realm = { ...d.read.realm, realm_playgrounds: ev.realm_playgrounds };
      return;
    case 'realm_domains':
      d.write.realm = { ...d.read.realm, realm_domains: nextDomains(d.read.realm, ev) };
      return;
    case 'realm_bot':
      d.write.realm = {
        ...d.read.realm,
        realm_bots: applyRealmBotEvent(d.read.realm.realm_bots as RealmBot[] | undefined, ev),
      };
      return;
    case 'default_streams':
      d.write.realm = { ...d.read.realm, realm_default_streams: ev.default_streams };
      return;
    case 'restart':
      d.write.featureLevel = ev.zulip_feature_level;
      d.write.serverVersion = ev.zulip_version;
      return;
    case 'alert_words':
      d.write.alertWords = ev.alert_words;
      return;
    default:
      return;
  }
}
