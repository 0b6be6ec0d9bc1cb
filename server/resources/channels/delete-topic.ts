// POST /streams/{stream_id}/delete_topic: an administrator deletes every message of a topic they
// can read, as the public server's delete_in_topic (require_realm_admin; "Invalid channel ID" for a
// channel whose content they cannot read; only received messages of a channel with protected
// history). Topics match case-insensitively and the empty-topic display name means "".
//
// Deletion goes newest first in batches of BATCH messages, each its own transaction with its own
// delete_message events, like the public server. That server stops after 50 s and answers
// complete: false for the client to repeat; here the one thread also delivers every other client's
// events, so a request stops after config.deleteTopicBudgetMs (at least one batch, so each request
// makes progress). Once the topic is empty, user_topics rows for it are removed (user_topic events
// to their owners), except, in a protected-history channel, for people who still have messages of
// it they received (which this administrator could not see).
import type { Db } from '../../db';
import { badRequest } from '../../http/errors';
import { p } from '../../http/params';
import type { RealmContext } from '../../realm/context';
import type { AuthUser } from '../../realm/context';
import {
  canReadChannelContent,
  canReadMessageHistory,
  requireAdmin,
} from '../../realm/permissions';
import { announceAttachmentUpdates } from '../../uploads/attachments';
import type { ResourceModule } from '../module';
import {
  announceFirstMessageId,
  channelFirstMessageId,
  deleteMessageRows,
} from '../messages/messages-delete';
import { sendDeleteEvents, type DeletedMessage } from '../messages/messages-events';
import { emptyTopicDisplayName } from '../messages/messages-rules';
import { historyReaders } from '../messages/messages-store';
import { announceTopicPolicyChanges } from '../messages/messages-visibility';
import { getChannel, type ChannelRow } from './channels-store';

/** The public server's retention batch (zerver/lib/retention.py STREAM_MESSAGE_BATCH_SIZE). */
const DELETE_TOPIC_BATCH = 100;

/** The next batch of the topic's messages the user may delete, newest first. */
function nextBatch(
  db: Db,
  user: AuthUser,
  channel: ChannelRow,
  topic: string,
  allHistory: boolean,
): DeletedMessage[] {
  return allHistory
    ? db
        .prepare<[number, string, number], DeletedMessage>(
          `SELECT id, type, channel_id, topic FROM messages
            WHERE channel_id = ? AND topic = ? COLLATE NOCASE ORDER BY id DESC LIMIT ?`,
        )
        .all(channel.id, topic, DELETE_TOPIC_BATCH)
    : db
        .prepare<[number, number, string, number], DeletedMessage>(
          `SELECT m.id, m.type, m.channel_id, m.topic FROM messages m
             JOIN user_messages um ON um.message_id = m.id AND um.user_id = ?
            WHERE m.channel_id = ? AND m.topic = ? COLLATE NOCASE ORDER BY m.id DESC LIMIT ?`,
        )
        .all(user.id, channel.id, topic, DELETE_TOPIC_BATCH);
}

/**
 * Who is told a batch went: everyone who received one of its messages, and the subscribers who can
 * read the channel's history (as messageAudience, in one query per batch).
 */
function batchAudience(db: Db, channel: ChannelRow, ids: readonly number[]): Set<number> {
  const audience = new Set(
    db
      .prepare<[string], { user_id: number }>(
        `SELECT DISTINCT user_id FROM user_messages
          WHERE message_id IN (SELECT value FROM json_each(?))`,
      )
      .all(JSON.stringify(ids))
      .map((r) => r.user_id),
  );
  for (const id of historyReaders(db, channel)) audience.add(id);
  return audience;
}

/** Removes the topic's visibility policies nobody can use any more, telling their owners. */
function forgetTopicPolicies(ctx: RealmContext, channel: ChannelRow, topic: string): void {
  const { db } = ctx;
  const rows = db
    .prepare<[number, string], { user_id: number; topic_name: string }>(
      `SELECT user_id, topic_name FROM user_topics
        WHERE channel_id = ? AND topic_name = ? COLLATE NOCASE`,
    )
    .all(channel.id, topic);
  const stillReceived = db.prepare<[number, number, string], { one: number }>(
    `SELECT 1 AS one FROM user_messages um JOIN messages m ON m.id = um.message_id
      WHERE um.user_id = ? AND m.channel_id = ? AND m.topic = ? COLLATE NOCASE LIMIT 1`,
  );
  const remove = db.prepare(
    'DELETE FROM user_topics WHERE user_id = ? AND channel_id = ? AND topic_name = ?',
  );
  const now = ctx.nowSeconds();
  const changes = db.transaction(() =>
    rows
      .filter((row) => !stillReceived.get(row.user_id, channel.id, topic))
      .map((row) => {
        remove.run(row.user_id, channel.id, row.topic_name);
        // Named as the request named it, as the public server's events do.
        return {
          userId: row.user_id,
          channelId: channel.id,
          topic,
          policy: 0,
          lastUpdated: now,
        };
      }),
  )();
  announceTopicPolicyChanges(ctx, changes);
}

export const deleteTopicResource: ResourceModule = {
  name: 'delete-topic',
  routes(api, ctx) {
    api.post(
      '/streams/:stream_id/delete_topic',
      { ids: ['stream_id'], params: { topic_name: p.string() } },
      ({ user, ids, params }) => {
        requireAdmin(user);
        const { db } = ctx;
        const channel = getChannel(db, ids.stream_id);
        if (!channel || !canReadChannelContent(db, user, channel)) {
          throw badRequest('Invalid channel ID');
        }
        const topic = params.topic_name === emptyTopicDisplayName(db) ? '' : params.topic_name;
        const allHistory = canReadMessageHistory(db, user, channel);
        const started = performance.now();
        for (;;) {
          const batch = nextBatch(db, user, channel, topic, allHistory);
          if (batch.length === 0) break;
          const ids = batch.map((m) => m.id);
          const audience = batchAudience(db, channel, ids);
          const firstBefore = channelFirstMessageId(db, channel.id);
          const unlinked = deleteMessageRows(db, ids);
          announceFirstMessageId(ctx, channel.id, firstBefore, ids, audience);
          sendDeleteEvents(ctx, audience, batch);
          announceAttachmentUpdates(ctx, unlinked);
          if (batch.length < DELETE_TOPIC_BATCH) break;
          if (performance.now() - started >= ctx.config.deleteTopicBudgetMs) {
            return { complete: false };
          }
        }
        forgetTopicPolicies(ctx, channel, topic);
        return { complete: true };
      },
    );
  },
};
