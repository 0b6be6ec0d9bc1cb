// Creating and managing bots as the public server does: POST /bots (generic, incoming-webhook and
// outgoing-webhook bots, with an optional multipart avatar), GET /bots (the caller's own bots with
// their API keys), PATCH /bots/{bot_id} (name, owner, outgoing-webhook URL and interface, avatar)
// and DELETE /bots/{bot_id} (deactivation). Creating needs the realm's can_create_bots_group, or
// for an incoming-webhook bot can_create_write_only_bots_group; changing a bot needs its owner or
// an administrator.
import { randomBytes } from 'node:crypto';
import * as z from 'zod';
import type { ResourceModule } from '../module';
import type { AuthUser, RealmContext } from '../../realm/context';
import { p } from '../../http/params';
import { badRequest } from '../../http/errors';
import { Role, isAdmin, isGuest } from '../../realm/roles';
import { realmGroupSettingAllows } from '../../realm/permissions';
import { createUser } from '../../realm/accounts';
import { checkFullName } from '../../realm/text-rules';
import { activeUserIds, allUserRows, getUserRow, type UserRow } from './users-store';
import { announceNewUser } from './users';
import { NOTIFICATION_BOT_EMAIL } from './system-bots';
import { botConfig, botAudience, botObject, sendBotUpdate } from './bot-events';
import { deactivateUser } from './user-lifecycle';
import {
  OUTGOING_WEBHOOK_INTERFACES,
  normalizePayloadUrl,
  notAUrl,
} from '../../../shared/admin/bot-rules';
import {
  MAX_AVATAR_FILE_SIZE_MIB,
  markAvatar,
  renderAvatar,
  singleUploadedFile,
  storeAvatar,
  writeAvatarFiles,
} from './avatar-files';

const BOT_TYPES = { generic: 1, incomingWebhook: 2, outgoingWebhook: 3 } as const;
/** Outgoing webhook payload formats: 1 the public server's own, 2 Slack-compatible. */
const INTERFACES = OUTGOING_WEBHOOK_INTERFACES.map(([id]) => id as number);
const SHORT_NAME = /^[a-z0-9_.+-]+$/i;
const MAX_AVATAR_BYTES = MAX_AVATAR_FILE_SIZE_MIB * 1024 * 1024;

/** Bots get addresses in the realm's own domain (the one its system bots use). */
const botDomain = () => NOTIFICATION_BOT_EMAIL.split('@')[1];

/** An outgoing webhook's endpoint (shared/admin/bot-rules.ts), else the public server's refusal. */
function checkPayloadUrl(url: string, parameter: 'payload_url' | 'service_payload_url'): string {
  const normalized = normalizePayloadUrl(url);
  if (normalized === null) throw badRequest(notAUrl(parameter));
  return normalized;
}

function checkBotNameFree(ctx: RealmContext, fullName: string, exceptId: number | null): void {
  const taken = allUserRows(ctx.db).some(
    (u) => u.id !== exceptId && u.full_name.toLowerCase() === fullName.toLowerCase(),
  );
  if (taken) throw badRequest('Name is already in use!');
}

/** The bot, if the caller owns it or administers the realm. */
function accessBot(ctx: RealmContext, user: AuthUser, botId: number): UserRow {
  const bot = getUserRow(ctx.db, botId);
  if (!bot || bot.is_bot !== 1 || bot.email === NOTIFICATION_BOT_EMAIL)
    throw badRequest('No such bot');
  if (bot.bot_owner_id !== user.id && !isAdmin(user.role))
    throw badRequest('Insufficient permission');
  return bot;
}

function requireMayCreate(ctx: RealmContext, user: AuthUser, botType: number): void {
  if (user.is_bot || isGuest(user.role)) throw badRequest('Not allowed for guest users');
  if (realmGroupSettingAllows(ctx.db, user, 'can_create_bots_group')) return;
  if (
    botType === BOT_TYPES.incomingWebhook &&
    realmGroupSettingAllows(ctx.db, user, 'can_create_write_only_bots_group')
  )
    return;
  throw badRequest('Must be an organization administrator');
}

