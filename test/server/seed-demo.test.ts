// The demo seed's cheaper first start: its passwords are hashed after the server listens (a
// marker stands in meanwhile; a sign-in waits for the hash), and its messages are rendered once
// per author and text. Neither may change what a person can do or see. A first launch copies the
// build's template instead (seed/template.ts): the same realm, made this install's own.
import {
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  utimesSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { databasePath } from '../../server/db';
import type { SeededCredential } from '../../server/seed/credentials';
import {
  copyDemoTemplate,
  DEMO_TIME_COLUMNS,
  demoTemplateRefusal,
} from '../../server/seed/template';
import {
  bundleStamp,
  templateStampPath,
  type DemoTemplateLocation,
} from '../../server/seed/template-stamp';
import { createUser, finishDeferredPasswordHashes } from '../../server/realm/accounts';
import { toAuthUser, verifyPassword } from '../../server/http/auth';
import { databaseLookup } from '../../server/markdown/lookup';
import { renderMessage } from '../../server/markdown/render';
import { Role } from '../../server/realm/roles';
import { ApiClient } from '../support/client';
import { startTestServer, type TestServer } from '../support/server';
import { makeTestTemplate } from '../support/demo-template';

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

describe("a first launch's demo realm copied from the build's template", () => {
  const SHIFT = 3 * 86400;
  let root: string;
  let location: DemoTemplateLocation;
  let seededAt: number;
  let dataDir: string;
  let server: TestServer;
  let templateUsers: SeededCredential[];

  beforeAll(async () => {
    root = mkdtempSync(join(tmpdir(), 'tributary-demo-template-'));
    ({ location, seededAt, users: templateUsers } = await makeTestTemplate(root));
    dataDir = join(root, 'first-launch');
    mkdirSync(dataDir);
    // As if the first launch came three days after the build.
    expect(copyDemoTemplate(location, dataDir, { nowSeconds: seededAt + SHIFT })).toBe(true);
  }, 60_000);
  afterAll(async () => {
    await server?.close();
    rmSync(root, { recursive: true, force: true });
  });

  it('is the seeded realm, with API keys and webhook tokens of its own and every date moved', () => {
    const template = new Database(databasePath(location.dir), { readonly: true });
    const copy = new Database(databasePath(dataDir), { readonly: true });
    try {
      const timeColumns = new Set(DEMO_TIME_COLUMNS.map(([table, column]) => `${table}.${column}`));
      const tables = template
        .prepare<[], { name: string }>(
          "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' AND sql NOT LIKE 'CREATE VIRTUAL%'",
        )
        .all()
        .map((row) => row.name);
      let rowsCompared = 0;
      let timesMoved = 0;
      for (const table of tables) {
        // By primary key (some tables have no rowid), else by rowid: the same order in both.
        const key = (
          template.prepare(`PRAGMA table_info("${table}")`).all() as Array<{
            name: string;
            pk: number;
          }>
        )
          .filter((column) => column.pk > 0)
          .sort((a, b) => a.pk - b.pk)
          .map((column) => `"${column.name}"`);
        const read = (db: Database.Database) =>
          db
            .prepare(`SELECT * FROM "${table}" ORDER BY ${key.length ? key.join(', ') : 'rowid'}`)
            .all() as Array<Record<string, unknown>>;
        const [before, after] = [read(template), read(copy)];
        expect(after.length, table).toBe(before.length);
        before.forEach((row, index) => {
          const copied = after[index];
          for (const [column, value] of Object.entries(row)) {
            const name = `${table}.${column}`;
            if (timeColumns.has(name)) {
              expect(copied[column], name).toBe(value === null ? null : (value as number) + SHIFT);
              if (value !== null) timesMoved++;
              continue;
            }
            // A time the seed wrote that the copy would leave behind (DEMO_TIME_COLUMNS lacks it).
            if (typeof value === 'number') {
              expect(value > seededAt - 60 * 86400 && value < seededAt + 86400, name).toBe(false);
            }
            if (name === 'users.api_key') {
              expect(copied[column]).toMatch(/^[A-Za-z0-9]{32}$/);
              expect(copied[column]).not.toBe(value);
            } else if (name === 'users.bot_config' && value !== null) {
              const [was, is] = [value, copied[column]].map((json) => JSON.parse(json as string));
              expect(is.token).toMatch(/^[A-Za-z0-9]{32}$/);
              expect(is.token).not.toBe(was.token);
              expect({ ...is, token: was.token }).toEqual(was);
            } else if (name === 'messages.edit_history' && value !== null) {
              const moved = (JSON.parse(value as string) as Array<{ timestamp: number }>).map(
                (entry) => ({ ...entry, timestamp: entry.timestamp + SHIFT }),
              );
              expect(JSON.parse(copied[column] as string)).toEqual(moved);
            } else {
              expect(copied[column], name).toEqual(value);
            }
          }
          rowsCompared++;
        });
      }
      expect(rowsCompared).toBeGreaterThan(2000);
      expect(timesMoved).toBeGreaterThan(300);
      const keys = copy.prepare<[], { api_key: string }>('SELECT api_key FROM users').all();
      expect(new Set(keys.map((row) => row.api_key)).size).toBe(keys.length);
    } finally {
      template.close();
      copy.close();
    }
  });

  it('signs its people in with its own keys and their passwords, never with the template keys', async () => {
    server = await startTestServer({ dataDir });
    const owner = templateUsers.find((user) => user.email === 'owner@tributary.local')!;
    expect(server.users.owner.api_key).not.toBe(owner.api_key);
    const me = await server.client('owner').get('/users/me');
    expect(me.status).toBe(200);
    expect(me.body.email).toBe('owner@tributary.local');
    const withTemplateKey = new ApiClient(() => server.url, {
      email: owner.email,
      apiKey: owner.api_key,
    });
    expect((await withTemplateKey.get('/users/me')).status).toBe(401);
    const signedIn = await signIn(server, 'farid@tributary.local', 'farid-password');
    expect(signedIn.status).toBe(200);
    expect(signedIn.body.api_key).toBe(server.users.farid.api_key);
    // Its markers are this install's (the seed's resume deferred them anew), then real hashes.
    await finishDeferredPasswordHashes(server.server.db);
    expect(storedHash(server, 'emma@tributary.local')).toMatch(SCRYPT_HASH);
  });

  it('reads as of its own first launch: the newest message is from the hour before it', async () => {
    const res = await server
      .client('owner')
      .get('/messages', { anchor: 'newest', num_before: 1, num_after: 0, narrow: '[]' });
    expect(res.status).toBe(200);
    const newest = res.body.messages.at(-1).timestamp as number;
    expect(newest).toBeGreaterThan(seededAt + SHIFT - 2 * 3600);
    expect(newest).toBeLessThanOrEqual(seededAt + SHIFT + 60);
  });

  it('is refused when another build made it or for another schema, and for a folder that holds a realm', () => {
    const fresh = () => {
      const dir = mkdtempSync(join(root, 'refused-'));
      return { dir, copied: copyDemoTemplate(location, dir) };
    };
    expect(copyDemoTemplate(location, dataDir)).toBe(false);

    const stampFile = templateStampPath(location.dir);
    const stamp = readFileSync(stampFile, 'utf8');
    writeFileSync(location.bundle, 'the bundle, rebuilt');
    expect(demoTemplateRefusal(location)).toBe('made by another build');
    let attempt = fresh();
    expect(attempt.copied).toBe(false);
    expect(readdirSync(attempt.dir)).toEqual([]);

    writeFileSync(location.bundle, 'the bundle');
    utimesSync(location.bundle, new Date(), new Date());
    writeFileSync(
      stampFile,
      JSON.stringify({
        ...JSON.parse(stamp),
        bundle: bundleStamp(location.bundle),
        schemaVersion: 1,
      }),
    );
    expect(demoTemplateRefusal(location)).toBe('made for another schema');
    attempt = fresh();
    expect(attempt.copied).toBe(false);
    expect(readdirSync(attempt.dir)).toEqual([]);

    writeFileSync(
      stampFile,
      JSON.stringify({ ...JSON.parse(stamp), bundle: bundleStamp(location.bundle) }),
    );
    expect(demoTemplateRefusal(location)).toBeNull();
    expect(fresh().copied).toBe(true);
  });
});
