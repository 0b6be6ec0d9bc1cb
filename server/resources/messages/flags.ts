// Personal message flags: POST /messages/flags, POST /messages/flags/narrow (spec 4.12),
// POST /mark_all_as_read (4.25) and the deprecated mark_stream/topic_as_read, with
// update_message_flags events (api-notes §4.5). Only read, starred and collapsed are user-changeable.
// A message the user can read but never received (public history) has no user_messages row; starring
// or collapsing it creates one marked historical and read, as the public server does.
import * as z from 'zod';
import type { Db } from '../../db';
import {
  MESSAGE_FLAG_NAMES,
  MessageFlag,
  USER_EDITABLE_FLAGS,
  type MessageFlagName,
} from '../../db/flags';
import { badRequest, checkListCap } from '../../http/errors';
import { LIMITS } from '../../config';
import { p } from '../../http/params';
import type { AuthUser, RealmContext } from '../../realm/context';
import { canReadChannelContent } from '../../realm/permissions';
import type { ResourceModule } from '../module';
import { loopSlicer, type LoopSlicer } from '../../realm/loop-slices';
import { getChannel } from '../channels/channels-store';
import { MENTION_FLAG_BITS, directRecipientUserIds, type MessageRow } from './messages-store';
import { narrowSchema, normalizeNarrow } from './narrow';
import { NarrowQuery } from './narrow-query';
import { MAX_MESSAGES_PER_FETCH, parseAnchor } from './messages-fetch';
import { LARGER_THAN_MAX_MESSAGE_ID } from './narrow-query';
import { emptyTopicDisplayName, topicForClient } from './messages-rules';

type FlagOp = 'add' | 'remove';

/** What a flag change reads of each message: not its content (5,000 full rows took 35 ms). */
type FlagTarget = Pick<MessageRow, 'id' | 'type' | 'channel_id' | 'recipient_id' | 'topic'> & {
  um_flags: number | null;
};

/** The columns of a FlagTarget, for a query over `messages m` and the viewer's `user_messages um`. */
const FLAG_TARGET_COLUMNS =
  'm.id, m.type, m.channel_id, m.recipient_id, m.topic, um.flags AS um_flags';

/** Ids read per statement before other requests may run (the reads are the larger part). */
const FLAG_TARGETS_PER_READ = 1000;

function checkFlag(flag: string): MessageFlagName {
  if (!(MESSAGE_FLAG_NAMES as readonly string[]).includes(flag)) {
    throw badRequest(`Invalid flag: '${flag}'`);
  }
  if (!USER_EDITABLE_FLAGS.includes(flag as MessageFlagName)) {
    throw badRequest(`Flag not editable: '${flag}'`);
  }
  return flag as MessageFlagName;
}

function isSubscribed(db: Db, userId: number, channelId: number): boolean {
  return (
    db
      .prepare('SELECT 1 FROM subscriptions WHERE user_id = ? AND channel_id = ? AND active = 1')
      .get(userId, channelId) !== undefined
  );
}

export interface FlagUpdate {
  changed: number[];
  ignoredChannels: number[];
}