export const botAdminResource: ResourceModule = {
  name: 'bot-admin',
  routes(api, ctx) {
    api.post(
      '/bots',
      {
        maxFileBytes: MAX_AVATAR_BYTES,
        params: {
          full_name: p.string(),
          short_name: p.string(),
          bot_type: p.int().default(BOT_TYPES.generic),
          payload_url: p.json(z.string()).optional(),
          interface_type: p.int().default(1),
          service_name: p.string().optional(),
          config_data: p.string().optional(),
          default_sending_stream: p.string().optional(),
          default_events_register_stream: p.string().optional(),
          default_all_public_streams: p.bool().optional(),
        },
      },
      async ({ user, params, request }) => {
        const botType = params.bot_type;
        if (!Object.values(BOT_TYPES).includes(botType as 1 | 2 | 3))
          throw badRequest('Invalid bot type');
        requireMayCreate(ctx, user, botType);
        const fullName = checkFullName(params.full_name);
        const shortName = params.short_name.trim().toLowerCase();
        if (shortName === '' || !SHORT_NAME.test(shortName))
          throw badRequest('Bad name or username');
        const email = `${shortName.endsWith('-bot') ? shortName : `${shortName}-bot`}@${botDomain()}`;
        if (
          ctx.db
            .prepare('SELECT 1 FROM users WHERE email = ? OR delivery_email = ?')
            .get(email, email)
        )
          throw badRequest('Username already in use');
        checkBotNameFree(ctx, fullName, null);
        let config: Record<string, unknown> | null = null;
        if (botType === BOT_TYPES.outgoingWebhook) {
          if (params.payload_url === undefined) throw badRequest('Missing payload_url');
          if (!INTERFACES.includes(params.interface_type))
            throw badRequest('Invalid interface type');
          config = {
            base_url: checkPayloadUrl(params.payload_url, 'payload_url'),
            interface: params.interface_type,
            token: randomBytes(24).toString('base64url'),
          };
        }
        // Decoded before the bot exists: a bad image refuses the request and stores nothing.
        const upload = await singleUploadedFile(request.body);
        const avatar = upload ? await renderAvatar(upload) : null;
        const created = createUser(ctx.db, {
          email,
          fullName,
          role: Role.member,
          isBot: true,
          botType,
          botOwnerId: user.id,
          botConfig: config,
          timezone: '',
        });
        if (avatar) {
          // Not announced on its own: the bot's add events below carry the new avatar.
          await writeAvatarFiles(ctx, created.id, avatar);
          markAvatar(ctx, created.id, 'U');
        }
        const row = getUserRow(ctx.db, created.id)!;
        announceNewUser(ctx, row);
        ctx.events.send(botAudience(ctx.db, user.id), {
          type: 'realm_bot',
          op: 'add',
          bot: botObject(ctx.db, row),
        });
        const bot = botObject(ctx.db, row);
        return {
          user_id: row.id,
          api_key: created.apiKey,
          avatar_url: bot.avatar_url,
          default_sending_stream: null,
          default_events_register_stream: null,
          default_all_public_streams: false,
        };
      },
    );

    api.get('/bots', {}, ({ user }) => {
      const keys = ctx.db.prepare<[number], { api_key: string }>(
        'SELECT api_key FROM users WHERE id = ?',
      );
      const bots = allUserRows(ctx.db)
        .filter((r) => r.is_bot === 1 && r.is_active === 1 && r.bot_owner_id === user.id)
        .map((r) => ({
          username: r.email,
          ...botObject(ctx.db, r),
          api_key: keys.get(r.id)?.api_key ?? '',
        }));
      return { bots };
    });

    api.patch(
      '/bots/:bot_id',
      {
        ids: ['bot_id'],
        maxFileBytes: MAX_AVATAR_BYTES,
        params: {
          full_name: p.string().optional(),
          bot_owner_id: p.int().optional(),
          service_payload_url: p.json(z.string()).optional(),
          service_interface: p.int().optional(),
          config_data: p.string().optional(),
          default_sending_stream: p.string().optional(),
          default_events_register_stream: p.string().optional(),
          default_all_public_streams: p.bool().optional(),
        },
      },
      async ({ user, ids, params, request }) => {
        const bot = accessBot(ctx, user, ids.bot_id);
        // Decoded before any change: a bad image refuses the whole request.
        const upload = await singleUploadedFile(request.body);
        const avatar = upload ? await renderAvatar(upload) : null;
        const result: Record<string, unknown> = {};
        if (params.full_name !== undefined) {
          const fullName = checkFullName(params.full_name);
          if (fullName !== bot.full_name) {
            checkBotNameFree(ctx, fullName, bot.id);
            ctx.db.prepare('UPDATE users SET full_name = ? WHERE id = ?').run(fullName, bot.id);
            ctx.events.send(activeUserIds(ctx.db), {
              type: 'realm_user',
              op: 'update',
              person: { user_id: bot.id, full_name: fullName },
            });
            sendBotUpdate(ctx, bot, { full_name: fullName });
          }
          result.full_name = fullName;
        }
        if (params.bot_owner_id !== undefined && params.bot_owner_id !== bot.bot_owner_id) {
          const owner = getUserRow(ctx.db, params.bot_owner_id);
          if (!owner || owner.is_bot === 1)
            throw badRequest('Failed to change owner, no such user');
          if (owner.is_active !== 1)
            throw badRequest('Failed to change owner, user is deactivated');
          ctx.db.prepare('UPDATE users SET bot_owner_id = ? WHERE id = ?').run(owner.id, bot.id);
          const after = getUserRow(ctx.db, bot.id)!;
          // The previous owner (unless an administrator) no longer sees the bot; the new one does.
          const before = new Set(botAudience(ctx.db, bot.bot_owner_id));
          const now = botAudience(ctx.db, owner.id);
          const lost = [...before].filter((id) => !now.includes(id));
          const gained = now.filter((id) => !before.has(id));
          if (lost.length > 0)
            ctx.events.send(lost, { type: 'realm_bot', op: 'delete', bot: { user_id: bot.id } });
          if (gained.length > 0)
            ctx.events.send(gained, {
              type: 'realm_bot',
              op: 'add',
              bot: botObject(ctx.db, after),
            });
          sendBotUpdate(ctx, after, { owner_id: owner.id });
          ctx.events.send(activeUserIds(ctx.db), {
            type: 'realm_user',
            op: 'update',
            person: { user_id: bot.id, bot_owner_id: owner.id },
          });
          result.bot_owner = owner.email;
        }
        if (params.service_payload_url !== undefined || params.service_interface !== undefined) {
          if (bot.bot_type !== BOT_TYPES.outgoingWebhook)
            throw badRequest('Only outgoing webhook bots have a payload URL');
          const config = botConfig(ctx.db, bot.id) ?? {};
          if (params.service_payload_url !== undefined)
            config.base_url = checkPayloadUrl(params.service_payload_url, 'service_payload_url');
          if (params.service_interface !== undefined) {
            if (!INTERFACES.includes(params.service_interface))
              throw badRequest('Invalid interface type');
            config.interface = params.service_interface;
          }
          ctx.db
            .prepare('UPDATE users SET bot_config = ? WHERE id = ?')
            .run(JSON.stringify(config), bot.id);
          sendBotUpdate(ctx, bot, { services: botObject(ctx.db, bot).services });
          result.service_payload_url = config.base_url;
          result.service_interface = config.interface;
        }
        if (avatar) {
          const { avatar_url } = await storeAvatar(ctx, bot.id, avatar);
          sendBotUpdate(ctx, getUserRow(ctx.db, bot.id)!, { avatar_url });
          result.avatar_url = avatar_url;
        }
        return result;
      },
    );

    api.delete('/bots/:bot_id', { ids: ['bot_id'] }, ({ user, ids }) => {
      const bot = accessBot(ctx, user, ids.bot_id);
      deactivateUser(ctx, user, bot);
    });
  },
};
