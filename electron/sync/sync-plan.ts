// Which conversations background sync fills, newest first: every subscribed channel's topics
// (GET /users/me/{stream_id}/topics, with each topic's newest message id) and every direct-message
// conversation of the snapshot's recent_private_conversations. Message ids grow with time, so the
// newest id orders conversations by their last activity; the pass stops at the first one whose
// newest message is older than the person's `days`.
import type { RegisterResponse } from '../../shared/api/types';
import { dmNarrow, topicNarrow, type NarrowTerm } from '../../shared/narrow';
import { dmConversation, topicConversation } from '../cache/message-columns';

export interface PlannedConversation {
  narrow: NarrowTerm[];
  /** The store's name for it (message-columns.ts). */
  conversation: string;
  /** Its newest message id, as the server reported it. */
  maxId: number;
}

/** `topicsOf` asks the server for one channel's topics (paced and rate-limited by the caller). */
export async function planConversations(
  register: RegisterResponse,
  topicsOf: (streamId: number) => Promise<{ name: string; max_id: number }[]>,
): Promise<PlannedConversation[]> {
  const planned: PlannedConversation[] = [];
  for (const sub of register.subscriptions ?? []) {
    for (const topic of await topicsOf(sub.stream_id)) {
      planned.push({
        narrow: topicNarrow(sub.stream_id, topic.name),
        conversation: topicConversation(sub.stream_id, topic.name),
        maxId: topic.max_id,
      });
    }
  }
  const self = register.user_id;
  for (const dm of register.recent_private_conversations ?? []) {
    const others = dm.user_ids.filter((id) => id !== self);
    planned.push({
      narrow: dmNarrow(others.length > 0 ? others : [self]),
      conversation: dmConversation([...others, self]),
      maxId: dm.max_message_id,
    });
  }
  return planned.sort((a, b) => b.maxId - a.maxId);
}
