// Bot endpoints: POST /bots/{bot_id}/api_key/regenerate (4.23) and the per-bot key-value storage
// GET/PUT/DELETE /bot_storage (4.22).
import * as z from 'zod';
import type { Db } from '../../db';
import type { ResourceModule } from '../module';
import { p } from '../../http/params';
import { ApiError, badRequest } from '../../http/errors';
import { generateApiKey } from '../../http/auth';
import { isAdmin } from '../../realm/roles';
import { getUserRow } from './users-store';

/** Characters (keys plus values) one bot may store; the API's default. */
export const BOT_STORAGE_LIMIT = 10_000_000;

const permissionDenied = () =>
  new ApiError('PERMISSION_DENIED', 'This endpoint is only for bots', 403);

export const botsResource: ResourceModule = {
  name: 'bots',
  routes(api, ctx) {
    api.post('/bots/:bot_id/api_key/regenerate', { ids: ['bot_id'] }, ({ user, ids }) => {
      const bot = getUserRow(ctx.db, ids.bot_id);
      if (!bot || bot.is_bot !== 1) throw badRequest('No such bot');
      if (bot.bot_owner_id !== user.id && !isAdmin(user.role))
        throw badRequest('Insufficient permission');
      const apiKey = generateApiKey();
      ctx.db.prepare('UPDATE users SET api_key = ? WHERE id = ?').run(apiKey, bot.id);
      const audience = new Set([user.id, ...(bot.bot_owner_id !== null ? [bot.bot_owner_id] : [])]);
      ctx.events.send(audience, {
        type: 'realm_bot',
        op: 'update',
        bot: { user_id: bot.id, api_key: apiKey },
      });
      return { api_key: apiKey };
    });

    api.get(
      '/bot_storage',
      { params: { keys: p.json(z.array(z.string())).optional() } },
      ({ user, params }) => {
        if (!user.is_bot) throw permissionDenied();
        const stored = botStorage(ctx.db, user.id);
        if (params.keys) {
          for (const key of params.keys)
            if (!stored.has(key)) throw badRequest(`Key does not exist.`);
          return { storage: Object.fromEntries(params.keys.map((key) => [key, stored.get(key)])) };
        }
        return { storage: Object.fromEntries(stored) };
      },
    );

    api.put(
      '/bot_storage',
      { params: { storage: p.json(z.record(z.string(), z.string())) } },
      ({ user, params }) => {
        if (!user.is_bot) throw permissionDenied();
        const next = botStorage(ctx.db, user.id);
        for (const [key, value] of Object.entries(params.storage)) next.set(key, value);
        let used = 0;
        for (const [key, value] of next) used += [...key].length + [...value].length;
        if (used > BOT_STORAGE_LIMIT) {
          throw badRequest(
            `Request exceeds storage limit by ${used - BOT_STORAGE_LIMIT} characters. The limit is ${BOT_STORAGE_LIMIT} characters.`,
          );
        }
        const upsert = ctx.db.prepare(
          `INSERT INTO bot_storage (bot_id, key, value) VALUES (?, ?, ?)
           ON CONFLICT(bot_id, key) DO UPDATE SET value = excluded.value`,
        );
        ctx.db.transaction(() => {
          for (const [key, value] of Object.entries(params.storage))
            upsert.run(user.id, key, value);
        })();
      },
    );

    api.delete(
      '/bot_storage',
      { params: { keys: p.json(z.array(z.string())).optional() } },
      ({ user, params }) => {
        if (!user.is_bot) throw permissionDenied();
        if (!params.keys) {
          ctx.db.prepare('DELETE FROM bot_storage WHERE bot_id = ?').run(user.id);
          return;
        }
        const exists = ctx.db.prepare('SELECT 1 FROM bot_storage WHERE bot_id = ? AND key = ?');
        for (const key of params.keys)
          if (!exists.get(user.id, key)) throw badRequest('Key does not exist.');
        const remove = ctx.db.prepare('DELETE FROM bot_storage WHERE bot_id = ? AND key = ?');
        ctx.db.transaction(() => {
          for (const key of params.keys!) remove.run(user.id, key);
        })();
      },
    );
  },
};

/** A bot's stored key/value pairs. */
function botStorage(db: Db, botId: number): Map<string, string> {
  const rows = db
    .prepare<[number], { key: string; value: string }>(
      'SELECT key, value FROM bot_storage WHERE bot_id = ?',
    )
    .all(botId);
  return new Map(rows.map((r) => [r.key, r.value]));
}