/** Applies op/flag to the given messages (all accessible to the user) and emits the event. */
export function updateFlags(
  ctx: RealmContext,
  user: AuthUser,
  targets: readonly FlagTarget[],
  op: FlagOp,
  flag: MessageFlagName,
): FlagUpdate {
  const { db } = ctx;
  const bit = MessageFlag[flag];
  const ignored = new Set<number>();
  const subscribed = new Map<number, boolean>();
  const received: number[] = [];
  const historical: number[] = [];
  for (const target of targets) {
    if (target.um_flags === null) {
      // Never received: always read; starring or collapsing creates a historical row.
      if (flag !== 'read' && op === 'add') historical.push(target.id);
      continue;
    }
    if (
      flag === 'read' &&
      op === 'remove' &&
      target.type === 'stream' &&
      target.channel_id !== null
    ) {
      let isSub = subscribed.get(target.channel_id);
      if (isSub === undefined) {
        isSub = isSubscribed(db, user.id, target.channel_id);
        subscribed.set(target.channel_id, isSub);
      }
      if (!isSub) {
        ignored.add(target.channel_id);
        continue;
      }
    }
    received.push(target.id);
  }
  // The bit is set or cleared in SQL, which also says which rows it changed: the targets may have
  // been read across several turns of the loop (flagTargetsByIds), so their flags may be stale.
  // One statement each, in one transaction: the change is all or nothing, as on the public server.
  const changed = db.transaction(() => [
    ...(received.length === 0
      ? []
      : db
          .prepare<[Record<string, unknown>], number>(
            op === 'add'
              ? `UPDATE user_messages SET flags = flags | @bit WHERE user_id = @user
                   AND message_id IN (SELECT value FROM json_each(@ids)) AND (flags & @bit) = 0
                 RETURNING message_id`
              : `UPDATE user_messages SET flags = flags & ~@bit WHERE user_id = @user
                   AND message_id IN (SELECT value FROM json_each(@ids)) AND (flags & @bit) <> 0
                 RETURNING message_id`,
          )
          .pluck()
          .all({ bit, user: user.id, ids: JSON.stringify(received) })),
    ...(historical.length === 0
      ? []
      : db
          .prepare<[Record<string, unknown>], number>(
            // A row made meanwhile (a message starred by another request) gets the bit instead.
            `INSERT INTO user_messages (user_id, message_id, flags)
               SELECT @user, value, @rowFlags FROM json_each(@ids) WHERE 1
               ON CONFLICT (user_id, message_id) DO UPDATE SET flags = flags | @bit
               WHERE (flags & @bit) = 0
             RETURNING message_id`,
          )
          .pluck()
          .all({
            bit,
            user: user.id,
            ids: JSON.stringify(historical),
            rowFlags: MessageFlag.historical | MessageFlag.read | bit,
          })),
  ])();
  changed.sort((a, b) => a - b);
  if (changed.length > 0) {
    const event: Record<string, unknown> & { type: string } = {
      type: 'update_message_flags',
      op,
      operation: op,
      flag,
      messages: changed,
      all: false,
    };
    if (flag === 'read' && op === 'remove') {
      const ids = new Set(changed);
      const named = { ...event, message_details: messageDetails(db, user.id, targets, ids, false) };
      const empty = { ...event, message_details: messageDetails(db, user.id, targets, ids, true) };
      ctx.events.send([user.id], (queue) =>
        queue.hasCapability('empty_topic_name') ? empty : named,
      );
    } else {
      ctx.events.send([user.id], event);
    }
  }
  return { changed, ignoredChannels: [...ignored].sort((a, b) => a - b) };
}

/** What a client needs to put messages back into unread_msgs (api-notes §4.5). */
function messageDetails(
  db: Db,
  userId: number,
  targets: readonly FlagTarget[],
  ids: ReadonlySet<number>,
  allowEmptyTopicName: boolean,
): Record<string, unknown> {
  const details: Record<string, unknown> = {};
  for (const target of targets) {
    if (!ids.has(target.id)) continue;
    const entry: Record<string, unknown> = {
      type: target.type === 'stream' ? 'stream' : 'private',
    };
    if ((target.um_flags ?? 0) & MENTION_FLAG_BITS) entry.mentioned = true;
    if (target.type === 'stream') {
      entry.stream_id = target.channel_id;
      entry.topic = topicForClient(db, target.topic, allowEmptyTopicName);
    } else {
      entry.user_ids = directRecipientUserIds(db, target.recipient_id).filter(
        (id) => id !== userId,
      );
    }
    details[String(target.id)] = entry;
  }
  return details;
}

/**
 * The messages a flag change names, read a thousand ids at a time with other requests running
 * between (up to 5,000 ids: bench/hostile-load). Any the user cannot read: 400, nothing changed.
 */
async function flagTargetsByIds(
  ctx: RealmContext,
  user: AuthUser,
  ids: readonly number[],
  slicer: LoopSlicer,
): Promise<FlagTarget[]> {
  const query = new NarrowQuery(ctx.db, user, []);
  const unique = [...new Set(ids)];
  const rows: FlagTarget[] = [];
  for (let first = 0; first < unique.length; first += FLAG_TARGETS_PER_READ) {
    await slicer.slice();
    const chunk = unique.slice(first, first + FLAG_TARGETS_PER_READ);
    rows.push(...query.byIds<FlagTarget>(chunk, FLAG_TARGET_COLUMNS));
  }
  if (rows.length !== unique.length) throw badRequest('Invalid message(s)');
  return rows.sort((a, b) => a.id - b.id);
}

export function unreadTargets(
  db: Db,
  userId: number,
  extra: string,
  params: unknown[],
): FlagTarget[] {
  return db
    .prepare<unknown[], FlagTarget>(
      `SELECT ${FLAG_TARGET_COLUMNS} FROM user_messages um JOIN messages m ON m.id = um.message_id
        WHERE um.user_id = ? AND (um.flags & 1) = 0 ${extra} ORDER BY m.id`,
    )
    .all(userId, ...params);
}

