// PATCH /users/{user_id}: an administrator changes someone's role, name or custom profile field
// values. Role changes follow the public server's owner rules (only owners make or unmake owners;
// the last owner stays one), move the user between the role system groups, and reach everyone as
// realm_user update {role} plus user_group membership events.
import * as z from 'zod';
import type { ResourceModule } from '../module';
import type { AuthUser, RealmContext } from '../../realm/context';
import { p } from '../../http/params';
import { badRequest } from '../../http/errors';
import { Role, SYSTEM_GROUPS, isOwner, type SystemGroupName } from '../../realm/roles';
import { syncRoleGroups } from '../../realm/accounts';
import { systemGroupId, requireAdmin } from '../../realm/permissions';
import { checkFullName } from '../../realm/text-rules';
import { itemSchema, updateProfileData } from '../realm/profile-fields';
import { isSystemBot } from './system-bots';
import { activeUserIds, getUserRow, type UserRow } from './users-store';
import { activeOwnerCount } from './user-lifecycle';

const ROLES: readonly number[] = Object.values(Role);

function checkRoleChange(ctx: RealmContext, actor: AuthUser, target: UserRow, role: number): void {
  if (!ROLES.includes(role)) throw badRequest('Invalid role');
  if ((target.role === Role.owner || role === Role.owner) && !isOwner(actor.role)) {
    throw badRequest('Must be an organization owner');
  }
  if (
    target.role === Role.owner &&
    role !== Role.owner &&
    target.is_active === 1 &&
    activeOwnerCount(ctx) <= 1
  ) {
    throw badRequest('The owner permission cannot be removed from the only organization owner.');
  }
}

function changeRole(ctx: RealmContext, target: UserRow, role: number): void {
  const groupOf = (r: number) => SYSTEM_GROUPS.find((g) => g.directRole === r)?.name;
  const oldGroup = groupOf(target.role);
  const newGroup = groupOf(role);
  ctx.db.transaction(() => {
    ctx.db.prepare('UPDATE users SET role = ? WHERE id = ?').run(role, target.id);
    syncRoleGroups(ctx.db, target.id, role);
  })();
  const everyone = activeUserIds(ctx.db);
  ctx.events.send(everyone, {
    type: 'realm_user',
    op: 'update',
    person: { user_id: target.id, role },
  });
  const membership: Array<[string | undefined, 'remove_members' | 'add_members']> = [
    [oldGroup, 'remove_members'],
    [newGroup, 'add_members'],
  ];
  for (const [group, op] of membership) {
    if (!group) continue;
    ctx.events.send(everyone, {
      type: 'user_group',
      op,
      group_id: systemGroupId(ctx.db, group as SystemGroupName),
      user_ids: [target.id],
    });
  }
}

export const userAdminResource: ResourceModule = {
  name: 'user-admin',
  routes(api, ctx) {
    api.patch(
      '/users/:user_id',
      {
        ids: ['user_id'],
        params: {
          full_name: p.string().optional(),
          role: p.json(z.number().int()).optional(),
          profile_data: p.json(z.array(itemSchema)).optional(),
        },
      },
      ({ user, ids, params }) => {
        requireAdmin(user);
        const target = getUserRow(ctx.db, ids.user_id);
        if (!target || isSystemBot(target)) throw badRequest('No such user');
        // Everything is checked before anything changes.
        const fullName =
          params.full_name === undefined ? undefined : checkFullName(params.full_name);
        const role = params.role !== undefined && params.role !== target.role ? params.role : null;
        if (role !== null) checkRoleChange(ctx, user, target, role);
        if (params.profile_data?.length && target.is_bot === 1) {
          throw badRequest('Bots do not have custom profile fields');
        }
        if (role !== null) changeRole(ctx, target, role);
        if (fullName !== undefined && fullName !== target.full_name) {
          ctx.db.prepare('UPDATE users SET full_name = ? WHERE id = ?').run(fullName, target.id);
          ctx.events.send(activeUserIds(ctx.db), {
            type: 'realm_user',
            op: 'update',
            person: { user_id: target.id, full_name: fullName },
          });
        }
        if (params.profile_data?.length) {
          updateProfileData(ctx, user, target.id, params.profile_data);
        }
      },
    );
  },
};
