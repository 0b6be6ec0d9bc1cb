// realm_users and realm_non_active_users as SQLite builds them (userListJson) against the objects
// userObject builds, for every kind of viewer and user and both client_gravatar values.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../support/server';
import { ApiClient } from '../support/client';
import { createUser } from '../../server/realm/accounts';
import { Role } from '../../server/realm/roles';
import { isSystemBot } from '../../server/resources/users/system-bots';
import {
  allUserRows,
  emailVisibilityByUser,
  getUserRow,
  profileDataByUser,
  toViewer,
  userListJson,
  userObject,
} from '../../server/resources/users/users-store';

let server: TestServer;
const created: Record<string, { id: number; apiKey: string; email: string }> = {};

beforeAll(async () => {
  server = await startTestServer();
  const db = server.server.db;
  const make = (key: string, fields: Partial<Parameters<typeof createUser>[1]> = {}) => {
    const apiKey = `key${key}`.padEnd(32, 'x');
    const email = `${key.toLowerCase()}@example.com`;
    const { id } = createUser(db, {
      email,
      fullName: `User ${key}`,
      role: Role.member,
      apiKey,
      timezone: 'Asia/Kolkata',
      ...fields,
    });
    created[key] = { id, apiKey, email: fields.email ?? email };
    return id;
  };
  const setVisibility = (id: number, value: string) =>
    db
      .prepare(
        `UPDATE user_settings SET settings = json_set(settings, '$.email_address_visibility', json(?))
          WHERE user_id = ?`,
      )
      .run(value, id);
  // Every email_address_visibility the settings document may hold, valid or not.
  for (const [key, value] of [
    ['Everyone', '1'],
    ['Members', '2'],
    ['Admins', '3'],
    ['Nobody', '4'],
    ['Moderators', '5'],
    ['MembersReal', '2.0'],
    ['Fractional', '2.5'],
    ['Unknown', '7'],
    ['AsString', '"3"'],
    ['AsTrue', 'true'],
    ['AsFalse', 'false'],
    ['AsNull', 'null'],
  ]) {
    setVisibility(make(`Vis${key}`), value);
  }
  db.prepare("UPDATE user_settings SET settings = '{not json' WHERE user_id = ?").run(
    make('BrokenSettings'),
  );
  db.prepare('DELETE FROM user_settings WHERE user_id = ?').run(make('NoSettings'));
  // The real address differs from the API one, in capitals (the Gravatar hash lowercases it).
  setVisibility(
    make('Hidden', { email: 'user-hidden@example.com', deliveryEmail: 'Real.Hidden@Example.COM' }),
    '4',
  );
  make('Guest', { role: Role.guest });
  make('Moderator', { role: Role.moderator });
  make('Admin', { role: Role.administrator });
  make('Owner', { role: Role.owner });
  const uploaded = make('Uploaded');
  const uploadedHidden = make('UploadedHidden');
  db.prepare("UPDATE users SET avatar_source = 'U', avatar_version = 3 WHERE id IN (?, ?)").run(
    uploaded,
    uploadedHidden,
  );
  setVisibility(uploadedHidden, '4');
  db.prepare('UPDATE users SET is_imported_stub = 1, avatar_version = 2 WHERE id = ?').run(
    make('Stub'),
  );
  make('Odd', {
    fullName: 'Zoë "quoted" \\ back\\slash\ttab\u0001 ünïcödé 🎉 </script>',
    timezone: '',
  });
  const gone = make('Deactivated');
  setVisibility(gone, '3');
  const bot = make('Bot', { isBot: true, botType: 2, botOwnerId: server.userIds.dev });
  setVisibility(bot, '4');
  const goneBot = make('DeactivatedBot', { isBot: true, botType: 1, botOwnerId: null });
  db.prepare('UPDATE users SET is_active = 0 WHERE id IN (?, ?)').run(gone, goneBot);
  // Profile fields, with and without a rendered value; a bot's values are never shown.
  const field = (name: string, type: number) =>
    Number(
      db
        .prepare(
          'INSERT INTO custom_profile_fields (name, field_type, sort_order) VALUES (?, ?, 99)',
        )
        .run(name, type).lastInsertRowid,
    );
  const text = field('Test text', 1);
  const long = field('Test long', 2);
  const value = db.prepare(
    'INSERT OR REPLACE INTO custom_profile_field_values (user_id, field_id, value, rendered_value) VALUES (?, ?, ?, ?)',
  );
  for (const id of [created.VisEveryone.id, gone, bot, server.userIds.guest]) {
    value.run(id, text, `plain "${id}"`, null);
    value.run(id, long, `**bold** ${id}`, `<p><strong>bold</strong> ${id}</p>`);
  }
});
afterAll(async () => {
  await server.close();
});

