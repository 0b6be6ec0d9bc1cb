// Users: GET /users, GET /users/me, GET /users/{user_id}, POST /users (spec 4.7, 4.17), realm_user
// state in /register and realm_user add events.
import * as z from 'zod';
import type { ResourceModule } from '../module';
import type { AuthUser, RealmContext } from '../../realm/context';
import { p, parsePathId } from '../../http/params';
import { badRequest } from '../../http/errors';
import { createUser } from '../../realm/accounts';
import { hashPasswordAsync } from '../../http/auth';
import { botObject } from './bot-events';
import { checkFullName } from '../../realm/text-rules';
import { isAdmin, isGuest, isModerator, Role } from '../../realm/roles';
import {
  canAccessUser,
  canSeeChannelMetadata,
  isSubscribed,
  realmGroupSettingAllows,
  requireAdmin,
} from '../../realm/permissions';
import { getChannel } from '../channels/channels-store';
import { LIMITS } from '../../config';
import { subscribeToDefaultChannels } from '../channels/subscriptions';
import { isSystemBot } from './system-bots';
import { listProfileFields } from '../realm/profile-fields';
import { RawJson } from '../../http/raw-json';
import {
  accessUserRow,
  allUserRows,
  botUserRows,
  findUserRowByEmail,
  avatarUrl,
  emailVisibilityByUser,
  emailVisibilityOf,
  getUserRow,
  profileDataByUser,
  toViewer,
  userListJson,
  userObject,
  type UserRow,
} from './users-store';

const viewParams = {
  client_gravatar: p.bool().default(true).alias('client_extavatar'),
  include_custom_profile_fields: p.bool().default(false),
};

const EMAIL = z.string().regex(/^[^\s@]+@[^\s@]+$/);

export function maxMessageId(ctx: RealmContext, user: AuthUser): number {
  const row = ctx.db
    .prepare<[number], { id: number | null }>(
      'SELECT MAX(message_id) AS id FROM user_messages WHERE user_id = ?',
    )
    .get(user.id);
  return row?.id ?? -1;
}

/** Sends realm_user add for a new user to everyone who can access them, each in their own view. */
export function announceNewUser(ctx: RealmContext, row: UserRow): void {
  const viewers = new Map(allUserRows(ctx.db).map((u) => [u.id, u]));
  const visibility = emailVisibilityByUser(ctx.db);
  const profileData = profileDataByUser(ctx.db);
  const recipients = [...viewers.values()].filter((u) => u.is_active === 1).map((u) => u.id);
  ctx.events.send(recipients, (queue) => {
    const viewer = viewers.get(queue.userId);
    if (!viewer) return null;
    const auth = toViewer(viewer);
    if (!canAccessUser(ctx.db, auth, row.id)) return null;
    return {
      type: 'realm_user',
      op: 'add',
      person: userObject(row, auth, {
        clientExtavatar: queue.options.clientExtavatar,
        profileData,
        visibility,
      }),
    };
  });
}

