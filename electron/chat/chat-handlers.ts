// Handlers of the chat domain (shared/ipc/chat.ts): each names the endpoint it calls, translates the
// renderer's camelCase payload into the API's parameters, and lets main attach the credentials.
import { endpoints } from '../../shared/api/endpoints';
import type { chatMethods } from '../../shared/ipc/chat';
import type { MethodHandlers, MethodPayload } from '../../shared/ipc/contract';
import type { OfflineAction, OfflineActionKind } from '../outbox/action-queue';
import type { AccountSession } from '../accounts/session';
import type { ApiClient } from '../api/client';

export type ChatHandlers = Pick<MethodHandlers, keyof typeof chatMethods>;

/**
 * Rounds of delete_topic asked before giving up. Each round deletes at least a batch (the local
 * server stops after ~100 ms, the public one after 50 s), so this bounds a runaway loop, not the
 * size of a topic: 500 rounds of the local server's at least 100 messages is 50,000 or more.
 */
const DELETE_TOPIC_MAX_ROUNDS = 500;

/** Deletes a whole topic, repeating the request while the server answers complete: false. */
export async function deleteWholeTopic(
  client: ApiClient,
  streamId: number,
  topic: string,
): Promise<void> {
  for (let round = 0; round < DELETE_TOPIC_MAX_ROUNDS; round++) {
    const answer = await client.call(endpoints.deleteTopic, {
      stream_id: streamId,
      topic_name: topic,
    });
    if (answer.complete !== false) return;
  }
  throw new Error('The server is still deleting this topic. Try again in a moment.');
}

export function chatHandlers(sessions: {
  session(accountId: string): AccountSession;
}): ChatHandlers {
  /** The account's session, refusing calls (SIGNED_OUT) while it is signed out. */
  const session = (payload: { accountId: string }) => {
    const found = sessions.session(payload.accountId);
    found.assertSignedIn();
    return found;
  };
  /** One of the actions that work offline, with the renderer's payload as it is. */
  const act = <K extends OfflineActionKind>(
    { accountId, ...payload }: MethodPayload<K>,
    kind: K,
  ): Promise<never> =>
    session({ accountId }).actions.act({
      kind,
      payload,
    } as unknown as OfflineAction) as Promise<never>;
  return {
    // Not refused when signed out: like offline, the message waits in the outbox (it survives
    // reauthenticate, which starts a new session on the same data folder).
    sendMessage: (payload) =>
      sessions.session(payload.accountId).send(payload.message, payload.localId),
    getMessages: (p) => session(p).getMessages(p.narrow, p),
    getMessage: (p) => {
      const account = session(p);
      return account.client.call(
        endpoints.getMessage,
        { message_id: p.messageId, apply_markdown: false },
        // Offline, an edit form falls back to the displayed text at once instead of after retries.
        account.isOnline() ? {} : { retry: false },
      );
    },
    getMessageHistory: (p) =>
      session(p).client.call(endpoints.getMessageHistory, {
        message_id: p.messageId,
        // Empty topics stay "" (as in every other fetch); the renderer names them.
        allow_empty_topic_name: true,
      }),
    getStreamTopics: (p) => session(p).getStreamTopics(p.streamId),
    renderMessage: (p) => session(p).client.call(endpoints.renderMessage, { content: p.content }),
    // Actions on messages and topics: direct when online, else queued and shown at once
    // (electron/outbox/offline-actions.ts).
    editMessage: (p) => act(p, 'editMessage'),
    deleteMessage: (p) => act(p, 'deleteMessage'),
    // Not queued offline: deleting a topic is never done on a guess of what it holds.
    deleteTopic: async (p) => {
      await deleteWholeTopic(session(p).client, p.streamId, p.topic);
      return null;
    },
    updateFlags: (p) => act(p, 'updateFlags'),
    updateFlagsForNarrow: (p) => act(p, 'updateFlagsForNarrow'),
    addReaction: (p) => act(p, 'addReaction'),
    removeReaction: (p) => act(p, 'removeReaction'),
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
    setUserTopic: (p) => act(p, 'setUserTopic'),
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
    markAllAsRead: (p) => act(p, 'markAllAsRead'),
    getOutbox: ({ accountId }) => sessions.session(accountId).outbox.list(),
    retryOutbox: async ({ accountId }) => {
      await sessions.session(accountId).outbox.flush({ includeFailed: true });
      return null;
    },
    discardOutboxEntry: ({ accountId, localId }) => {
      sessions.session(accountId).outbox.discard(localId);
      return null;
    },
    getActionNotices: ({ accountId }) => sessions.session(accountId).actions.notices(),
  };
}
