// What the signed-in person may do to a topic, read as the public web app reads it
// (settings_data.user_can_move_messages_to_another_topic / _between_streams / user_can_resolve_topic,
// message_edit.is_topic_editable / is_stream_editable), so the menus offer only what the server
// would allow:
// - the realm's group settings where the server has them (can_move_messages_between_topics_group
//   FL316, can_move_messages_between_channels_group FL310, can_resolve_topics_group FL367), or the
//   policies they replaced on older servers (edit_topic_policy, move_messages_between_streams_policy;
//   before FL367 whoever may move topics may resolve them);
// - the channel's own group settings, which add people (FL 390+: can_move_messages_within_channel_
//   group, can_move_messages_out_of_channel_group, can_resolve_topics_group);
// - the realm's time limits for non-moderators, when the message the move starts at is known.
// The server still decides: a move it refuses shows its reason and changes nothing.
import type { Channel, GroupSettingValue } from '../../../shared/api/types';
import { isInGroupSetting } from '../../../shared/group-setting';
import { useMemo } from 'react';
import { selectActiveAccount, type AccountState } from '../../store';
import { useChatStore } from '../../store/hooks';
import { realmAllows, selfRole } from '../channels/channel-permissions';

export interface TopicPermissions {
  /** Rename the topic, or move messages to another topic of the channel. */
  moveTopics: boolean;
  /** Move messages to another channel. */
  moveChannels: boolean;
  resolve: boolean;
}

export const NO_TOPIC_PERMISSIONS: TopicPermissions = {
  moveTopics: false,
  moveChannels: false,
  resolve: false,
};

type Inputs = Pick<AccountState, 'selfUserId' | 'users' | 'userGroups' | 'settings' | 'channels'>;

const ADMIN = 200;
const MODERATOR = 300;
const MEMBER = 400;

/** The older common policy values (edit_topic_policy, move_messages_between_streams_policy). */
const POLICY = { members: 1, admins: 2, fullMembers: 3, moderators: 4, everyone: 5, nobody: 6 };

/** settings_data.user_has_permission for an older policy value. */
function policyAllows(account: Inputs, policy: unknown): boolean {
  if (policy === POLICY.nobody) return false;
  const role = selfRole(account);
  if (role <= ADMIN) return true;
  if (role > MEMBER) return policy === POLICY.everyone;
  if (policy === POLICY.admins) return false;
  if (role <= MODERATOR) return true;
  if (policy === POLICY.moderators) return false;
  if (policy !== POLICY.fullMembers) return true;
  // A full member has been in the organization for the realm's waiting period.
  const joined = Date.parse(account.users.users.get(account.selfUserId)?.date_joined ?? '');
  const days = Number(account.settings.realm.realm_waiting_period_threshold ?? 0);
  return Number.isNaN(joined) || (Date.now() - joined) / 86_400_000 >= days;
}

/** A realm permission: its group setting where the server has it, else the policy it replaced. */
function realmPermits(account: Inputs, group: string, policy: string): boolean {
  const realm = account.settings.realm;
  if (realm[`realm_${group}`] !== undefined) return realmAllows(account, group);
  if (realm[`realm_${policy}`] !== undefined)
    return policyAllows(account, realm[`realm_${policy}`]);
  // Neither is in the snapshot: leave it to the server.
  return true;
}

function channelPermits(account: Inputs, channel: Channel | undefined, setting: keyof Channel) {
  const value = channel?.[setting] as GroupSettingValue | undefined;
  return isInGroupSetting(account.userGroups.groups, value, account.selfUserId);
}

/** Whether a message sent at `sentAt` is still within a realm move limit (null: no limit). */
function withinLimit(account: Inputs, limitSetting: string, sentAt: number, now: number) {
  const limit = account.settings.realm[`realm_${limitSetting}`];
  return typeof limit !== 'number' || limit <= 0 || now / 1000 - sentAt <= limit;
}

/**
 * What the person may do to a channel's topic. `sentAt` (seconds) is the message a move starts at,
 * when known: non-moderators may move only messages within the realm's time limits.
 */
export function topicPermissions(
  account: Inputs | undefined,
  streamId: number,
  sentAt?: number,
  now = Date.now(),
): TopicPermissions {
  if (!account) return NO_TOPIC_PERMISSIONS;
  const channel = account.channels.channels.get(streamId);
  const hasResolveGroup = account.settings.realm.realm_can_resolve_topics_group !== undefined;
  let moveTopics =
    realmPermits(account, 'can_move_messages_between_topics_group', 'edit_topic_policy') ||
    channelPermits(account, channel, 'can_move_messages_within_channel_group');
  let moveChannels =
    realmPermits(
      account,
      'can_move_messages_between_channels_group',
      'move_messages_between_streams_policy',
    ) || channelPermits(account, channel, 'can_move_messages_out_of_channel_group');
  const resolve = hasResolveGroup
    ? realmAllows(account, 'can_resolve_topics_group') ||
      channelPermits(account, channel, 'can_resolve_topics_group')
    : moveTopics;
  if (sentAt !== undefined && selfRole(account) > MODERATOR) {
    moveTopics &&= withinLimit(account, 'move_messages_within_stream_limit_seconds', sentAt, now);
    moveChannels &&= withinLimit(
      account,
      'move_messages_between_streams_limit_seconds',
      sentAt,
      now,
    );
  }
  return { moveTopics, moveChannels, resolve };
}

/** The web app's names: "Move topic" when only channels change, "Rename topic" when only names. */
export function moveLabel(p: Pick<TopicPermissions, 'moveTopics' | 'moveChannels'>): string {
  if (!p.moveChannels) return 'Rename topic';
  if (!p.moveTopics) return 'Move topic';
  return 'Move or rename topic';
}

/** topicPermissions for the active account, re-read when the realm, people or channels change. */
export function useTopicPermissions(streamId: number, sentAt?: number): TopicPermissions {
  // Each slice alone, so message events do not re-render every topic row's menu.
  const selfUserId = useChatStore((s) => selectActiveAccount(s)?.selfUserId);
  const settings = useChatStore((s) => selectActiveAccount(s)?.settings);
  const users = useChatStore((s) => selectActiveAccount(s)?.users);
  const userGroups = useChatStore((s) => selectActiveAccount(s)?.userGroups);
  const channels = useChatStore((s) => selectActiveAccount(s)?.channels);
  return useMemo(
    () =>
      selfUserId === undefined || !settings || !users || !userGroups || !channels
        ? NO_TOPIC_PERMISSIONS
        : topicPermissions({ selfUserId, settings, users, userGroups, channels }, streamId, sentAt),
    [selfUserId, settings, users, userGroups, channels, streamId, sentAt],
  );
}
