// Validation rules shared by sending and editing: content and topic bounds, the empty-topic rules
// (topics_policy, realm_empty_topic_display_name, "(no topic)") and wildcard-mention permission.
import type { Db } from '../../db';
import { LIMITS } from '../../config';
import { ApiError, badRequest } from '../../http/errors';
import type { AuthUser } from '../../realm/context';
import { realmGroupSettingAllows } from '../../realm/permissions';
import type { ChannelRow } from '../channels/channels-store';
import { realmSetting } from '../realm/realm-settings';
import { hasUnprintable } from '../../realm/text-rules';

/** Channels and topics larger than this need can_mention_many_users_group for wildcards. */
export const WILDCARD_MENTION_THRESHOLD = 15;

export function validateContent(content: string): string {
  // Trailing whitespace is not part of a message (as the public server normalizes it).
  const body = content.trimEnd();
  if (body.trim() === '') throw badRequest('Message must not be empty');
  if (body.includes('\u0000')) throw badRequest('Message must not contain null bytes');
  if ([...body].length > LIMITS.maxMessageLength) {
    throw badRequest(`Message too long (maximum ${LIMITS.maxMessageLength} characters)`);
  }
  return body;
}

/** Trims, maps "(no topic)" and the empty-topic display name to "", and checks the bounds. */
export function normalizeTopic(db: Db, raw: string | undefined): string {
  const topic = (raw ?? '').trim();
  if (topic.includes('\u0000')) throw badRequest('Topic must not contain null bytes');
  if (hasUnprintable(topic)) throw badRequest('Invalid characters in topic!');
  if (topic === '(no topic)' || topic === emptyTopicDisplayName(db)) return '';
  if ([...topic].length > LIMITS.maxTopicLength) {
    throw badRequest(`Topic too long (maximum ${LIMITS.maxTopicLength} characters)`);
  }
  return topic;
}

export function emptyTopicDisplayName(db: Db): string {
  return realmSetting(db, 'empty_topic_display_name', 'general chat');
}

/**
 * A channel topic as one client sees it: clients without the empty_topic_name capability (and
 * requests without allow_empty_topic_name) get the empty topic under its display name.
 */
export function topicForClient(db: Db, topic: string, allowEmptyTopicName: boolean): string {
  return topic === '' && !allowEmptyTopicName ? emptyTopicDisplayName(db) : topic;
}

/** The channel's effective topics policy ('inherit' resolves to the realm's). */
export function effectiveTopicsPolicy(db: Db, channel: ChannelRow): string {
  if (channel.topics_policy !== 'inherit') return channel.topics_policy;
  if (realmSetting<boolean>(db, 'mandatory_topics', false)) return 'disable_empty_topic';
  return realmSetting(db, 'topics_policy', 'allow_empty_topic');
}

export function checkTopicAllowed(db: Db, channel: ChannelRow, topic: string): void {
  const policy = effectiveTopicsPolicy(db, channel);
  if (policy === 'disable_empty_topic' && topic === '') {
    throw badRequest('Sending messages to the general chat is not allowed in this channel.');
  }
  if (policy === 'empty_topic_only' && topic !== '') {
    throw badRequest('Only the general chat topic is allowed in this channel.');
  }
}

function activeSubscriberCount(db: Db, channelId: number): number {
  return db
    .prepare<[number], { n: number }>(
      `SELECT COUNT(*) AS n FROM subscriptions s JOIN users u ON u.id = s.user_id
        WHERE s.channel_id = ? AND s.active = 1 AND u.is_active = 1`,
    )
    .get(channelId)!.n;
}

/** Users who posted or reacted in the topic (the audience of @**topic**). */
export function topicParticipantIds(db: Db, channelId: number, topic: string): number[] {
  return db
    .prepare<[number, string, number, string], { id: number }>(
      `SELECT sender_id AS id FROM messages WHERE channel_id = ? AND topic = ? COLLATE NOCASE
       UNION
       SELECT r.user_id FROM reactions r JOIN messages m ON m.id = r.message_id
        WHERE m.channel_id = ? AND m.topic = ? COLLATE NOCASE`,
    )
    .all(channelId, topic, channelId, topic)
    .map((r) => r.id);
}

export function checkWildcardMentions(
  db: Db,
  sender: AuthUser,
  channel: ChannelRow,
  topic: string,
  wildcards: { stream: boolean; topic: boolean },
): void {
  if (!wildcards.stream && !wildcards.topic) return;
  if (realmGroupSettingAllows(db, sender, 'can_mention_many_users_group')) return;
  if (wildcards.stream && activeSubscriberCount(db, channel.id) > WILDCARD_MENTION_THRESHOLD) {
    throw new ApiError(
      'STREAM_WILDCARD_MENTION_NOT_ALLOWED',
      'You do not have permission to use channel wildcard mentions in this channel.',
      400,
    );
  }
  if (wildcards.topic) {
    const participants = new Set(topicParticipantIds(db, channel.id, topic));
    participants.add(sender.id);
    if (participants.size > WILDCARD_MENTION_THRESHOLD) {
      throw new ApiError(
        'TOPIC_WILDCARD_MENTION_NOT_ALLOWED',
        'You do not have permission to use topic wildcard mentions in this topic.',
        400,
      );
    }
  }
}
