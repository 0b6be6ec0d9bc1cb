// Organization administration: the realm's profile and settings (PATCH /realm), defaults for new
// users, people (role, name, profile data, deactivation, creation) and invitation links. Payloads
// are checked here with the server's own rules (shared/admin/), so a bad value never leaves the
// renderer; the server still decides and its refusal comes back as the call's error.
import * as z from 'zod';
import type { SuccessEnvelope } from '../api/endpoints';
import { forAccount, userId } from './common';
import { method } from './define';
import {
  BOOLEAN_REALM_SETTINGS,
  CODE_BLOCK_LANGUAGE_MAX_LENGTH,
  EDIT_HISTORY_POLICIES,
  REALM_DESCRIPTION_MAX_LENGTH,
  REALM_NAME_MAX_LENGTH,
} from '../admin/realm-settings';
import { userDefaultsChanges } from '../admin/user-defaults';
import { groupSettingValue } from './admin-people';

/** Seconds, or "unlimited" (the API's word for no limit). */
const timeLimit = z.union([z.number().int().positive(), z.literal('unlimited')]);
const groupChange = z.strictObject({ new: groupSettingValue, old: groupSettingValue.optional() });

/** Every organization setting the screens change, with the public server's value rules. */
export const realmChanges = z
  .strictObject({
    name: z.string().trim().min(1).max(REALM_NAME_MAX_LENGTH).optional(),
    description: z.string().max(REALM_DESCRIPTION_MAX_LENGTH).optional(),
    default_language: z.string().min(2).max(10).optional(),
    default_code_block_language: z.string().max(CODE_BLOCK_LANGUAGE_MAX_LENGTH).optional(),
    video_chat_provider: z.number().int().nonnegative().optional(),
    message_edit_history_visibility_policy: z.enum(EDIT_HISTORY_POLICIES).optional(),
    message_content_edit_limit_seconds: timeLimit.optional(),
    message_content_delete_limit_seconds: timeLimit.optional(),
    move_messages_within_stream_limit_seconds: timeLimit.optional(),
    move_messages_between_streams_limit_seconds: timeLimit.optional(),
    message_retention_days: z
      .union([z.number().int().positive(), z.literal('unlimited')])
      .optional(),
    waiting_period_threshold: z.number().int().nonnegative().optional(),
    ...Object.fromEntries(
      [
        ...BOOLEAN_REALM_SETTINGS,
        'invite_required',
        'emails_restricted_to_domains',
        'disallow_disposable_email_addresses',
      ].map((name) => [name, z.boolean().optional()]),
    ),
    /** Group settings by name (can_create_public_channel_group, ...). */
    groups: z.record(z.string().regex(/^[a-z_]+$/), groupChange).optional(),
  })
  .refine((changes) => Object.keys(changes).length > 0, 'no setting to change');
export type RealmChanges = z.input<typeof realmChanges>;

/** An invitation (GET /invites): a reusable link, or one sent to an e-mail address. */
export interface Invite {
  id: number;
  invitedByUserId: number;
  /** UNIX seconds. */
  invited: number;
  /** UNIX seconds, or null for one that never expires. */
  expiry: number | null;
  invitedAs: number;
  /** A reusable link's URL; null for an e-mail invitation. */
  linkUrl: string | null;
  /** An e-mail invitation's address; null for a link. */
  email: string | null;
}

const role = z.union(
  [100, 200, 300, 400, 600].map((r) => z.literal(r)) as [
    z.ZodLiteral<number>,
    z.ZodLiteral<number>,
  ],
);

export const adminRealmMethods = {
  updateRealm: method<SuccessEnvelope>()(forAccount({ changes: realmChanges })),
  updateUserSettingsDefaults: method<SuccessEnvelope>()(
    forAccount({ changes: userDefaultsChanges }),
  ),
  createUser: method<{ userId: number }>()(
    forAccount({
      email: z
        .string()
        .trim()
        .regex(/^[^\s@]+@[^\s@]+$/, 'not an email address'),
      password: z.string().min(6).max(100),
      fullName: z.string().trim().min(1).max(100),
    }),
  ),
  /** Role, name and custom profile field values of someone else (administrators). */
  updateUser: method<SuccessEnvelope>()(
    forAccount({
      userId,
      role: role.optional(),
      fullName: z.string().trim().min(1).max(100).optional(),
      profileData: z
        .array(
          z.strictObject({
            id: z.number().int().positive(),
            value: z.union([z.string(), z.array(z.number().int()), z.null()]),
          }),
        )
        .optional(),
    }),
  ),
  deactivateUser: method<SuccessEnvelope>()(forAccount({ userId })),
  reactivateUser: method<SuccessEnvelope>()(forAccount({ userId })),
  createInviteLink: method<{ inviteLink: string }>()(
    forAccount({
      inviteAs: role,
      /** null: never expires. */
      expiresInMinutes: z.number().int().positive().nullable(),
    }),
  ),
  listInvites: method<Invite[]>()(forAccount({})),
  revokeInviteLink: method<SuccessEnvelope>()(
    forAccount({ inviteId: z.number().int().positive() }),
  ),
  /** E-mail invitations, which a public server sends where the realm allows (the local one cannot). */
  sendEmailInvites: method<SuccessEnvelope>()(
    forAccount({
      emails: z.array(z.string().trim().min(1).max(254)).min(1).max(100),
      inviteAs: role,
      expiresInMinutes: z.number().int().positive().nullable(),
    }),
  ),
  revokeEmailInvite: method<SuccessEnvelope>()(
    forAccount({ inviteId: z.number().int().positive() }),
  ),
  resendEmailInvite: method<SuccessEnvelope>()(
    forAccount({ inviteId: z.number().int().positive() }),
  ),
} as const;
