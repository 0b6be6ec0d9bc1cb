// The server calls behind each action that can be done offline, from the renderer's payload: the
// chat handlers make them directly when online, the replay (action-replay.ts) when the server is back.
// Where the API changed, the server's `zulip_feature_level` decides:
// - an edit carries prev_content_sha256 only from feature level 379, where the server checks it
//   (older servers would list it in ignored_parameters_unsupported and edit anyway);
// - "mark all as read" is POST /messages/flags/narrow over `is:unread`, batch after batch, from
//   feature level 155 (where the public web app moved to it and /mark_all_as_read was deprecated),
//   else POST /mark_all_as_read, repeated while it answers `complete: false`.
import { endpoints } from '../../shared/api/endpoints';
import type { ApiClient } from '../api/client';
import type { OfflineAction } from './action-queue';

export interface CallContext {
  client: ApiClient;
  /** The server's zulip_feature_level (0 when not known yet). */
  featureLevel: number;
}

/** Feature levels where the calls differ. */
export const FEATURE_LEVEL = { flagsNarrow: 155, prevContentSha256: 379 } as const;

/** How many requests one mark-all-read or whole-narrow flag update may take. */
const MAX_BATCHES = 100;
/** Messages the server is asked to flag per request, as the public web app asks. */
const FLAG_BATCH = 1000;

export function callAction(ctx: CallContext, action: OfflineAction): Promise<unknown> {
  const { client } = ctx;
  switch (action.kind) {
    case 'updateFlags': {
      const { messages, op, flag } = action.payload;
      return client.call(endpoints.updateFlags, { messages, op, flag });
    }
    case 'updateFlagsForNarrow':
      return updateFlagsForNarrow(client, action.payload);
    case 'markAllAsRead':
      return markAllAsRead(ctx);
    case 'addReaction':
    case 'removeReaction': {
      const p = action.payload;
      return client.call(
        action.kind === 'addReaction' ? endpoints.addReaction : endpoints.removeReaction,
        {
          message_id: p.messageId,
          emoji_name: p.emojiName,
          emoji_code: p.emojiCode,
          reaction_type: p.reactionType,
        },
      );
    }
    case 'editMessage': {
      const p = action.payload;
      return client.call(endpoints.editMessage, {
        message_id: p.messageId,
        content: p.content,
        topic: p.topic,
        stream_id: p.streamId,
        propagate_mode: p.propagateMode,
        send_notification_to_old_thread: p.sendNotificationToOldThread,
        send_notification_to_new_thread: p.sendNotificationToNewThread,
        prev_content_sha256:
          ctx.featureLevel >= FEATURE_LEVEL.prevContentSha256 ? p.prevContentSha256 : undefined,
      });
    }
    case 'deleteMessage':
      return client.call(endpoints.deleteMessage, { message_id: action.payload.messageId });
    case 'setUserTopic': {
      const p = action.payload;
      return client.call(endpoints.setUserTopic, {
        stream_id: p.streamId,
        topic: p.topic,
        visibility_policy: p.visibilityPolicy,
      });
    }
  }
}

type NarrowFlags = Extract<OfflineAction, { kind: 'updateFlagsForNarrow' }>['payload'];

function updateFlagsForNarrow(client: ApiClient, p: NarrowFlags) {
  return client.call(endpoints.updateFlagsForNarrow, {
    anchor: p.anchor,
    num_before: p.numBefore,
    num_after: p.numAfter,
    narrow: p.narrow,
    op: p.op,
    flag: p.flag,
    include_anchor: p.includeAnchor,
  });
}

/** The public web app's way: each request goes on after the last message the previous processed. */
export async function updateWholeNarrow(client: ApiClient, first: NarrowFlags): Promise<void> {
  let payload = first;
  for (let batch = 0; batch < MAX_BATCHES; batch += 1) {
    const answer = await updateFlagsForNarrow(client, payload);
    const last = answer.last_processed_id;
    if (answer.found_newest || last === null || last === payload.anchor) return;
    payload = { ...payload, anchor: last, includeAnchor: false, numBefore: 0 };
  }
}

async function markAllAsRead(ctx: CallContext): Promise<{ result: 'success'; msg: string }> {
  if (ctx.featureLevel >= FEATURE_LEVEL.flagsNarrow) {
    await updateWholeNarrow(ctx.client, {
      anchor: 'oldest',
      includeAnchor: true,
      numBefore: 0,
      numAfter: FLAG_BATCH,
      narrow: [{ operator: 'is', operand: 'unread' }],
      op: 'add',
      flag: 'read',
    });
  } else {
    for (let batch = 0; batch < MAX_BATCHES; batch += 1) {
      const answer = await ctx.client.call(endpoints.markAllAsRead, {});
      // `complete` came at feature level 153; before it, one request did it all.
      if (answer.complete !== false) break;
    }
  }
  return { result: 'success', msg: '' };
}
