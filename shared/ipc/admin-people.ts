// Administration of channels, user groups and bots (Settings > Organization). Every change goes to
// the server through main; what the screens show comes back as events. Bot API keys cross to the
// renderer only as the answer to an explicit "show key" or "regenerate" of a bot the user owns,
// for the page to show once: the store never holds one (main strips api_key from realm_bots).
import * as z from 'zod';
import type { SuccessEnvelope } from '../api/endpoints';
import { forAccount, streamId, userId } from './common';
import { method } from './define';

const groupId = z.number().int().positive();
const ids = z.array(z.number().int().positive()).max(10_000);

/** A group-setting value: a group id, or direct members plus subgroups (FL 303). */
export const groupSettingValue = z.union([
  z.number().int().nonnegative(),
  z.strictObject({ direct_members: ids, direct_subgroups: ids }),
]);

const channelGroupSettings = z
  .strictObject({
    can_add_subscribers_group: groupSettingValue,
    can_remove_subscribers_group: groupSettingValue,
    can_administer_channel_group: groupSettingValue,
    can_send_message_group: groupSettingValue,
    can_subscribe_group: groupSettingValue,
  })
  .partial();

const userGroupSettings = z
  .strictObject({
    can_add_members_group: groupSettingValue,
    can_join_group: groupSettingValue,
    can_leave_group: groupSettingValue,
    can_manage_group: groupSettingValue,
    can_mention_group: groupSettingValue,
    can_remove_members_group: groupSettingValue,
  })
  .partial();

export type ChannelGroupSettings = z.infer<typeof channelGroupSettings>;
export type UserGroupSettings = z.infer<typeof userGroupSettings>;

const channelName = z.string().trim().min(1).max(256);
const token = z.string().min(8).max(64);

/** What downloading a zuliprc gives: saved by main (desktop), or the text for the page to download. */
export type ZuliprcResult = { savedTo: string } | { fileName: string; content: string } | null;

export const adminPeopleMethods = {
  // Channels
  adminCreateChannel: method<SuccessEnvelope>()(
    forAccount({
      name: channelName,
      description: z.string().max(4096),
      privacy: z.enum(['public', 'private']),
      /** Private channels only: whether subscribers see messages from before they joined. */
      historyPublic: z.boolean().optional(),
      principals: z.array(userId).max(1000),
      /** Whether the creator is subscribed too (an administrator may create one for others). */
      subscribeSelf: z.boolean(),
      isDefault: z.boolean().optional(),
      groupSettings: channelGroupSettings.optional(),
    }),
  ),
  updateChannel: method<SuccessEnvelope>()(
    forAccount({
      channelId: streamId,
      newName: channelName.optional(),
      description: z.string().max(4096).optional(),
      isPrivate: z.boolean().optional(),
      historyPublic: z.boolean().optional(),
      groupSettings: channelGroupSettings.optional(),
    }),
  ),
  archiveChannel: method<SuccessEnvelope>()(forAccount({ channelId: streamId })),
  unarchiveChannel: method<SuccessEnvelope>()(forAccount({ channelId: streamId })),
  setDefaultChannel: method<SuccessEnvelope>()(
    forAccount({ channelId: streamId, isDefault: z.boolean() }),
  ),

  // User groups
  createUserGroup: method<SuccessEnvelope & { group_id: number }>()(
    forAccount({
      name: z.string().trim().min(1).max(100),
      description: z.string().max(1024),
      members: z.array(userId).max(10_000),
      subgroups: z.array(groupId).max(1000).optional(),
      settings: userGroupSettings.optional(),
    }),
  ),
  updateUserGroup: method<SuccessEnvelope>()(
    forAccount({
      groupId,
      name: z.string().trim().min(1).max(100).optional(),
      description: z.string().max(1024).optional(),
      settings: userGroupSettings.optional(),
      /** Only false: reactivating (deactivation has its own call). */
      deactivated: z.literal(false).optional(),
    }),
  ),
  updateUserGroupMembers: method<SuccessEnvelope>()(
    forAccount({ groupId, add: z.array(userId).max(10_000), remove: z.array(userId).max(10_000) }),
  ),
  updateUserGroupSubgroups: method<SuccessEnvelope>()(
    forAccount({ groupId, add: z.array(groupId).max(1000), remove: z.array(groupId).max(1000) }),
  ),
  deactivateUserGroup: method<SuccessEnvelope>()(forAccount({ groupId })),

  // Bots
  createBot: method<{ userId: number }>()(
    forAccount({
      fullName: z.string().trim().min(1).max(100),
      shortName: z
        .string()
        .trim()
        .regex(/^[a-zA-Z0-9_.+-]+$/)
        .max(100),
      botType: z.union([z.literal(1), z.literal(2), z.literal(3)]),
      payloadUrl: z.string().url().max(2048).optional(),
      interfaceType: z.union([z.literal(1), z.literal(2)]).optional(),
      /** A picture the user chose (intakeFile/chooseFiles token). */
      avatarToken: token.optional(),
    }),
  ),
  updateBot: method<SuccessEnvelope>()(
    forAccount({
      botId: userId,
      fullName: z.string().trim().min(1).max(100).optional(),
      ownerId: userId.optional(),
      /** An outgoing webhook's endpoint; sent with interfaceType, as the public server needs both. */
      payloadUrl: z.string().url().max(2048).optional(),
      interfaceType: z.union([z.literal(1), z.literal(2)]).optional(),
      avatarToken: token.optional(),
    }),
  ),
  deactivateBot: method<SuccessEnvelope>()(forAccount({ botId: userId })),
  reactivateBot: method<SuccessEnvelope>()(forAccount({ botId: userId })),
  /** The key of a bot the user owns, for the page to show once (never stored). */
  showBotKey: method<{ apiKey: string }>()(forAccount({ botId: userId })),
  /** A new key (the old one stops working), shown once like showBotKey. */
  regenerateBotKey: method<{ apiKey: string }>()(forAccount({ botId: userId })),
  /** The bot's zuliprc: main's save dialog on desktop; in browser mode its text for a download. */
  saveBotZuliprc: method<ZuliprcResult>()(forAccount({ botId: userId })),
} as const;
