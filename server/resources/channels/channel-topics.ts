// GET /users/me/{stream_id}/topics: the topics of a channel as [{name, max_id}], newest first (the
// public API's shape). Topics are case-insensitive; a topic is named as its newest message spells
// it. Who sees what follows message access: readers of the channel's history get every topic;
// subscribers of a channel with protected history only topics of messages they received. A channel
// the caller cannot read (or see at all) is "Invalid channel ID".
import { badRequest } from '../../http/errors';
import { p } from '../../http/params';
import { canReadChannelContent, canReadMessageHistory } from '../../realm/permissions';
import { getChannel } from './channels-store';
import type { ResourceModule } from '../module';
import { realmSetting } from '../realm/realm-settings';

interface TopicRow {
  name: string;
  max_id: number;
}

export const channelTopicsResource: ResourceModule = {
  name: 'channel-topics',
  routes(api, ctx) {
    api.get(
      '/users/me/:stream_id/topics',
      { ids: ['stream_id'], params: { allow_empty_topic_name: p.bool().default(false) } },
      ({ user, ids, params }) => {
        const channel = getChannel(ctx.db, ids.stream_id);
        if (!channel || !canReadChannelContent(ctx.db, user, channel)) {
          throw badRequest('Invalid channel ID');
        }
        // SQLite returns the bare column `topic` from the row holding MAX(id).
        const topics = canReadMessageHistory(ctx.db, user, channel)
          ? ctx.db
              .prepare<[number], TopicRow>(
                `SELECT topic AS name, MAX(id) AS max_id FROM messages
                  WHERE channel_id = ? GROUP BY topic COLLATE NOCASE ORDER BY max_id DESC`,
              )
              .all(channel.id)
          : ctx.db
              .prepare<[number, number], TopicRow>(
                `SELECT m.topic AS name, MAX(m.id) AS max_id FROM messages m
                   JOIN user_messages um ON um.message_id = m.id AND um.user_id = ?
                  WHERE m.channel_id = ? GROUP BY m.topic COLLATE NOCASE ORDER BY max_id DESC`,
              )
              .all(user.id, channel.id);
        if (!params.allow_empty_topic_name) {
          const display = realmSetting(ctx.db, 'empty_topic_display_name', 'general chat');
          for (const topic of topics) if (topic.name === '') topic.name = display;
        }
        return { topics };
      },
    );
  },
};
