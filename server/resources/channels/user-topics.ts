// POST /user_topics: per-user topic visibility (0 none, 1 muted, 2 unmuted, 3 followed), the
// user_topics register state and user_topic events; the deprecated muted_topics state and events
// for clients that predate user_topic.
import type { ResourceModule } from '../module';
import { p } from '../../http/params';
import { badRequest, invalidParam } from '../../http/errors';
import { LIMITS } from '../../config';
import { canReadChannelContent } from '../../realm/permissions';
import { getChannel } from './channels-store';
import { emptyTopicDisplayName, topicForClient } from '../messages/messages-rules';
import {
  announceTopicPolicyChanges,
  mutedTopics,
  storeTopicPolicy,
} from '../messages/messages-visibility';
export const userTopicsResource: ResourceModule = {
  name: 'user-topics',
  routes(api, ctx) {
    api.post(
      '/user_topics',
      { params: { stream_id: p.int(), topic: p.string(), visibility_policy: p.int() } },
      ({ user, params }) => {
        if (![0, 1, 2, 3].includes(params.visibility_policy)) {
          throw invalidParam('visibility_policy', 'must be 0, 1, 2 or 3');
        }
        const channel = getChannel(ctx.db, params.stream_id);
        if (!channel || !canReadChannelContent(ctx.db, user, channel))
          throw badRequest('Invalid channel ID');
        let topic = params.topic.trim();
        if (topic === emptyTopicDisplayName(ctx.db) || topic === '(no topic)') topic = '';
        if ([...topic].length > LIMITS.maxTopicLength) throw badRequest('Topic too long');
        if (topic.includes('\u0000')) throw badRequest('Topic must not contain null bytes');
        if (params.visibility_policy !== 0) {
          const change = storeTopicPolicy(
            ctx,
            user.id,
            channel.id,
            topic,
            params.visibility_policy,
          );
          announceTopicPolicyChanges(ctx, [change]);
          return;
        }
        const removed = ctx.db
          .prepare(
            'DELETE FROM user_topics WHERE user_id = ? AND channel_id = ? AND topic_name = ?',
          )
          .run(user.id, channel.id, topic);
        if (removed.changes === 0) return;
        announceTopicPolicyChanges(ctx, [
          {
            userId: user.id,
            channelId: channel.id,
            topic,
            policy: 0,
            lastUpdated: ctx.nowSeconds(),
          },
        ]);
      },
    );
  },

  initialState(ctx, user, request) {
    const allowEmptyTopicName = request.capabilities.empty_topic_name === true;
    const state: Record<string, unknown> = {};
    // As the public server: a client that asks for both gets only user_topics, so it can ask for
    // muted_topics from servers that predate user_topic without getting both from newer ones.
    if (
      request.wants('muted_topics') &&
      (request.fetchesEverything || !request.wants('user_topic'))
    ) {
      state.muted_topics = mutedTopics(ctx.db, user.id, allowEmptyTopicName);
    }
    if (!request.wants('user_topic')) return state;
    return {
      ...state,
      user_topics: ctx.db
        .prepare<
          [number],
          { stream_id: number; topic_name: string; last_updated: number; visibility_policy: number }
        >(
          `SELECT channel_id AS stream_id, topic_name, last_updated, visibility_policy
             FROM user_topics WHERE user_id = ? ORDER BY last_updated`,
        )
        .all(user.id)
        .map((row) => ({
          ...row,
          topic_name: topicForClient(ctx.db, row.topic_name, allowEmptyTopicName),
        })),
    };
  },
};
