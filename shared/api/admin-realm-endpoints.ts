// The chat-API calls of organization administration (electron/admin/realm-handlers.ts), beside
// the main endpoint table so that file stays as other domains left it.
import { endpoint, type Endpoint, type JsonObject, type SuccessEnvelope } from './endpoints';

// The table's rule for retries: GET, PUT and DELETE may be repeated, POST and PATCH only if said so.
const call = <Params, Response>(
  method: Endpoint<Params, Response>['method'],
  path: string,
  idempotent?: boolean,
): Endpoint<Params, Response> => endpoint(method, path, { idempotent });

export interface InviteObject {
  id: number;
  invited_by_user_id: number;
  invited: number;
  expiry_date: number | null;
  invited_as: number;
  is_multiuse: boolean;
  link_url?: string;
  /** An e-mail invitation's address (is_multiuse false). */
  email?: string;
}

export const adminRealmEndpoints = {
  updateRealm: call<Record<string, unknown>, SuccessEnvelope & JsonObject>('PATCH', '/realm'),
  updateUserSettingsDefaults: call<Record<string, unknown>, SuccessEnvelope>(
    'PATCH',
    '/realm/user_settings_defaults',
  ),
  createUser: call<
    { email: string; password: string; full_name: string },
    SuccessEnvelope & { user_id: number }
  >('POST', '/users'),
  updateUser: call<
    {
      user_id: number;
      role?: number;
      full_name?: string;
      profile_data?: Array<{ id: number; value: string | number[] | null }>;
    },
    SuccessEnvelope
  >('PATCH', '/users/{user_id}'),
  deactivateUser: call<{ user_id: number }, SuccessEnvelope>('DELETE', '/users/{user_id}', false),
  reactivateUser: call<{ user_id: number }, SuccessEnvelope>('POST', '/users/{user_id}/reactivate'),
  createInviteLink: call<
    { invite_as: number; invite_expires_in_minutes: number | null },
    SuccessEnvelope & { invite_link: string }
  >('POST', '/invites/multiuse'),
  listInvites: call<Record<string, never>, SuccessEnvelope & { invites: InviteObject[] }>(
    'GET',
    '/invites',
  ),
  revokeInviteLink: call<{ invite_id: number }, SuccessEnvelope>(
    'DELETE',
    '/invites/multiuse/{invite_id}',
  ),
  /** E-mail invitations: addresses comma- or newline-separated, stream_ids required. */
  sendInvites: call<
    {
      invitee_emails: string;
      invite_as: number;
      invite_expires_in_minutes: number | null;
      stream_ids: number[];
      include_realm_default_subscriptions: boolean;
    },
    SuccessEnvelope
  >('POST', '/invites'),
  revokeInvite: call<{ invite_id: number }, SuccessEnvelope>('DELETE', '/invites/{invite_id}'),
  resendInvite: call<{ invite_id: number }, SuccessEnvelope>('POST', '/invites/{invite_id}/resend'),
} as const;
