// PATCH /realm: the organization's profile (name, description, language), its message and edit
// rules, and its group settings (who may create channels, invite, move messages, ...). Only
// administrators may call it, some settings need an owner (shared/admin/realm-settings.ts). Every
// user hears each change as the public server announces it: a realm `update` event for most
// settings, `update_dict` for the description (with its rendering), the two message-editing
// settings and each group setting.
import * as z from 'zod';
import type { ResourceModule } from '../module';
import type { AuthUser, RealmContext } from '../../realm/context';
import { p, schemas, type Param } from '../../http/params';
import { ApiError, badRequest } from '../../http/errors';
import { isOwner } from '../../realm/roles';
import { DEFAULT_REALM_GROUP_SETTINGS } from '../../realm/settings-defaults';
import { requireAdmin, type GroupSettingValue } from '../../realm/permissions';
import { databaseLookup } from '../../markdown/lookup';
import { renderMessage } from '../../markdown/render';
import { hasUnprintable } from '../../realm/text-rules';
import { realmRow } from './realm-settings';
import { validateGroupSetting } from '../channels/subscriptions';
import { activeUserIds } from '../users/users-store';
import {
  BOOLEAN_REALM_SETTINGS,
  CODE_BLOCK_LANGUAGE_MAX_LENGTH,
  DIGEST_WEEKDAYS,
  EDIT_HISTORY_POLICIES,
  OWNER_ONLY_GROUP_SETTINGS,
  OWNER_ONLY_REALM_SETTINGS,
  REALM_LANGUAGES,
  TIME_LIMIT_SETTINGS,
  VIDEO_CHAT_PROVIDERS,
  realmDescriptionProblem,
  realmNameProblem,
} from '../../../shared/admin/realm-settings';

const GROUP_SETTINGS = Object.keys(DEFAULT_REALM_GROUP_SETTINGS);
const OWNER_ONLY = new Set<string>([...OWNER_ONLY_GROUP_SETTINGS, ...OWNER_ONLY_REALM_SETTINGS]);
/** Settings the public server announces as update_dict for historical reasons. */
const UPDATE_DICT_SETTINGS = new Set([
  'allow_message_editing',
  'message_content_edit_limit_seconds',
]);

const change = z.object({
  new: schemas.groupSettingValue,
  old: schemas.groupSettingValue.optional(),
});

const intOrWord = () => p.json(z.union([z.number().int(), z.string()])).optional();

const PARAMS: Record<string, Param<unknown, false>> = {
  ...Object.fromEntries(GROUP_SETTINGS.map((name) => [name, p.json(change).optional()])),
  ...Object.fromEntries(BOOLEAN_REALM_SETTINGS.map((name) => [name, p.bool().optional()])),
  ...Object.fromEntries(TIME_LIMIT_SETTINGS.map((name) => [name, intOrWord()])),
  name: p.string().optional(),
  description: p.string().optional(),
  default_language: p.string().optional(),
  default_code_block_language: p.string().optional(),
  video_chat_provider: p.json(z.number().int()).optional(),
  message_edit_history_visibility_policy: p.enumOf(EDIT_HISTORY_POLICIES).optional(),
  digest_weekday: p.json(z.number().int()).optional(),
  message_retention_days: intOrWord(),
  waiting_period_threshold: p.json(z.number().int().min(0)).optional(),
  invite_required: p.bool().optional(),
  emails_restricted_to_domains: p.bool().optional(),
  disallow_disposable_email_addresses: p.bool().optional(),
} as Record<string, Param<unknown, false>>;

const badValue = (name: string, value: unknown) =>
  new ApiError('REQUEST_VARIABLE_INVALID', `Bad value for '${name}': ${String(value)}`, 400, {
    var_name: name,
  });

/** A time limit as stored: seconds, or null for "unlimited" (the public server's special value). */
function timeLimit(name: string, value: number | string): number | null {
  if (value === 'unlimited') return null;
  if (typeof value !== 'number' || value <= 0) throw badValue(name, value);
  return value;
}

/** Retention in days as stored: -1 keeps messages forever ("unlimited"). */
function retentionDays(value: number | string): number {
  if (value === 'unlimited') return -1;
  if (typeof value !== 'number' || value <= 0) throw badValue('message_retention_days', value);
  return value;
}

