// @vitest-environment node
// The public server leaves `is_active` (and, at older feature levels, more) implicit: its register
// lists active users in `realm_users` and deactivated ones in `realm_non_active_users`, neither with
// an is_active field. These real answers (../shared/fixtures/zulip-server, feature level 372) go
// through the store, and what the people list, compose's `@` typeahead and the user tables read from
// it says who is there.
import { describe, expect, it } from 'vitest';
import { createChatStore, type AccountState } from '../../../renderer/store';
import { normalizeUser } from '../../../renderer/store/slices/users';
import { groupUsers } from '../../../renderer/features/people/user-list-model';
import { matchMentions } from '../../../renderer/features/compose/autocomplete';
import type { RegisterResponse, User } from '../../../shared/api/types';
import type { ServerEvent } from '../../../shared/api/events';
import {
  fl372AdminEvents,
  fl372AdminRegister,
  fl372Register,
  haveFl372Fixtures,
} from './fixtures/fl372';

const VERONA = 22;
const PROSPERO_ADMIN_VIEW = 14;
const OTHELLO_ADMIN_VIEW = 12;
const TEMP_BOT = 30;

function load(register: RegisterResponse, batches: ServerEvent[][] = []): AccountState {
  const store = createChatStore({ now: () => 1_795_504_141_000 });
  store.getState().replaceSnapshot('z', register);
  for (const batch of batches) store.getState().applyEventBatch('z', batch);
  return store.getState().accounts.z;
}

const users = (account: AccountState): User[] => [...account.users.users.values()];

describe.skipIf(!haveFl372Fixtures)("a member's register from the public server", () => {
  it('makes everyone in realm_users active: people list, channel people and @ typeahead', () => {
    const register = fl372Register();
    expect(register.realm_users.every((u) => !('is_active' in u))).toBe(true);
    const account = load(register);
    for (const u of register.realm_users) {
      expect(account.users.users.get(u.user_id)?.is_active, u.full_name).toBe(true);
    }
    // The right sidebar's list of everyone: every human of realm_users.
    const humans = register.realm_users.filter((u) => !u.is_bot).length;
    const everyone = groupUsers({
      users: users(account),
      statusOf: () => 'offline',
      selfUserId: account.selfUserId,
    });
    expect(everyone.flatMap((g) => g.userIds)).toHaveLength(humans);
    // A channel's people: its subscribers (Verona has ten).
    const verona = new Set(account.channels.subscriptions.get(VERONA)?.subscribers ?? []);
    expect(verona.size).toBe(10);
    const channelPeople = groupUsers({
      users: users(account),
      statusOf: () => 'offline',
      selfUserId: account.selfUserId,
      only: verona,
    });
    expect(channelPeople.flatMap((g) => g.userIds).length).toBeGreaterThan(0);
    // `@Oth` in compose offers Othello.
    const offered = matchMentions('Oth', users(account), [], {
      messageType: 'stream',
      channelWildcardAllowed: true,
      topicWildcardAllowed: true,
      relevance: () => Infinity,
    });
    expect(offered.map((c) => (c.type === 'user' ? c.user.full_name : null))).toContain(
      'Othello, the Moor of Venice',
    );
  });
});

describe.skipIf(!haveFl372Fixtures)("an administrator's register and events", () => {
  it('keeps realm_non_active_users deactivated and the rest active, bots with owners', () => {
    const account = load(fl372AdminRegister());
    expect(account.users.users.get(PROSPERO_ADMIN_VIEW)).toMatchObject({
      full_name: 'Prospero from The Tempest',
      is_active: false,
    });
    const active = users(account).filter((u) => u.is_active);
    expect(active.map((u) => u.user_id)).not.toContain(PROSPERO_ADMIN_VIEW);
    // Settings › Users: active humans on one tab, the deactivated one on the other.
    expect(users(account).filter((u) => !u.is_bot && !u.is_active)).toHaveLength(1);
    // Organization › Bots: every owned bot is active (none offers "Reactivate").
    const owned = users(account).filter((u) => u.is_bot && u.bot_owner_id !== null);
    expect(owned.length).toBeGreaterThanOrEqual(12);
    expect(owned.every((u) => u.is_active)).toBe(true);
    // Humans come without bot fields; the store gives them the API's nulls.
    expect(account.users.users.get(OTHELLO_ADMIN_VIEW)).toMatchObject({
      bot_type: null,
      bot_owner_id: null,
    });
  });

  it('follows role changes, a new bot and its deactivation from the events', () => {
    const account = load(fl372AdminRegister(), [fl372AdminEvents()]);
    expect(account.users.users.get(OTHELLO_ADMIN_VIEW)).toMatchObject({
      role: 300,
      full_name: 'Othello (fixture rename)',
      is_active: true,
    });
    // Added (active) and then deactivated by a realm_user update.
    expect(account.users.users.get(TEMP_BOT)).toMatchObject({ is_bot: true, is_active: false });
  });
});

describe('normalizeUser', () => {
  it('fills what older feature levels leave out and lets the list decide is_active', () => {
    const old = normalizeUser({ user_id: 5, email: 'a@x', full_name: 'A', is_admin: true });
    expect(old).toMatchObject({
      role: 200,
      is_admin: true,
      is_owner: false,
      is_guest: false,
      is_active: true,
      is_bot: false,
      bot_type: null,
      bot_owner_id: null,
      delivery_email: null,
      timezone: '',
      avatar_version: 1,
    });
    expect(normalizeUser({ user_id: 5, email: 'a@x', full_name: 'A' }, false).is_active).toBe(
      false,
    );
    expect(
      normalizeUser({ user_id: 5, email: 'a@x', full_name: 'A', is_active: false }).is_active,
    ).toBe(false);
  });
});
