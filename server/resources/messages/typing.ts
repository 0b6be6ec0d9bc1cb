// POST /typing: typing start/stop for direct conversations and channel topics (api-notes §4.6).
// Channel typing reaches only queues with the stream_typing_notifications capability, and only for
// channels with at most 100 subscribers.
import * as z from 'zod';
import type { ResourceModule } from '../module';
import type { RealmContext } from '../../realm/context';
import { p } from '../../http/params';
import { badRequest, missingParam } from '../../http/errors';
import { TYPING } from '../../config';
import { userSettings } from '../../realm/accounts';
import { canReadChannelContent } from '../../realm/permissions';
import { getChannel, subscriberIds } from '../channels/channels-store';
import { getUserRow } from '../users/users-store';
import { realmSetting } from '../realm/realm-settings';

function receivesTyping(ctx: RealmContext, userId: number): boolean {
  return userSettings(ctx.db, userId).receives_typing_notifications !== false;
}

export const typingResource: ResourceModule = {
  name: 'typing',
  routes(api, ctx) {
    api.post(
      '/typing',
      {
        params: {
          type: p.enumOf(['direct', 'private', 'stream', 'channel']).default('direct'),
          op: p.enumOf(['start', 'stop']),
          to: p
            .json(z.union([z.array(z.number().int()), z.array(z.string()), z.number().int()]))
            .optional(),
          stream_id: p.int().optional(),
          topic: p.string().optional(),
        },
      },
      ({ user, params }) => {
        const sender = { user_id: user.id, email: user.email };
        const settings = userSettings(ctx.db, user.id);
        if (params.type === 'direct' || params.type === 'private') {
          if (settings.send_private_typing_notifications === false) {
            throw badRequest('User has disabled typing notifications for direct messages');
          }
          if (params.to === undefined) throw missingParam('to');
          const to = Array.isArray(params.to) ? params.to : [params.to];
          if (to.length === 0) throw badRequest("Empty 'to' list");
          const ids = new Set<number>([user.id]);
          for (const item of to) {
            if (typeof item !== 'number') throw badRequest('Invalid user ID ' + item);
            const row = getUserRow(ctx.db, item);
            if (!row || row.is_active !== 1) throw badRequest('Invalid user ID ' + item);
            ids.add(row.id);
          }
          const recipients = [...ids]
            .sort((a, b) => a - b)
            .map((id) => ({ user_id: id, email: getUserRow(ctx.db, id)!.email }));
          ctx.events.send(
            [...ids].filter((id) => receivesTyping(ctx, id)),
            { type: 'typing', op: params.op, message_type: 'direct', sender, recipients },
          );
          return;
        }
        if (settings.send_stream_typing_notifications === false) {
          throw badRequest('User has disabled typing notifications for channel messages');
        }
        const streamId =
          params.stream_id ?? (typeof params.to === 'number' ? params.to : undefined);
        if (streamId === undefined) throw missingParam('stream_id');
        if (params.topic === undefined) throw missingParam('topic');
        const channel = getChannel(ctx.db, streamId);
        if (!channel || !canReadChannelContent(ctx.db, user, channel))
          throw badRequest('Invalid channel ID');
        const subscribers = subscriberIds(ctx.db, channel.id);
        if (subscribers.length > TYPING.maxChannelSubscribersForTyping) return;
        const topic = params.topic;
        const emptyTopicName = realmSetting(ctx.db, 'empty_topic_display_name', 'general chat');
        ctx.events.send(
          subscribers.filter((id) => receivesTyping(ctx, id)),
          (queue) =>
            queue.hasCapability('stream_typing_notifications')
              ? {
                  type: 'typing',
                  op: params.op,
                  message_type: 'stream',
                  sender,
                  stream_id: channel.id,
                  topic:
                    topic === '' && !queue.hasCapability('empty_topic_name')
                      ? emptyTopicName
                      : topic,
                }
              : null,
        );
      },
    );
  },
};