/** The stored value of one requested non-group setting, validated. */
function checkedValue(name: string, value: unknown): unknown {
  if ((TIME_LIMIT_SETTINGS as readonly string[]).includes(name)) {
    return timeLimit(name, value as number | string);
  }
  switch (name) {
    case 'name': {
      const problem = realmNameProblem(value as string);
      if (problem) throw badRequest(problem);
      if (hasUnprintable(value as string)) throw badRequest('Invalid characters in name!');
      return (value as string).trim();
    }
    case 'description': {
      const problem = realmDescriptionProblem(value as string);
      if (problem) throw badRequest(problem);
      return value;
    }
    case 'default_language':
      if (!REALM_LANGUAGES.some((l) => l.code === value)) {
        throw badRequest(`Invalid language '${String(value)}'`);
      }
      return value;
    case 'default_code_block_language': {
      const language = (value as string).trim();
      if ([...language].length > CODE_BLOCK_LANGUAGE_MAX_LENGTH || hasUnprintable(language)) {
        throw badValue(name, value);
      }
      return language;
    }
    case 'video_chat_provider':
      if (!Object.values(VIDEO_CHAT_PROVIDERS).some((provider) => provider.id === value)) {
        throw badRequest(`Invalid video_chat_provider ${String(value)}`);
      }
      return value;
    case 'digest_weekday':
      if (!(DIGEST_WEEKDAYS as readonly number[]).includes(value as number)) {
        throw badValue(name, value);
      }
      return value;
    case 'message_retention_days':
      return retentionDays(value as number | string);
    default:
      return value;
  }
}

interface RealmChanges {
  /** Stored in the realm table's own columns. */
  name?: string;
  description?: string;
  settings: Record<string, unknown>;
  groups: Record<string, GroupSettingValue>;
}

/** Validates the whole request before anything is written, so a refusal changes nothing. */
function requestedChanges(
  ctx: RealmContext,
  user: AuthUser,
  params: Record<string, unknown>,
): RealmChanges {
  const realm = realmRow(ctx.db);
  const changes: RealmChanges = { settings: {}, groups: {} };
  for (const [name, requested] of Object.entries(params)) {
    if (requested === undefined || !(name in PARAMS)) continue;
    if (OWNER_ONLY.has(name) && !isOwner(user.role)) {
      throw badRequest('Must be an organization owner');
    }
    if (GROUP_SETTINGS.includes(name)) {
      const { new: next, old } = requested as z.infer<typeof change>;
      const current = realm.settings[name];
      if (old !== undefined && JSON.stringify(old) !== JSON.stringify(current)) {
        throw badRequest("'old' value does not match the expected value.");
      }
      const value = validateGroupSetting(ctx, name, next);
      if (JSON.stringify(value) !== JSON.stringify(current)) changes.groups[name] = value;
      continue;
    }
    const value = checkedValue(name, requested);
    if (name === 'name') {
      if (value !== realm.name) changes.name = value as string;
    } else if (name === 'description') {
      if (value !== realm.description) changes.description = value as string;
    } else if (JSON.stringify(value) !== JSON.stringify(realm.settings[name] ?? null)) {
      changes.settings[name] = value;
    }
  }
  return changes;
}

function announce(ctx: RealmContext, user: AuthUser, changes: RealmChanges): void {
  const everyone = activeUserIds(ctx.db);
  const update = (property: string, value: unknown) =>
    ctx.events.send(everyone, { type: 'realm', op: 'update', property, value });
  const updateDict = (data: Record<string, unknown>) =>
    ctx.events.send(everyone, { type: 'realm', op: 'update_dict', property: 'default', data });
  if (changes.name !== undefined) update('name', changes.name);
  if (changes.description !== undefined) {
    updateDict({
      description: changes.description,
      // Rendered as messages are, so it matches the settings screen's preview.
      rendered_description: renderMessage(changes.description, databaseLookup(ctx.db, user)).html,
    });
  }
  for (const [name, value] of Object.entries(changes.settings)) {
    if (UPDATE_DICT_SETTINGS.has(name)) updateDict({ [name]: value });
    else update(name, value);
    // allow_edit_history is derived from the policy (deprecated, still in register).
    if (name === 'message_edit_history_visibility_policy') {
      update('allow_edit_history', value !== 'none');
    }
  }
  for (const [name, value] of Object.entries(changes.groups)) updateDict({ [name]: value });
}

export const realmAdminResource: ResourceModule = {
  name: 'realm-admin',
  routes(api, ctx) {
    api.patch('/realm', { params: PARAMS }, ({ user, params }) => {
      requireAdmin(user);
      const changes = requestedChanges(ctx, user, params as Record<string, unknown>);
      const settings = { ...realmRow(ctx.db).settings, ...changes.settings, ...changes.groups };
      ctx.db.transaction(() => {
        ctx.db.prepare('UPDATE realm SET settings = ? WHERE id = 1').run(JSON.stringify(settings));
        if (changes.name !== undefined) {
          ctx.db.prepare('UPDATE realm SET name = ? WHERE id = 1').run(changes.name);
        }
        if (changes.description !== undefined) {
          ctx.db.prepare('UPDATE realm SET description = ? WHERE id = 1').run(changes.description);
        }
      })();
      announce(ctx, user, changes);
      // The public server answers with what changed, strings as "updated".
      const changed: Record<string, unknown> = { ...changes.settings, ...changes.groups };
      if (changes.name !== undefined) changed.name = 'updated';
      if (changes.description !== undefined) changed.description = 'updated';
      for (const [k, v] of Object.entries(changed))
        if (typeof v === 'string') changed[k] = 'updated';
      return changed;
    });
  },
};
