// The demo seed's cheaper first start: its passwords are hashed after the server listens (a
// marker stands in meanwhile; a sign-in waits for the hash), and its messages are rendered once
// per author and text. Neither may change what a person can do or see.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createUser, finishDeferredPasswordHashes } from '../../server/realm/accounts';
import { toAuthUser, verifyPassword } from '../../server/http/auth';
import { databaseLookup } from '../../server/markdown/lookup';
import { renderMessage } from '../../server/markdown/render';
import { Role } from '../../server/realm/roles';
import { ApiClient } from '../support/client';
import { startTestServer, type TestServer } from '../support/server';

const SCRYPT_HASH = /^scrypt\$16384\$8\$1\$[0-9a-f]{32}\$[0-9a-f]{64}$/;

function storedHash(server: TestServer, email: string): string | null {
  return server.server.db
    .prepare<[string], { password_hash: string | null }>(
      'SELECT password_hash FROM users WHERE email = ?',
    )
    .get(email)!.password_hash;
}

async function signIn(server: TestServer, username: string, password: string) {
  return server.anonymous().post('/fetch_api_key', { username, password });
}

describe('a freshly seeded demo realm', () => {
  let server: TestServer;
  beforeAll(async () => {
    // Its own empty folder: seeded by this start, not copied from the run's template.
    server = await startTestServer({ dataDir: mkdtempSync(join(tmpdir(), 'tributary-seed-')) });
  });
  afterAll(async () => {
    await server.close();
  });

  it("stores every seeded person's password hash with the usual scrypt parameters", async () => {
    await finishDeferredPasswordHashes(server.server.db);
    for (const user of Object.values(server.users)) {
      const stored = storedHash(server, user.email);
      if (user.password === null) {
        expect(stored).toBeNull();
        continue;
      }
      expect(stored).toMatch(SCRYPT_HASH);
      expect(await verifyPassword(user.password, stored)).toBe(true);
      expect(await verifyPassword(`${user.password}x`, stored)).toBe(false);
    }
    const res = await signIn(server, 'farid@tributary.local', 'farid-password');
    expect(res.status).toBe(200);
    expect(res.body.api_key).toBe(server.users.farid.api_key);
  });

  it('stores the HTML a fresh rendering of each message by its author gives, byte for byte', () => {
    const { db } = server.server;
    const rows = db
      .prepare<
        [],
        {
          content: string;
          rendered_content: string;
          sender_id: number;
          edit_history: string | null;
        }
      >('SELECT content, rendered_content, sender_id, edit_history FROM messages ORDER BY id')
      .all();
    const author = db.prepare<[number], Parameters<typeof toAuthUser>[0]>(
      `SELECT id, email, delivery_email, full_name, role, is_active, is_bot, bot_type,
              bot_owner_id, can_create_users FROM users WHERE id = ?`,
    );
    // The seed renders before the server listens, so without the realm's URL.
    const lookupOf = (senderId: number) => ({
      ...databaseLookup(db, toAuthUser(author.get(senderId)!)),
      realmUrl: () => undefined,
    });
    expect(rows.length).toBeGreaterThan(300);
    let compared = 0;
    for (const row of rows) {
      // The one edited message: its first version is in the history (topic edits hold none).
      const edit = (
        JSON.parse(row.edit_history ?? '[]') as Array<{
          prev_content?: string;
          prev_rendered_content?: string;
        }>
      ).find((entry) => entry.prev_content !== undefined);
      const [content, html] = edit
        ? [edit.prev_content!, edit.prev_rendered_content!]
        : [row.content, row.rendered_content];
      expect(renderMessage(content, lookupOf(row.sender_id)).html).toBe(html);
      compared++;
    }
    expect(compared).toBe(rows.length);
  });
});

describe('a seeded password whose hash is not stored yet', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer();
  });
  afterAll(async () => {
    await server.close();
  });

  /** A person added as the seeds add them: the password's hash deferred, nothing to finish it. */
  function addPending(email: string, password: string) {
    const created = createUser(server.server.db, {
      email,
      fullName: email.split('@')[0],
      role: Role.member,
      password,
    });
    expect(storedHash(server, email)).toMatch(/^pending\$[0-9a-f]{32}$/);
    return created;
  }

  it('lets its person sign in with it (the sign-in waits for the hash), and no other password', async () => {
    const created = addPending('late@tributary.local', 'late-password');
    const wrong = await signIn(server, 'late@tributary.local', 'not-the-password');
    expect(wrong.status).toBe(401);
    expect(wrong.body.code).toBe('AUTHENTICATION_FAILED');
    const right = await signIn(server, 'late@tributary.local', 'late-password');
    expect(right.status).toBe(200);
    expect(right.body.api_key).toBe(created.apiKey);

    await finishDeferredPasswordHashes(server.server.db);
    expect(storedHash(server, 'late@tributary.local')).toMatch(SCRYPT_HASH);
    expect((await signIn(server, 'late@tributary.local', 'late-password')).status).toBe(200);
    expect((await signIn(server, 'late@tributary.local', 'not-the-password')).status).toBe(401);
  });

  it('keeps a password changed meanwhile: the seeded hash does not overwrite it', async () => {
    const created = addPending('changer@tributary.local', 'first-password');
    const client = new ApiClient(() => server.url, {
      email: 'changer@tributary.local',
      apiKey: created.apiKey,
    });
    const res = await client.patch('/settings', {
      old_password: 'first-password',
      new_password: 'second-password-long',
    });
    expect(res.status).toBe(200);
    await finishDeferredPasswordHashes(server.server.db);
    expect((await signIn(server, 'changer@tributary.local', 'second-password-long')).status).toBe(
      200,
    );
    expect((await signIn(server, 'changer@tributary.local', 'first-password')).status).toBe(401);
  });

  it('is refused like a wrong password when this process lost it, and hashed again on the next start', async () => {
    // As if the process that seeded it had stopped before storing the hash.
    server.server.db
      .prepare('UPDATE users SET password_hash = ? WHERE email = ?')
      .run(`pending$${'0'.repeat(32)}`, 'emma@tributary.local');
    const refused = await signIn(server, 'emma@tributary.local', 'emma-password');
    expect(refused.status).toBe(401);
    expect(refused.body.code).toBe('AUTHENTICATION_FAILED');

    // The next start finds the password in the seed's credentials file.
    await server.restart();
    const signedIn = await signIn(server, 'emma@tributary.local', 'emma-password');
    expect(signedIn.status).toBe(200);
    expect(signedIn.body.api_key).toBe(server.users.emma.api_key);
    await finishDeferredPasswordHashes(server.server.db);
    expect(storedHash(server, 'emma@tributary.local')).toMatch(SCRYPT_HASH);
  });
});
