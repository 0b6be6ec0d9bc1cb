// --seed empty: the realm, its system groups and one owner (credentials in demo-credentials.json),
// because a realm with no account cannot be used through the API at all.
import type { RealmContext } from '../realm/context';
import { createUser } from '../realm/accounts';
import { Role } from '../realm/roles';
import { createRealmBase } from './base';
import { writeCredentials } from './credentials';

export function seedEmptyRealm(ctx: RealmContext): void {
  createRealmBase(ctx.db, 'Local realm', ctx.nowSeconds());
  const password = 'owner-password';
  const owner = createUser(ctx.db, {
    email: 'owner@tributary.local',
    fullName: 'Realm Owner',
    role: Role.owner,
    password,
    canCreateUsers: true,
    timezone: 'UTC',
  });
  writeCredentials(ctx.dataDir, [
    {
      user_id: owner.id,
      email: 'owner@tributary.local',
      full_name: 'Realm Owner',
      role: Role.owner,
      api_key: owner.apiKey,
      password,
      is_bot: false,
      bot_type: null,
      bot_owner_id: null,
    },
  ]);
}