export const usersResource: ResourceModule = {
  name: 'users',
  routes(api, ctx) {
    api.get(
      '/users',
      { params: { ...viewParams, user_ids: p.json(z.array(z.number().int())).optional() } },
      ({ user, params }) => {
        const visibility = emailVisibilityByUser(ctx.db);
        const profileData = params.include_custom_profile_fields
          ? profileDataByUser(ctx.db)
          : undefined;
        // The realm's members: system bots are cross-realm bots (register's cross_realm_bots),
        // not listed here, as the public server lists only its realm's users.
        let rows = allUserRows(ctx.db).filter(
          (row) => !isSystemBot(row) && canAccessUser(ctx.db, user, row.id),
        );
        if (params.user_ids) {
          const wanted = new Set(params.user_ids);
          for (const id of wanted) {
            if (!rows.some((row) => row.id === id)) throw badRequest('Invalid user ID');
          }
          rows = rows.filter((row) => wanted.has(row.id));
        }
        return {
          members: rows.map((row) =>
            userObject(row, user, {
              clientExtavatar: params.client_gravatar,
              profileData,
              visibility,
            }),
          ),
        };
      },
    );

    api.get('/users/me', { params: viewParams }, ({ user }) => {
      const row = getUserRow(ctx.db, user.id)!;
      return {
        // Your own avatar always comes as a URL, whatever client_gravatar says (as on the public
        // server), so a client never has to compute its own.
        // One's own email is always shown (canSeeDeliveryEmail): no visibility to read.
        ...userObject(row, user, {
          clientExtavatar: false,
          profileData: profileDataByUser(ctx.db, row.id),
        }),
        max_message_id: maxMessageId(ctx, user),
      };
    });

    // The public server takes an email in place of the id here (GET /users/{email}).
    api.get('/users/:user_id_or_email', { params: viewParams }, ({ user, params, path }) => {
      const key = path.user_id_or_email;
      const row = /^\d+$/.test(key)
        ? getUserRow(ctx.db, parsePathId('user_id', key))
        : findUserRowByEmail(ctx.db, user, key);
      if (!row || !canAccessUser(ctx.db, user, row.id)) throw badRequest('No such user');
      return {
        user: userObject(row, user, {
          clientExtavatar: params.client_gravatar,
          profileData: params.include_custom_profile_fields
            ? profileDataByUser(ctx.db, row.id)
            : undefined,
          visibility: emailVisibilityOf(ctx.db, row.id),
        }),
      };
    });

    api.get(
      '/users/:user_id/subscriptions/:stream_id',
      { ids: ['user_id', 'stream_id'] },
      ({ user, ids }) => {
        const target = accessUserRow(ctx.db, user, getUserRow(ctx.db, ids.user_id));
        const channel = getChannel(ctx.db, ids.stream_id);
        // Administrators may ask about private channels they are not in (allow_realm_admin).
        if (!channel || !canSeeChannelMetadata(ctx.db, user, channel)) {
          throw badRequest('Invalid channel ID');
        }
        return { is_subscribed: isSubscribed(ctx.db, target.id, channel.id) };
      },
    );

    api.post(
      '/users',
      { params: { email: p.string(), password: p.string(), full_name: p.string() } },
      async ({ user, params, meter }) => {
        requireAdmin(user);
        if (!user.can_create_users) throw badRequest('User not authorized to create users');
        const email = params.email.trim();
        if (!EMAIL.safeParse(email).success) throw badRequest(`Invalid email '${email}'`);
        const fullName = checkFullName(params.full_name);
        if (
          params.password.length < LIMITS.passwordMinLength ||
          params.password.length > LIMITS.passwordMaxLength
        ) {
          throw badRequest('The password is too weak.');
        }
        const isTaken = () =>
          ctx.db
            .prepare('SELECT 1 FROM users WHERE email = ? OR delivery_email = ?')
            .get(email, email) !== undefined;
        if (isTaken()) throw badRequest(`Email '${email}' already in use`);
        const passwordHash = await meter.offLoop(hashPasswordAsync(params.password));
        // Another request may have taken the address while the hash was computed.
        if (isTaken()) throw badRequest(`Email '${email}' already in use`);
        const created = createUser(ctx.db, { email, fullName, role: Role.member, passwordHash });
        announceNewUser(ctx, getUserRow(ctx.db, created.id)!);
        subscribeToDefaultChannels(ctx, created.id);
        return { user_id: created.id };
      },
    );
  },

  initialState(ctx, user, request) {
    const state: Record<string, unknown> = {};
    if (request.wants('realm_user')) {
      // Built as JSON by SQLite and sent as it is (userListJson). System bots (system-bots.ts) are
      // cross-realm bots in the API, not realm members.
      const systemBots = botUserRows(ctx.db).filter((r) => isSystemBot(r));
      const listed = (active: boolean) =>
        new RawJson(
          userListJson(ctx.db, user, {
            clientExtavatar: request.clientExtavatar,
            active,
            leaveOut: systemBots.map((r) => r.email),
          }),
        );
      state.realm_users = listed(true);
      state.realm_non_active_users = listed(false);
      // A bot's address is always shown (canSeeDeliveryEmail): no visibility to read for them.
      const options = { clientExtavatar: request.clientExtavatar };
      state.cross_realm_bots = systemBots
        .filter((r) => canAccessUser(ctx.db, user, r.id))
        .map((r) => ({ ...userObject(r, user, options), is_system_bot: true }));
      const me = getUserRow(ctx.db, user.id)!;
      Object.assign(state, {
        user_id: user.id,
        email: me.email,
        delivery_email: me.delivery_email,
        full_name: me.full_name,
        is_admin: isAdmin(me.role),
        is_owner: me.role === Role.owner,
        is_moderator: isModerator(me.role),
        is_guest: isGuest(me.role),
        is_billing_admin: false,
        role: me.role,
        date_joined: me.date_joined,
        avatar_source: me.avatar_source,
        // Always a URL for yourself (the public server ignores client_gravatar here).
        avatar_url: avatarUrl(me),
        avatar_url_medium: avatarUrl(me, true),
        avatar_version: me.avatar_version,
        can_create_public_streams: realmGroupSettingAllows(
          ctx.db,
          user,
          'can_create_public_channel_group',
        ),
        can_create_private_streams: realmGroupSettingAllows(
          ctx.db,
          user,
          'can_create_private_channel_group',
        ),
        can_create_web_public_streams: false,
        can_create_streams: realmGroupSettingAllows(
          ctx.db,
          user,
          'can_create_public_channel_group',
        ),
        can_subscribe_other_users: realmGroupSettingAllows(
          ctx.db,
          user,
          'can_add_subscribers_group',
        ),
        can_invite_others_to_realm: realmGroupSettingAllows(ctx.db, user, 'can_invite_users_group'),
      });
    }
    if (request.wants('realm_bot')) {
      // Only the bots read: realm_user above already read all 10,000 rows of a large organization,
      // and reading them all again here cost its first register 40-130 ms (docs/benchmarks.md).
      state.realm_bots = botUserRows(ctx.db)
        .filter((r) => !isSystemBot(r) && (isAdmin(user.role) || r.bot_owner_id === user.id))
        .map((r) => botObject(ctx.db, r));
    }
    if (request.wants('custom_profile_fields')) {
      state.custom_profile_fields = listProfileFields(ctx.db);
      state.custom_profile_field_types = CUSTOM_PROFILE_FIELD_TYPES;
    }
    return state;
  },
};

const CUSTOM_PROFILE_FIELD_TYPES = {
  SHORT_TEXT: { id: 1, name: 'Text (short)' },
  LONG_TEXT: { id: 2, name: 'Text (long)' },
  SELECT: { id: 3, name: 'List of options' },
  DATE: { id: 4, name: 'Date picker' },
  URL: { id: 5, name: 'Link' },
  USER: { id: 6, name: 'Person picker' },
  EXTERNAL_ACCOUNT: { id: 7, name: 'External account' },
  PRONOUNS: { id: 8, name: 'Pronouns' },
};
