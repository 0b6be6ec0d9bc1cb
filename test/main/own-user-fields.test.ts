// The own user a first sign-in without the people puts in its snapshot (electron/accounts/session.ts
// ownUserFields), from the public server's own answers (fixtures/zulip-server, feature level 372):
// every field has the name and type the register gives it with `realm_user`, and the role's
// booleans say what `GET /users/me` says (which has `role` but no `is_moderator`).
import { describe, expect, it } from 'vitest';
import { ownUserFields } from '../../electron/accounts/session';
import {
  haveShared,
  readSharedJson,
  registerFixture,
  type RecordedCall,
} from '../support/shared-fixtures';

const present =
  haveShared('fixtures/zulip-server/rest-fl372.json') &&
  haveShared('fixtures/zulip-server/register-fl372.json');

describe.skipIf(!present)("the own user from the public server's /users/me", () => {
  it('has the register’s own-user names and types, and the role the answer says', () => {
    const register = registerFixture('register-fl372.json') as Record<string, unknown>;
    const answers = readSharedJson<RecordedCall[]>('fixtures/zulip-server/rest-fl372.json')
      .filter((call) => call.request.method === 'GET' && call.request.path === '/api/v1/users/me')
      .map((call) => call.response as Record<string, unknown>);
    expect(answers.length).toBeGreaterThanOrEqual(2);
    for (const me of answers) {
      const fields = ownUserFields(me);
      for (const [key, value] of Object.entries(fields)) {
        expect(register, key).toHaveProperty(key);
        expect(typeof value, key).toBe(typeof register[key]);
      }
      expect(fields).toMatchObject({
        email: me.email,
        delivery_email: me.delivery_email,
        full_name: me.full_name,
        avatar_url: me.avatar_url,
        is_admin: me.is_admin,
        is_owner: me.is_owner,
        is_guest: me.is_guest,
        is_moderator: me.role === 300,
      });
    }
    // The recording has a member and an administrator: the role is not read the same for both.
    expect(new Set(answers.map((me) => ownUserFields(me).is_admin))).toEqual(
      new Set([true, false]),
    );
  });
});
