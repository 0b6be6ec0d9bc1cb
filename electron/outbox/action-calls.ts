// The one server call behind each action that can be done offline, from the renderer's payload: the
// chat handlers make it directly when online, the replay (action-replay.ts) when the server is back.
import { endpoints } from '../../shared/api/endpoints';
import type { ApiClient } from '../api/client';
import type { OfflineAction } from './action-queue';

export function callAction(client: ApiClient, action: OfflineAction): Promise<unknown> {
  switch (action.kind) {
    case 'updateFlags': {
      const { messages, op, flag } = action.payload;
      return client.call(endpoints.updateFlags, { messages, op, flag });
    }
    case 'updateFlagsForNarrow': {
      const p = action.payload;
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
        prev_content_sha256: p.prevContentSha256,
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
