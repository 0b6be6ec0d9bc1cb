// The Notification Bot exists with the realm (seed) or from start-up (older folders), is listed in
// register's cross_realm_bots as a system bot rather than in realm_users, and sends move notices.
import Database from 'better-sqlite3';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../support/server';
import { registerQueue } from '../support/events';

const BOT_EMAIL = 'notification-bot@tributary.local';
let server: TestServer;

beforeAll(async () => {
  server = await startTestServer({ seed: 'demo' });
});
afterAll(async () => {
  await server.close();
});

type UserDict = { user_id: number; email: string; is_system_bot?: boolean; is_bot: boolean };

async function usersState(key = 'emma') {
  const res = await server.client(key).post('/register', { fetch_event_types: ['realm_user'] });
  expect(res.status).toBe(200);
  return res.body as { realm_users: UserDict[]; cross_realm_bots: UserDict[] };
}

describe('Notification Bot', () => {
  it('is a cross-realm system bot from the start, not a realm member', async () => {
    const state = await usersState();
    const bot = state.cross_realm_bots.find((u) => u.email === BOT_EMAIL);
    expect(bot).toMatchObject({ full_name: 'Notification Bot', is_bot: true, is_system_bot: true });
    expect(state.realm_users.map((u) => u.email)).not.toContain(BOT_EMAIL);
  });

  it('sends move notices without announcing a new user', async () => {
    const dev = server.client('dev');
    const bot = (await usersState()).cross_realm_bots.find((u) => u.email === BOT_EMAIL)!;
    const queue = await registerQueue(server.client('emma'), {
      event_types: ['realm_user', 'message'],
    });
    const sent = await dev.post('/messages', {
      type: 'stream',
      to: 'general',
      topic: 'before the move',
      content: 'moving soon',
    });
    const moved = await dev.patch(`/messages/${sent.body.id}`, {
      topic: 'after the move',
      propagate_mode: 'change_all',
    });
    expect(moved.status, moved.text).toBe(200);
    const notice = await queue.waitFor(
      (e) => e.type === 'message' && e.message.sender_id === bot.user_id,
    );
    expect(notice.message.content).toContain('moved here from');
    expect((await queue.poll()).filter((e) => e.type === 'realm_user')).toEqual([]);
    expect((await usersState()).cross_realm_bots.map((u) => u.user_id)).toEqual([bot.user_id]);
  });

  it('is created at start-up for a realm seeded before it existed', async () => {
    const old = await startTestServer({ seed: 'empty' });
    try {
      await old.server.close();
      // Make the folder look like one seeded by an older version: no bot row at all.
      const db = new Database(join(old.dataDir, 'realm.sqlite3'));
      db.pragma('foreign_keys = OFF');
      const { id } = db.prepare('SELECT id FROM users WHERE email = ?').get(BOT_EMAIL) as {
        id: number;
      };
      const tables = db
        .prepare("SELECT name FROM sqlite_master WHERE type = 'table'")
        .all() as Array<{ name: string }>;
      for (const { name } of tables) {
        const columns = db.pragma(`table_info(${name})`) as Array<{ name: string }>;
        if (columns.some((c) => c.name === 'user_id')) {
          db.prepare(`DELETE FROM "${name}" WHERE user_id = ?`).run(id);
        }
      }
      db.prepare('DELETE FROM users WHERE id = ?').run(id);
      db.close();

      await old.restart();
      const state = (
        await old.client('owner').post('/register', { fetch_event_types: ['realm_user'] })
      ).body as { cross_realm_bots: UserDict[] };
      expect(state.cross_realm_bots.map((u) => u.email)).toEqual([BOT_EMAIL]);
    } finally {
      await old.close();
    }
  });
});