export const flagsResource: ResourceModule = {
  name: 'flags',
  routes(api, ctx) {
    api.post(
      '/messages/flags',
      {
        params: {
          messages: p.json(z.array(z.number().int())),
          op: p.enumOf(['add', 'remove']),
          flag: p.string(),
        },
      },
      async ({ user, params, meter }) => {
        checkListCap(params.messages, LIMITS.maxMessageIdsPerRequest, 'messages in one request');
        const flag = checkFlag(params.flag);
        const targets = await flagTargetsByIds(ctx, user, params.messages, loopSlicer(meter));
        const result = updateFlags(ctx, user, targets, params.op, flag);
        const body: Record<string, unknown> = { messages: result.changed };
        if (flag === 'read' && params.op === 'remove') {
          body.ignored_because_not_subscribed_channels = result.ignoredChannels;
        }
        return body;
      },
    );

    api.post(
      '/messages/flags/narrow',
      {
        params: {
          anchor: p.string(),
          include_anchor: p.bool().default(true),
          num_before: p.int(),
          num_after: p.int(),
          narrow: p.json(narrowSchema).default([]),
          op: p.enumOf(['add', 'remove']),
          flag: p.string(),
        },
      },
      ({ user, params }) => {
        const flag = checkFlag(params.flag);
        if (params.num_before < 0) throw badRequest("Invalid 'num_before': must not be negative");
        if (params.num_after < 0) throw badRequest("Invalid 'num_after': must not be negative");
        // The server may lower the range (spec 4.12); it never processes more than one fetch.
        const numBefore = Math.min(params.num_before, MAX_MESSAGES_PER_FETCH);
        const numAfter = Math.min(params.num_after, MAX_MESSAGES_PER_FETCH - numBefore);
        const query = new NarrowQuery(ctx.db, user, normalizeNarrow(params.narrow));
        const parsed = parseAnchor(params.anchor);
        const anchor =
          parsed === 'first_unread'
            ? (query.firstUnreadId() ?? LARGER_THAN_MAX_MESSAGE_ID)
            : parsed;
        const range = query.range(anchor, numBefore, numAfter, params.include_anchor);
        const result = updateFlags(ctx, user, range.rows, params.op, flag);
        const body: Record<string, unknown> = {
          processed_count: range.rows.length,
          updated_count: result.changed.length,
          first_processed_id: range.rows[0]?.id ?? null,
          last_processed_id: range.rows[range.rows.length - 1]?.id ?? null,
          found_oldest: range.foundOldest,
          found_newest: range.foundNewest,
        };
        if (flag === 'read' && params.op === 'remove') {
          body.ignored_because_not_subscribed_channels = result.ignoredChannels;
        }
        return body;
      },
    );

    api.post('/mark_all_as_read', {}, ({ user }) => {
      const changed = ctx.db
        .prepare('UPDATE user_messages SET flags = flags | 1 WHERE user_id = ? AND (flags & 1) = 0')
        .run(user.id).changes;
      if (changed > 0) {
        ctx.events.send([user.id], {
          type: 'update_message_flags',
          op: 'add',
          operation: 'add',
          flag: 'read',
          messages: [],
          all: true,
        });
      }
      return { complete: true };
    });

    api.post('/mark_stream_as_read', { params: { stream_id: p.int() } }, ({ user, params }) => {
      const channel = getChannel(ctx.db, params.stream_id);
      if (!channel || !canReadChannelContent(ctx.db, user, channel)) {
        throw badRequest('Invalid channel ID');
      }
      const targets = unreadTargets(ctx.db, user.id, 'AND m.channel_id = ?', [channel.id]);
      updateFlags(ctx, user, targets, 'add', 'read');
    });

    api.post(
      '/mark_topic_as_read',
      { params: { stream_id: p.int(), topic_name: p.string() } },
      ({ user, params }) => {
        const channel = getChannel(ctx.db, params.stream_id);
        if (!channel || !canReadChannelContent(ctx.db, user, channel)) {
          throw badRequest('Invalid channel ID');
        }
        let topic = params.topic_name.trim();
        if (topic === emptyTopicDisplayName(ctx.db)) topic = '';
        const targets = unreadTargets(
          ctx.db,
          user.id,
          'AND m.channel_id = ? AND m.topic = ? COLLATE NOCASE',
          [channel.id, topic],
        );
        updateFlags(ctx, user, targets, 'add', 'read');
      },
    );
  },
};
