// What mention completion needs from the account's state: which groups the user may mention, which
// wildcards the channel allows, and who is in the current conversation (most recent sender first).
import type { GroupSettingValue, UserGroup } from '../../../shared/api/types';
import type { AccountState } from '../../store';
import { groupsOf } from '../messages/MentionStyles';
import type { MentionContext } from './autocomplete';
import type { Destination } from './drafts';

/** Channels and topics with more people than this need can_mention_many_users_group for wildcards. */
const WILDCARD_MENTION_THRESHOLD = 15;

/** Whether `userId` is in a group setting: a group (directly or through subgroups) or a list. */
export function inGroupSetting(
  value: GroupSettingValue | undefined,
  userId: number,
  groups: ReadonlyMap<number, UserGroup>,
): boolean {
  if (value === undefined) return false;
  const mine = new Set(groupsOf(groups, userId));
  if (typeof value === 'number') return mine.has(value);
  return value.direct_members.includes(userId) || value.direct_subgroups.some((g) => mine.has(g));
}

/** Groups the user may mention, as the public app offers them (no system or deactivated groups). */
export function mentionableGroups(account: AccountState): UserGroup[] {
  const groups = account.userGroups.groups;
  return [...groups.values()].filter(
    (g) =>
      !g.is_system_group &&
      !g.deactivated &&
      inGroupSetting(g.can_mention_group, account.selfUserId, groups),
  );
}

/** Senders of the stored messages of a topic (or the whole channel), newest message first. */
function recentSenders(account: AccountState, streamId: number, topic: string | null): number[] {
  const topics = account.messages.conversations.channels.get(streamId);
  if (!topics) return [];
  const ids: number[] = [];
  for (const [name, set] of topics)
    if (topic === null || name.toLowerCase() === topic.toLowerCase()) ids.push(...set);
  ids.sort((a, b) => b - a);
  const senders: number[] = [];
  for (const id of ids) {
    const sender = account.messages.byId.get(id)?.sender_id;
    if (sender !== undefined && !senders.includes(sender)) senders.push(sender);
  }
  return senders;
}

export function mentionContext(
  account: AccountState | undefined,
  destination: Destination | null,
  mode: 'stream' | 'private',
): MentionContext {
  if (!account)
    return {
      messageType: mode,
      channelWildcardAllowed: false,
      topicWildcardAllowed: false,
      relevance: () => Infinity,
    };
  const groups = account.userGroups.groups;
  const manyAllowed = inGroupSetting(
    account.settings.realm.realm_can_mention_many_users_group as GroupSettingValue | undefined,
    account.selfUserId,
    groups,
  );
  const order = new Map<number, number>();
  let channelWildcardAllowed = false;
  let topicWildcardAllowed = false;
  if (destination?.type === 'private') {
    destination.to.forEach((id, i) => order.set(id, i));
  } else if (destination?.type === 'stream') {
    const inTopic = recentSenders(account, destination.streamId, destination.topic);
    const inChannel = recentSenders(account, destination.streamId, null);
    for (const id of [...inTopic, ...inChannel]) if (!order.has(id)) order.set(id, order.size);
    const channel =
      account.channels.subscriptions.get(destination.streamId) ??
      account.channels.channels.get(destination.streamId);
    const subscribers = channel?.subscriber_count ?? channel?.subscribers?.length ?? Infinity;
    channelWildcardAllowed = manyAllowed || subscribers <= WILDCARD_MENTION_THRESHOLD;
    topicWildcardAllowed =
      manyAllowed || new Set([...inTopic, account.selfUserId]).size <= WILDCARD_MENTION_THRESHOLD;
  }
  return {
    messageType: mode,
    channelWildcardAllowed,
    topicWildcardAllowed,
    relevance: (id) => order.get(id) ?? Infinity,
  };
}
