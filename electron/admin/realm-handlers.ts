// Handlers of the organization administration domain (shared/ipc/admin-realm.ts): each turns a
// validated payload into its chat-API call; refusals travel back as the server sent them.
import { adminRealmEndpoints as api } from '../../shared/api/admin-realm-endpoints';
import type { MethodHandlers } from '../../shared/ipc/contract';
import type { adminRealmMethods, RealmChanges } from '../../shared/ipc/admin-realm';
import type { AccountSession } from '../accounts/session';

export type AdminRealmHandlers = Pick<MethodHandlers, keyof typeof adminRealmMethods>;

/** PATCH /realm parameters: group settings by name, time limits and "unlimited" JSON-encoded. */
function realmParams(changes: RealmChanges): Record<string, unknown> {
  const { groups, ...settings } = changes;
  const params: Record<string, unknown> = { ...settings, ...(groups ?? {}) };
  // These take an integer or a word (Json[int | str]): the word travels JSON-encoded too.
  for (const [name, value] of Object.entries(params)) {
    if (value === 'unlimited') params[name] = JSON.stringify(value);
  }
  return params;
}

export function adminRealmHandlers(deps: {
  signedInSession(accountId: string): AccountSession;
}): AdminRealmHandlers {
  const client = (accountId: string) => deps.signedInSession(accountId).client;
  return {
    updateRealm: ({ accountId, changes }) =>
      client(accountId).call(api.updateRealm, realmParams(changes)),
    updateUserSettingsDefaults: ({ accountId, changes }) =>
      client(accountId).call(api.updateUserSettingsDefaults, changes),
    createUser: async ({ accountId, email, password, fullName }) => {
      const res = await client(accountId).call(api.createUser, {
        email,
        password,
        full_name: fullName,
      });
      return { userId: res.user_id };
    },
    updateUser: ({ accountId, userId, role, fullName, profileData }) =>
      client(accountId).call(api.updateUser, {
        user_id: userId,
        role,
        full_name: fullName,
        profile_data: profileData,
      }),
    deactivateUser: ({ accountId, userId }) =>
      client(accountId).call(api.deactivateUser, { user_id: userId }),
    reactivateUser: ({ accountId, userId }) =>
      client(accountId).call(api.reactivateUser, { user_id: userId }),
    createInviteLink: async ({ accountId, inviteAs, expiresInMinutes }) => {
      const res = await client(accountId).call(api.createInviteLink, {
        invite_as: inviteAs,
        invite_expires_in_minutes: expiresInMinutes,
      });
      return { inviteLink: res.invite_link };
    },
    listInviteLinks: async ({ accountId }) => {
      const res = await client(accountId).call(api.listInvites, {});
      return res.invites
        .filter((invite) => invite.is_multiuse && invite.link_url)
        .map((invite) => ({
          id: invite.id,
          invitedByUserId: invite.invited_by_user_id,
          invited: invite.invited,
          expiry: invite.expiry_date,
          invitedAs: invite.invited_as,
          linkUrl: invite.link_url!,
        }));
    },
    revokeInviteLink: ({ accountId, inviteId }) =>
      client(accountId).call(api.revokeInviteLink, { invite_id: inviteId }),
  };
}