/** The lists as userObject builds them: the register's path before userListJson. */
function expectedLists(viewerId: number, clientExtavatar: boolean) {
  const db = server.server.db;
  const viewer = toViewer(getUserRow(db, viewerId)!);
  const options = {
    clientExtavatar,
    visibility: emailVisibilityByUser(db),
    profileData: profileDataByUser(db),
  };
  const all = allUserRows(db);
  const rows = all.filter((r) => !isSystemBot(r));
  return {
    cross_realm_bots: all
      .filter((r) => isSystemBot(r))
      .map((r) => ({ ...userObject(r, viewer, options), is_system_bot: true })),
    realm_users: rows.filter((r) => r.is_active === 1).map((r) => userObject(r, viewer, options)),
    realm_non_active_users: rows
      .filter((r) => r.is_active !== 1)
      .map((r) => userObject(r, viewer, options)),
  };
}

const demoViewers = ['owner', 'admin', 'moderator', 'dev', 'guest', 'helperBot'] as const;

describe('realm_users built by SQLite', () => {
  it('has every kind of user to compare', () => {
    const lists = expectedLists(server.userIds.dev, true);
    const all = [...lists.realm_users, ...lists.realm_non_active_users];
    // Hidden addresses, external and uploaded avatars both null and not, profile data and none.
    expect(all.some((u) => u.delivery_email === null)).toBe(true);
    expect(all.some((u) => u.avatar_url === null)).toBe(true);
    expect(all.some((u) => String(u.avatar_url).startsWith('https://secure.gravatar.com'))).toBe(
      true,
    );
    expect(all.some((u) => String(u.avatar_url).includes('version=3'))).toBe(true);
    expect(all.some((u) => u.is_bot === true && u.is_active === false)).toBe(true);
    expect(all.some((u) => Object.keys((u.profile_data as object) ?? {}).length === 2)).toBe(true);
  });

  for (const viewerKey of demoViewers) {
    for (const clientGravatar of [true, false]) {
      it(`POST /register as ${viewerKey}, client_gravatar ${clientGravatar}: userObject's lists`, async () => {
        const res = await server.client(viewerKey).post('/register', {
          fetch_event_types: ['realm_user'],
          client_gravatar: clientGravatar,
        });
        expect(res.status).toBe(200);
        const expected = expectedLists(server.userIds[viewerKey], clientGravatar);
        expect(res.body.realm_users).toEqual(expected.realm_users);
        expect(res.body.realm_non_active_users).toEqual(expected.realm_non_active_users);
        expect(res.body.cross_realm_bots).toEqual(expected.cross_realm_bots);
        // No field userObject leaves out comes as null, nor any it does not write.
        expect(JSON.stringify(res.body.realm_users)).toBe(JSON.stringify(expected.realm_users));
      });
    }
  }

  it('as each created user, by every role and visibility', async () => {
    for (const key of ['Guest', 'Moderator', 'Admin', 'Owner', 'Hidden', 'Bot', 'NoSettings']) {
      const { id, apiKey, email } = created[key];
      const client = new ApiClient(() => server.url, { email, apiKey });
      for (const clientGravatar of [true, false]) {
        const res = await client.post('/register', {
          fetch_event_types: ['realm_user'],
          client_gravatar: clientGravatar,
        });
        expect(res.status).toBe(200);
        const expected = expectedLists(id, clientGravatar);
        expect(JSON.stringify(res.body.realm_users)).toBe(JSON.stringify(expected.realm_users));
        expect(JSON.stringify(res.body.realm_non_active_users)).toBe(
          JSON.stringify(expected.realm_non_active_users),
        );
      }
    }
  });

  it('leaves out the users named and writes an empty list as []', () => {
    const db = server.server.db;
    const viewer = toViewer(getUserRow(db, server.userIds.dev)!);
    const everyone = allUserRows(db).filter((r) => r.is_active === 1);
    const json = userListJson(db, viewer, {
      clientExtavatar: true,
      active: true,
      leaveOut: everyone.map((r) => r.email),
    });
    expect(json).toBe('[]');
  });
});
