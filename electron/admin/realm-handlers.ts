// Handlers of the organization administration domain (shared/ipc/admin-realm.ts): each turns a
// validated payload into its chat-API call; refusals travel back as the server sent them.
import { adminRealmEndpoints as api } from '../../shared/api/admin-realm-endpoints';
import type { MethodHandlers } from '../../shared/ipc/contract';
import type { adminRealmMethods, RealmChanges } from '../../shared/ipc/admin-realm';
import type { AccountSession } from '../accounts/session';
import { ApiError } from '../api/errors';

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

/**
 * A refused invitation with the addresses the server skipped and why (INVITATION_FAILED's
 * `errors`: [address, reason, deactivated]), which the page shows as the server's answer.
 */
function withSkippedAddresses(error: unknown): unknown {
  if (!(error instanceof ApiError)) return error;
  const skipped = error.body?.errors;
  if (!Array.isArray(skipped) || skipped.length === 0) return error;
  const lines = (skipped as unknown[])
    .filter((entry): entry is [string, string, ...unknown[]] => Array.isArray(entry))
    .map(([address, reason]) => `${address}: ${reason}`);
  return new ApiError(
    error.kind,
    error.code,
    [error.message, ...lines].join('\n'),
    error.status,
    error.body,
  );
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
    listInvites: async ({ accountId }) => {
      const res = await client(accountId).call(api.listInvites, {});
      return res.invites.map((invite) => ({
        id: invite.id,
        invitedByUserId: invite.invited_by_user_id,
        invited: invite.invited,
        expiry: invite.expiry_date,
        invitedAs: invite.invited_as,
        linkUrl: invite.is_multiuse ? (invite.link_url ?? null) : null,
        email: invite.is_multiuse ? null : (invite.email ?? null),
      }));
    },
    revokeInviteLink: ({ accountId, inviteId }) =>
      client(accountId).call(api.revokeInviteLink, { invite_id: inviteId }),
    sendEmailInvites: async ({ accountId, emails, inviteAs, expiresInMinutes }) => {
      try {
        return await client(accountId).call(api.sendInvites, {
          invitee_emails: emails.join(','),
          invite_as: inviteAs,
          invite_expires_in_minutes: expiresInMinutes,
          // The organization's default channels, as the public web app's form starts.
          stream_ids: [],
          include_realm_default_subscriptions: true,
        });
      } catch (error) {
        throw withSkippedAddresses(error);
      }
    },
    revokeEmailInvite: ({ accountId, inviteId }) =>
      client(accountId).call(api.revokeInvite, { invite_id: inviteId }),
    resendEmailInvite: ({ accountId, inviteId }) =>
      client(accountId).call(api.resendInvite, { invite_id: inviteId }),
  };
}
