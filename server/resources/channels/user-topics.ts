// POST /user_topics: per-user topic visibility (0 none, 1 muted, 2 unmuted, 3 followed), the
// user_topics register state and user_topic events; the deprecated muted_topics state and events
// for clients that predate user_topic, and their PATCH /users/me/subscriptions/muted_topics.
import type { ResourceModule } from '../module';
import { p } from '../../http/params';
import { ApiError, badRequest, invalidParam } from '../../http/errors';
import type { RealmContext } from '../../realm/context';
import { LIMITS } from '../../config';
import { canReadChannelContent } from '../../realm/permissions';
import { getChannel, getChannelByName } from './channels-store';
import { emptyTopicDisplayName, topicForClient } from '../messages/messages-rules';
import {
  announceTopicPolicyChanges,
  mutedTopics,
  storeTopicPolicy,
} from '../messages/messages-visibility';
/**
 * Sets one user's visibility policy for a topic (0 removes it) and announces the change; nothing
 * is stored or sent when removing a policy that was not set.
 */
function setTopicVisibility(
  ctx: RealmContext,
  userId: number,
  channelId: number,
  rawTopic: string,
  policy: number,
): void {
  let topic = rawTopic.trim();
  if (topic === emptyTopicDisplayName(ctx.db) || topic === '(no topic)') topic = '';
  if ([...topic].length > LIMITS.maxTopicLength) throw badRequest('Topic too long');
  if (topic.includes('\u0000')) throw badRequest('Topic must not contain null bytes');
  if (policy !== VISIBILITY_INHERIT) {
    announceTopicPolicyChanges(ctx, [storeTopicPolicy(ctx, userId, channelId, topic, policy)]);
    return;
  }
  const removed = ctx.db
    .prepare('DELETE FROM user_topics WHERE user_id = ? AND channel_id = ? AND topic_name = ?')
    .run(userId, channelId, topic);
  if (removed.changes === 0) return;
  announceTopicPolicyChanges(ctx, [
    { userId, channelId, topic, policy: VISIBILITY_INHERIT, lastUpdated: ctx.nowSeconds() },
  ]);
}

/** The stored policy for a topic as the request names it (0 when none). */
function topicPolicy(
  ctx: RealmContext,
  userId: number,
  channelId: number,
  rawTopic: string,
): number {
  let topic = rawTopic.trim();
  if (topic === emptyTopicDisplayName(ctx.db) || topic === '(no topic)') topic = '';
  const row = ctx.db
    .prepare<[number, number, string], { visibility_policy: number }>(
      'SELECT visibility_policy FROM user_topics WHERE user_id = ? AND channel_id = ? AND topic_name = ?',
    )
    .get(userId, channelId, topic);
  return row?.visibility_policy ?? VISIBILITY_INHERIT;
}

const VISIBILITY_INHERIT = 0;
const VISIBILITY_MUTED = 1;

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
        setTopicVisibility(ctx, user.id, channel.id, params.topic, params.visibility_policy);
      },
    );

    // The deprecated form the public server still accepts (its Python bindings' mute_topic):
    // mutes a topic, or removes the topic's policy, naming the channel by name or by id.
    api.patch(
      '/users/me/subscriptions/muted_topics',
      {
        params: {
          stream_id: p.int().optional(),
          stream: p.string().optional(),
          topic: p.string(),
          op: p.enumOf(['add', 'remove']),
        },
      },
      ({ user, params }) => {
        if (params.stream_id === undefined && params.stream === undefined)
          throw badRequest("Missing 'stream_id' argument");
        if (params.stream_id !== undefined && params.stream !== undefined) {
          throw new ApiError(
            'INCOMPATIBLE_PARAMETERS',
            'Unsupported parameter combination: stream_id, stream',
          );
        }
        const channel =
          params.stream !== undefined
            ? getChannelByName(ctx.db, params.stream)
            : getChannel(ctx.db, params.stream_id!);
        if (params.op === 'remove') {
          // As the public server: removing needs the channel to exist, not access to it, and
          // removes only a mute (a followed or unmuted topic is "not muted").
          if (!channel || topicPolicy(ctx, user.id, channel.id, params.topic) !== VISIBILITY_MUTED)
            throw badRequest('Topic is not muted');
          setTopicVisibility(ctx, user.id, channel.id, params.topic, VISIBILITY_INHERIT);
          return;
        }
        if (!channel || !canReadChannelContent(ctx.db, user, channel)) {
          throw badRequest(
            params.stream !== undefined
              ? `Invalid channel name '${params.stream}'`
              : 'Invalid channel ID',
          );
        }
        if (topicPolicy(ctx, user.id, channel.id, params.topic) === VISIBILITY_MUTED)
          throw badRequest('Topic already muted');
        setTopicVisibility(ctx, user.id, channel.id, params.topic, VISIBILITY_MUTED);
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
