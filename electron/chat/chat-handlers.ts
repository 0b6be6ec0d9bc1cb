// Handlers of the chat domain (shared/ipc/chat.ts): each names the endpoint it calls, translates the
// renderer's camelCase payload into the API's parameters, and lets main attach the credentials.
import { endpoints } from '../../shared/api/endpoints';
import type { chatMethods } from '../../shared/ipc/chat';
import type { MethodHandlers } from '../../shared/ipc/contract';
import type { AccountSession } from '../accounts/session';

export type ChatHandlers = Pick<MethodHandlers, keyof typeof chatMethods>;

export function chatHandlers(sessions: {
  session(accountId: string): AccountSession;
}): ChatHandlers {
  /** The account's session, refusing calls (SIGNED_OUT) while it is signed out. */
  const session = (payload: { accountId: string }) => {
    const found = sessions.session(payload.accountId);
    found.assertSignedIn();
    return found;
  };
  return {
    // Not refused when signed out: like offline, the message waits in the outbox (it survives
    // reauthenticate, which starts a new session on the same data folder).
    sendMessage: (payload) =>
      sessions.session(payload.accountId).send(payload.message, payload.localId),
    getMessages: (p) => session(p).getMessages(p.narrow, p),
    getMessage: (p) =>
      session(p).client.call(endpoints.getMessage, {
        message_id: p.messageId,
        apply_markdown: false,
      }),
    getMessageHistory: (p) =>
      session(p).client.call(endpoints.getMessageHistory, {
        message_id: p.messageId,
        // Empty topics stay "" (as in every other fetch); the renderer names them.
        allow_empty_topic_name: true,
      }),
    getStreamTopics: (p) => session(p).getStreamTopics(p.streamId),
    renderMessage: (p) => session(p).client.call(endpoints.renderMessage, { content: p.content }),
    editMessage: (p) =>
      session(p).client.call(endpoints.editMessage, {
        message_id: p.messageId,
        content: p.content,
        topic: p.topic,
        stream_id: p.streamId,
        propagate_mode: p.propagateMode,
        send_notification_to_old_thread: p.sendNotificationToOldThread,
        send_notification_to_new_thread: p.sendNotificationToNewThread,
        prev_content_sha256: p.prevContentSha256,
      }),
    deleteMessage: (p) =>
      session(p).client.call(endpoints.deleteMessage, { message_id: p.messageId }),
    updateFlags: (p) =>
      session(p).client.call(endpoints.updateFlags, {
        messages: p.messages,
        op: p.op,
        flag: p.flag,
      }),
    updateFlagsForNarrow: (p) =>
      session(p).client.call(endpoints.updateFlagsForNarrow, {
        anchor: p.anchor,
        num_before: p.numBefore,
        num_after: p.numAfter,
        narrow: p.narrow,
        op: p.op,
        flag: p.flag,
        include_anchor: p.includeAnchor,
      }),
    addReaction: (p) =>
      session(p).client.call(endpoints.addReaction, {
        message_id: p.messageId,
        emoji_name: p.emojiName,
        emoji_code: p.emojiCode,
        reaction_type: p.reactionType,
      }),
    removeReaction: (p) =>
      session(p).client.call(endpoints.removeReaction, {
        message_id: p.messageId,
        emoji_name: p.emojiName,
        emoji_code: p.emojiCode,
        reaction_type: p.reactionType,
      }),
    sendSubmessage: (p) =>
      session(p).client.call(endpoints.sendSubmessage, {
        message_id: p.messageId,
        msg_type: p.msgType,
        content: p.content,
      }),
    sendTyping: (p) =>
      session(p).client.call(
        endpoints.sendTyping,
        p.to.type === 'direct'
          ? { type: 'direct', op: p.op, to: p.to.userIds }
          : { type: 'stream', op: p.op, stream_id: p.to.streamId, topic: p.to.topic },
      ),
    getStreams: (p) =>
      session(p).client.call(endpoints.getStreams, {
        ...(p.includeAll !== undefined ? { include_all: p.includeAll } : {}),
        ...(p.excludeArchived !== undefined ? { exclude_archived: p.excludeArchived } : {}),
      }),
    subscribe: (p) =>
      session(p).client.call(endpoints.subscribe, {
        subscriptions: p.subscriptions,
        principals: p.principals,
        invite_only: p.inviteOnly,
        announce: p.announce,
      }),
    createChannel: (p) => {
      const account = session(p);
      // With principals the server subscribes only those listed, so the creator is added to them.
      const me = account.register?.user_id;
      const others = p.principals ?? [];
      return account.client.call(endpoints.subscribe, {
        subscriptions: [{ name: p.name, description: p.description ?? '' }],
        principals: me === undefined ? p.principals : [...new Set([me, ...others])],
        invite_only: p.privacy === 'private',
        is_web_public: p.privacy === 'web-public',
        announce: p.announce,
      });
    },
    addSubscribers: (p) =>
      session(p).client.call(endpoints.subscribe, {
        subscriptions: [{ name: p.channelName }],
        principals: p.principals,
      }),
    unsubscribe: (p) =>
      session(p).client.call(endpoints.unsubscribe, {
        subscriptions: p.subscriptions,
        principals: p.principals,
      }),
    updateSubscriptionProperties: (p) =>
      session(p).client.call(endpoints.updateSubscriptionProperties, {
        subscription_data: p.changes.map((change) => ({
          stream_id: change.streamId,
          property: change.property,
          value: change.value,
        })),
      }),
    setUserTopic: (p) =>
      session(p).client.call(endpoints.setUserTopic, {
        stream_id: p.streamId,
        topic: p.topic,
        visibility_policy: p.visibilityPolicy,
      }),
    setStatus: (p) =>
      session(p).client.call(endpoints.setStatus, {
        status_text: p.statusText,
        emoji_name: p.emojiName,
        emoji_code: p.emojiCode,
        reaction_type: p.reactionType,
        scheduled_end_time: p.scheduledEndTime,
      }),
    getUser: (p) =>
      session(p).client.call(endpoints.getUser, {
        user_id: p.userId,
        client_gravatar: false,
        include_custom_profile_fields: p.includeCustomProfileFields,
      }),
    updateSettings: (p) => session(p).client.call(endpoints.updateSettings, p.settings),
    markAllAsRead: (p) => session(p).client.call(endpoints.markAllAsRead, {}),
    getOutbox: ({ accountId }) => sessions.session(accountId).outbox.list(),
    retryOutbox: async ({ accountId }) => {
      await sessions.session(accountId).outbox.flush({ includeFailed: true });
      return null;
    },
    discardOutboxEntry: ({ accountId, localId }) => {
      sessions.session(accountId).outbox.discard(localId);
      return null;
    },
  };
}
