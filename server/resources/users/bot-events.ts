// The realm_bot events and the bot object they carry, as the public server sends them: to the
// bot's owner and the realm's administrators (who see every bot in their bot list). Keys are never
// in these: an owner reads a bot's key from GET /bots.
import type { Db } from '../../db';
import { parseJson } from '../../db';
import type { RealmContext } from '../../realm/context';
import { isAdmin } from '../../realm/roles';
import { allUserRows, avatarUrl, type UserRow } from './users-store';

interface BotConfig {
  base_url?: string;
  interface?: number;
  token?: string;
}

export function botConfig(db: Db, botId: number): BotConfig | null {
  const row = db
    .prepare<[number], { bot_config: string | null }>('SELECT bot_config FROM users WHERE id = ?')
    .get(botId);
  return row?.bot_config ? parseJson<BotConfig>(row.bot_config, {}) : null;
}

/** The bot object of realm_bots and realm_bot add (without api_key, see above). */
export function botObject(db: Db, row: UserRow): Record<string, unknown> {
  const config = row.bot_type === 3 ? botConfig(db, row.id) : null;
  return {
    user_id: row.id,
    full_name: row.full_name,
    email: row.email,
    bot_type: row.bot_type,
    is_active: row.is_active === 1,
    owner_id: row.bot_owner_id,
    avatar_url: avatarUrl(row),
    default_sending_stream: null,
    default_events_register_stream: null,
    default_all_public_streams: false,
    services: config
      ? [{ base_url: config.base_url ?? '', interface: config.interface ?? 1, token: config.token }]
      : [],
  };
}

/** Who gets a bot's realm_bot events: its owner and every active administrator. */
export function botAudience(db: Db, ownerId: number | null): number[] {
  return allUserRows(db)
    .filter((u) => u.is_active === 1 && u.is_bot === 0 && (u.id === ownerId || isAdmin(u.role)))
    .map((u) => u.id);
}

export function sendBotUpdate(
  ctx: RealmContext,
  bot: UserRow,
  change: Record<string, unknown>,
): void {
  ctx.events.send(botAudience(ctx.db, bot.bot_owner_id), {
    type: 'realm_bot',
    op: 'update',
    bot: { user_id: bot.id, ...change },
  });
}
