// @vitest-environment node
// A first sign-in's snapshot without the people still makes the user's own entry (slices/users.ts
// usersFromRegister), with the role the register's own-user booleans say, moderator included.
import { describe, expect, it } from 'vitest';
import { usersFromRegister } from '../../../renderer/store/slices/users';

const own = {
  realm_users: [],
  realm_non_active_users: [],
  cross_realm_bots: [],
  user_id: 7,
  email: 'me@example.com',
  delivery_email: 'me@example.com',
  full_name: 'Me',
  avatar_url: null,
};
const roles = {
  owner: { is_owner: true, is_admin: true, is_moderator: false, is_guest: false },
  administrator: { is_owner: false, is_admin: true, is_moderator: false, is_guest: false },
  moderator: { is_owner: false, is_admin: false, is_moderator: true, is_guest: false },
  member: { is_owner: false, is_admin: false, is_moderator: false, is_guest: false },
  guest: { is_owner: false, is_admin: false, is_moderator: false, is_guest: true },
};
const expected = { owner: 100, administrator: 200, moderator: 300, member: 400, guest: 600 };

describe('the own user while the people load', () => {
  it.each(Object.keys(roles) as (keyof typeof roles)[])('is made with the %s role', (name) => {
    const users = usersFromRegister({ ...own, ...roles[name] }, true);
    expect(users.loading).toBe(true);
    expect(users.users.get(7)).toMatchObject({
      full_name: 'Me',
      role: expected[name],
      is_admin: name === 'owner' || name === 'administrator',
      is_owner: name === 'owner',
      is_guest: name === 'guest',
    });
  });
});
